"""End to end on the simulated board (the chip VM in `make test`; CPython and the unix VM in
`make soak`): after a game the board is emptied and reads `setup`; a hand-set position gets true
hints, before and after a power cycle; `play` from it is a game that survives a power cut; the
host's `setup` and `guide` for another start follow the hands."""

import json
import os
import queue
import subprocess
import sys
import threading
import time

import pytest
from support import back_after, hand, jump, runtimes, state_when

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.rules import holes_of, legal_jumps, mask_of
from pegcore.solver import Solver

G = Geometry(5)
SOLVER = Solver(G)
PEGS = [2, 4, 5, 7, 9, 12, 13]  # the hand-set position


@pytest.fixture(params=runtimes("chip"))
def sim(request):
    with Simulator(runtime=request.param) as s:
        yield s


def _empty(sim, b):
    sim.control("clear")
    sim.control("wait_idle")
    return state_when(b, lambda st: st["mode"] == "setup", 2.0, "setup within a second of emptying")


def _check_hint(b, mask):
    r = b.request("hint")
    assert r["move"] is not None and G.find_jump(*r["move"]) in legal_jumps(G, mask), r
    truth = SOLVER.solution(mask) is not None
    assert r["solvable"] is truth and b.request("state")["solvable"] is truth


def test_emptied_board_hand_set_position_power_cycle_and_play(sim):
    with BoardClient(sim.data_path, reconnect=10) as b:
        b.request("info")
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        mask = start_mask(G, 1)
        for j in SOLVER.solution(mask)[:3]:
            jump(sim, G.move_of(j))
            mask ^= G.flip[j]
        b.poll(0.05)
        st = _empty(sim, b)
        assert st["position"] == [] and st["start"] is None
        assert [e for e in b.poll(0.1) if e.get("event") == "setup"][-1]["reason"] == "emptied"
        assert b.request("stats")["abandoned"] == 1
        sim.control("set", pegs=PEGS)
        sim.control("wait_idle")
        st = b.request("state")
        assert st["mode"] == "setup" and st["position"] == PEGS
        _check_hint(b, mask_of(PEGS))
        sim.control("power_cycle")
        st = state_when(b, lambda st: st["pegs"] == PEGS, 30.0, "the board back after the power cycle")
        assert st["mode"] == "setup" and st["position"] == PEGS
        _check_hint(b, mask_of(PEGS))
        # play from an 8-peg position with a win
        start = start_mask(G, 1)
        for j in SOLVER.solution(start)[:6]:
            start ^= G.flip[j]
        pegs = holes_of(start)
        assert len(pegs) == 8
        sim.control("set", pegs=pegs)
        sim.control("wait_idle")
        r = b.request("play")
        assert r["start"] == pegs
        line = SOLVER.solution(start)
        jump(sim, G.move_of(line[0]))
        # an illegal placement, flagged and put right
        after = start ^ G.flip[line[0]]
        undo = G.flip[line[0]]  # putting these back is an undo in progress
        lands = 0
        for j in legal_jumps(G, after):
            lands |= G.land[j]
        bad = next(h for h in range(1, 16) if not (after | undo | lands) >> (h - 1) & 1)
        hand(sim, ("place", bad))
        assert b.request("state")["illegal"] == [bad]
        hand(sim, ("lift", bad))
        assert b.request("state")["mode"] == "play"
        sim.control("power_cycle")
        st = back_after(sim, b, 2)
        assert st["start"] == pegs and st["moves"] == [G.move_of(line[0])]
        b.poll(0.05)
        for j in line[1:]:
            jump(sim, G.move_of(j))
        over = [e for e in b.poll(0.2) if e.get("event") == "game_over"]
        assert len(over) == 1 and over[0]["pegs_left"] == 1
        stats = b.request("stats")
        assert stats["wins"] == 1 and stats["abandoned"] == 1


def test_refill_for_another_start_after_a_game_is_a_new_game(sim):
    with BoardClient(sim.data_path) as b:
        b.request("info")
        sim.control("fill", empty=3)
        sim.control("wait_idle")
        jump(sim, (8, 5, 3))
        _empty(sim, b)
        b.poll(0.05)
        sim.control("fill", empty=6)
        sim.control("wait_idle")
        jump(sim, (13, 9, 6))
        st = b.request("state")
        assert st["empty_start"] == 6 and st["moves"] == [[13, 9, 6]]


def _cli(sim, *args):
    """The command, with a thread that queues its output lines as they come."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "pegboard", *args, "--port", sim.data_path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    p.lines = queue.Queue()
    threading.Thread(target=lambda: [p.lines.put(x) for x in p.stdout] + [p.lines.put(None)], daemon=True).start()
    return p


def _line_with(p, needle, timeout=30.0):
    """The command's output up to the first line holding `needle` (it holds the port meanwhile)."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = p.lines.get(timeout=0.2)
        except queue.Empty:
            continue
        if line is None:
            break
        seen.append(line)
        if needle in line:
            return "".join(seen)
    raise AssertionError("no %r from the command: %r %r %r" % (needle, seen, p.poll(), p.stderr.read() if p.poll()
                                                                                       is not None else ""))


def _rest(p, timeout=60.0):
    """The command's exit status and the rest of its output."""
    p.wait(timeout)
    out = []
    while True:
        line = p.lines.get(timeout=5)
        if line is None:
            return p.returncode, "".join(out), p.stderr.read()
        out.append(line)


def test_pegboard_setup_and_guide_for_another_start_follow_the_hands(sim, tmp_path):
    """`pegboard guide FILE` for start 4 on a board set for start 1: the board lights the change
    of start, the player moves one peg (4 into 1), and the guide begins; likewise `pegboard setup
    --pegs` for a hand-set position."""
    start4 = start_mask(G, 4)
    line = SOLVER.solution(start4)
    sol = tmp_path / "s4.json"
    sol.write_text(json.dumps({"rows": 5, "empty": 4, "moves": [G.move_of(j) for j in line[:2]]}))
    with BoardClient(sim.data_path) as b:
        b.request("info")
        sim.control("fill", empty=1)
        sim.control("wait_idle")
    # one program holds the port at a time here: the client lets go while the command runs
    p = _cli(sim, "guide", str(sol))
    said = _line_with(p, "set up the board")
    assert "put pegs in 4" not in said and "put pegs in 1" in said and "take out 4" in said, said
    hand(sim, ("lift", 4), ("place", 1))  # the change of start: one peg moved
    said = _line_with(p, "make the lit move")
    for k, mv in enumerate([G.move_of(j) for j in line[:2]], 1):
        jump(sim, mv)
        said += _line_with(p, "%d. " % k)
    code, out, err = _rest(p)
    assert code == 0, (said, out, err)
    assert "solution complete" in said + out

    p = _cli(sim, "setup", "--pegs", ",".join(map(str, PEGS)))
    _line_with(p, "set up the board")
    sim.control("set", pegs=PEGS)
    code, out, err = _rest(p)
    assert code == 0 and "a game starts from these pegs" in out, (out, err)
    with BoardClient(sim.data_path) as b:
        st = b.request("state")
        assert st["mode"] == "play" and st["start"] == PEGS
