"""End to end, on both runtimes: power cuts and a watchdog reset at every kind of point of one
game (the first move half made, between moves, mid-jump, a peg in the hand with a stray one, the
last move made while the firmware hangs): the game comes back with every move, scored once."""

import time

import pytest

from pegboard.client import Board, BoardError
from pegboard.sim import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver

G = Geometry(5)


@pytest.fixture(params=["cpython", "micropython"])
def sim(request):
    with Simulator(runtime=request.param) as s:
        yield s


def hand(sim, *steps):
    for cmd, h in steps:
        sim.control(cmd, hole=h)
    sim.control("wait_idle")


def back(sim, b, resets):
    """Wait until the firmware restarted `resets` times and answers again."""
    deadline = time.monotonic() + 30
    while sim.control("status")["resets"] < resets:
        assert time.monotonic() < deadline, "no reset"
        time.sleep(0.1)
    while True:
        try:
            st = b.request("state", timeout=1)
            if st["mode"] != "setup":
                return st
        except BoardError:
            pass
        assert time.monotonic() < deadline, "the board did not come back"
        time.sleep(0.1)


def test_cuts_and_a_hang_at_every_kind_of_point_lose_no_move(sim):
    sol = [G.move_of(j) for j in Solver(G).solution(start_mask(G, 6))]
    with Board(sim.data_path, reconnect=10) as b:
        b.request("info")
        sim.control("fill", empty=6)
        sim.control("wait_idle")
        resets = 0
        for k, (f, o, t) in enumerate(sol):
            if k == 0:  # the first move half made: jumper in its landing hole, jumped peg still there
                hand(sim, ("lift", f), ("place", t))
                resets += 1
                sim.control("power_cycle")
                back(sim, b, resets)
                hand(sim, ("lift", o))
            elif k in (1, 5):  # between moves
                hand(sim, ("lift", f), ("place", t), ("lift", o))
                resets += 1
                sim.control("power_cycle")
                back(sim, b, resets)
            elif k == 3:  # mid-jump, jumped peg pulled first
                hand(sim, ("lift", o), ("lift", f))
                resets += 1
                sim.control("power_cycle")
                back(sim, b, resets)
                hand(sim, ("place", t))
            elif k == 7:  # the jumper in the hand and a stray peg lifted elsewhere
                stray = next(h for h in range(1, 16) if h not in (f, o, t) and h in b.request("state")["pegs"])
                hand(sim, ("lift", f), ("lift", stray))
                resets += 1
                sim.control("power_cycle")
                back(sim, b, resets)
                hand(sim, ("place", stray), ("place", t), ("lift", o))
            elif k == len(sol) - 1:  # the winning jump made while the firmware hangs
                r = sim.control("hang")
                assert r["watchdog_ms"] > 0
                hand_steps = (("lift", f), ("place", t), ("lift", o))
                for cmd, h in hand_steps:
                    sim.control(cmd, hole=h)
                resets += 1
                st = back(sim, b, resets)
            else:
                hand(sim, ("lift", f), ("place", t), ("lift", o))
        st = b.request("state")
        assert st["moves"] == sol and st["mode"] == "over" and st["empty_start"] == 6
        stats = b.request("stats")
        assert stats["games"] == 1 and stats["wins"] == 1
        assert sim.control("status")["watchdog_resets"] == 1
        # once more: a finished game is scored once and not resumed
        sim.control("power_cycle")
        time.sleep(0.5)
        deadline = time.monotonic() + 30
        while True:
            try:
                assert b.request("stats", timeout=1)["wins"] == 1
                break
            except BoardError:
                assert time.monotonic() < deadline
        assert b.request("state")["mode"] == "setup"
