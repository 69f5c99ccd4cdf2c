"""Property tests of hand-set positions (issue "anywhere"): random games abandoned by emptying the
board, hand-set positions and `play` games with power cuts anywhere (tests/anywhere_model.py), on
the firmware's main loop with fake hardware (CPython) and on the simulated board (the chip VM in
`make test`; CPython and the unix VM too in `make soak`, with many more episodes)."""

import pytest
from anywhere_model import FakeBoard, SimBoard, episode
from hypothesis import given, settings, strategies as st
from support import runtimes

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator


@pytest.mark.timeout(1200)  # 200 episodes: minutes alone, past 300 s beside two CPU-bound programs
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_episodes_on_the_main_loop(seed):
    episode(FakeBoard(), seed)


@pytest.mark.soak
@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_episodes_on_the_main_loop_soak(seed):
    episode(FakeBoard(), seed, cut_p=0.1)


def _on_the_simulated_board(runtime, episodes):
    with Simulator(runtime=runtime) as sim, BoardClient(sim.data_path, reconnect=10) as b:
        b.request("info")
        for seed in range(episodes):
            episode(SimBoard(sim, b), 1000 + seed)


@pytest.mark.parametrize("runtime", runtimes("chip"))
def test_random_episodes_on_the_simulated_board(runtime):
    """Two seeded episodes, one after the other on one board (the chip VM in `make test`: it runs at
    the chip's pace, about 15 s an episode)."""
    _on_the_simulated_board(runtime, 2)


@pytest.mark.soak
@pytest.mark.parametrize("runtime", ["cpython", "micropython", "chip"])
def test_random_episodes_on_the_simulated_board_soak(runtime):
    _on_the_simulated_board(runtime, 20)
