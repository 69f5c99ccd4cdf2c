"""End to end on the simulated board, CPython and the chip VM: a won game whose last jump is
undone and made again ten times is one game and one win, and the flash sector is never erased."""

import pytest
from support import hand, jump

from pegboard.client import BoardClient
from pegboard.sim import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver

G = Geometry(5)


@pytest.mark.parametrize("runtime", ["cpython", "chip"])
def test_ten_undo_redo_cycles_of_the_winning_jump_score_one_win(runtime):
    line = [G.move_of(j) for j in Solver(G).solution(start_mask(G, 1))]
    with Simulator(runtime=runtime) as sim, BoardClient(sim.data_path) as b:
        b.request("info")
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        for mv in line:
            jump(sim, mv)
        f, o, t = line[-1]
        for _ in range(10):
            hand(sim, ("lift", t), ("place", f), ("place", o))  # put back: undo
            jump(sim, line[-1])  # and again
        events = b.poll(0.1)
        assert [e["event"] for e in events if e.get("event") in ("undo", "game_over")][-20:] == \
            ["undo", "game_over"] * 10
        st = b.request("stats")
        assert (st["games"], st["wins"], st["nvm_erases"]) == (1, 1, 0)


def test_the_chip_time_of_the_simulated_board_counts_the_flash():
    """A foreign NVM record is rewritten at start-up: an erase and 16 page programs, 448 ms at the
    data sheet's worst, during which the chip runs nothing; the simulator's chip time says so."""
    sim = Simulator(runtime="chip")
    sim.nvm[0:16] = b"XX" + bytes(14)  # not erased, not a pegboard record
    with sim, BoardClient(sim.data_path) as b:
        b.request("info")
        st = sim.control("status")
        assert st["flash_ms"] == 448 and st["longest_pass_ms"] >= 448
        assert b.request("stats")["nvm_erases"] == 1
        sim.control("fill", empty=1)  # a new game: its entry is one page program, 3 ms at worst
        sim.control("wait_idle")
        assert sim.control("status")["flash_ms"] == 451
