"""Challenges and kept games end to end (issue "records"): the simulated board on the chip runtime
(MicroPython's core set up as a CircuitPython board: its stack, heap and feature level), driven by
the `pegboard` commands and a hand at the pegs."""

import json
import subprocess
import sys

import pytest
from support import jump, runtimes

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from pegcore.geometry import Board, start_mask
from pegcore.rules import holes_of

B = Board(5)


@pytest.fixture(params=runtimes("chip"))
def sim(request):
    with Simulator(runtime=request.param) as s:
        yield s


def pegboard(sim, *args):
    p = subprocess.run([sys.executable, "-m", "pegboard", *args, "--port", sim.data_path], capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def test_a_finish_challenge_by_the_boards_hints_is_met_and_kept(sim, tmp_path):
    sim.control("fill", empty=13)
    sim.control("wait_idle")
    code, out = pegboard(sim, "challenge", "finish")
    assert code == 0 and "the last peg in hole 13" in out and "can still be met" in out, out
    with BoardClient(sim.data_path) as b:
        for _ in range(13):
            r = b.request("hint", timeout=10)
            assert r["challenge"] == "finish:13" and r["reachable"] is True and r["move"], r
            jump(sim, r["move"])
        st = b.request("state")
        assert st["mode"] == "over" and st["position"] == [13] and st["challenge"] == "finish:13"
    code, out = pegboard(sim, "games")
    assert code == 0 and "won, challenge finish:13 met" in out, out
    code, out = pegboard(sim, "games", "--export", "1", str(tmp_path / "g.json"))
    sol = json.loads((tmp_path / "g.json").read_text())
    assert code == 0 and sol["empty"] == 13 and len(sol["moves"]) == 13


def test_the_reverse_game_and_a_bad_target_on_the_chip_runtime(sim):
    sim.control("fill", empty=5)
    sim.control("wait_idle")
    code, out = pegboard(sim, "challenge", "leave:99")
    assert code == 2 and "the board says bad_args" in out and "1..15" in out, (code, out)  # bad input: 2
    with BoardClient(sim.data_path) as b:
        r = b.request("challenge", target="most")
        most = int(r["challenge"].split(":")[1])
        assert r["reachable"] is True and most >= 7
        while True:
            h = b.request("hint", timeout=10)
            if h["move"] is None:
                break
            jump(sim, h["move"])
        st = b.request("state")
        assert len(st["position"]) == most and st["mode"] == "over"
        kept = b.request("records")["games"]
        assert kept[-1]["challenge"] == "most:%d" % most and kept[-1]["met"] is True
        assert holes_of(start_mask(B, 5)) == kept[-1]["start"]


def test_a_hand_set_puzzle_with_its_target_by_pegboard_play(sim):
    """`pegboard play --target` on the chip runtime: the request's path (play from here, then the
    challenge's code compiled) fits the chip's Python stack and heap."""
    sim.control("set", pegs=[1, 2, 4, 5, 7, 8, 12, 13])
    sim.control("wait_idle")
    code, out = pegboard(sim, "play", "--target", "leave:2")
    assert code == 0 and "leave exactly 2 pegs" in out, out
    with BoardClient(sim.data_path) as b:
        st = b.request("state")
        assert st["challenge"] == "leave:2" and st["mode"] == "play"
        h = b.request("hint", timeout=10)
        assert h["challenge"] == "leave:2" and h["reachable"] in (True, False)
