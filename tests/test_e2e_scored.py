"""End to end on the simulated board, CPython and the chip VM: a won game whose last jump is
undone and made again ten times is one game and one win, and the flash sector is never erased."""

import pytest
from support import until, hand, jump

from pegboard.link.client import BoardClient, BoardError
from pegboard.sim.simulator import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver

G = Geometry(5)


@pytest.mark.parametrize("runtime", ["cpython", "chip", pytest.param("thumb", marks=pytest.mark.soak)])
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
    data sheet's worst, during which the chip runs nothing; the simulator's chip time says so. On the
    thumb runtime: its chip time is the emulated chip's cycles, so a loaded machine cannot stretch
    the `stats` pass that compiles its module (chipvm's assumed factor puts that pass near the
    watchdog's 4 s; thumbvm 0.69 s, CircuitPython's own binary 0.34 s: bench/results.json)."""
    sim = Simulator(runtime="thumb")
    sim.nvm[0:16] = b"XX" + bytes(14)  # not erased, not a pegboard record
    with sim, BoardClient(sim.data_path) as b:
        # a chip runtime starting on a busy machine: a request that lands while the port comes up may be
        # dropped with the half-received input (docs/protocol.md, DTR), so ask again, as a host would
        until(lambda: b.request("info", timeout=2), 30, "the board's first answer", ignore=(BoardError,))
        # the flash time is reported at the watchdog's feed, which closes the pass: after the
        # reply when `info` is answered in the first pass
        st = until(lambda: (lambda s: s if s["flash_ms"] else None)(sim.control("status")), 5, "the flash time")
        assert st["flash_ms"] == 448 and st["longest_pass_ms"] >= 448
        assert b.request("stats", timeout=60)["nvm_erases"] == 1  # the emulated chip is slow in PC time
        sim.control("fill", empty=1)  # a new game: its entry is one page program, 3 ms at worst
        sim.control("wait_idle")
        # reported at the feed that closes the pass: waited for, as the first figure was
        until(lambda: sim.control("status")["flash_ms"] != 448, 30, "the new game's page program")
        assert sim.control("status")["flash_ms"] == 451


def test_request_ids_are_unique_to_each_client_and_each_opening():
    from pegboard.link.client import BoardClient as Client

    a, b = Client("/nonexistent-a"), Client("/nonexistent-b")
    first = {a._next_id(), b._next_id()}
    a._new_ids()  # as open() does
    assert len(first | {a._next_id()}) == 3


def test_two_clients_in_turn_the_first_killed_while_the_board_searches(tmp_path):
    """The first program asks for a solve (the board answers a few passes later) and is killed at
    once; the second program's first request gets its own reply, never the first one's."""
    import os
    import subprocess
    import sys
    import time

    with Simulator(runtime="chip") as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        script = ("import json, sys, time\nfrom pegboard.link.client import BoardClient\n"
                  "b = BoardClient(sys.argv[1]).open()\n"  # its ids, as any client numbers them
                  "b.link.write((json.dumps({'id': b._next_id(), 'cmd': 'solve', 'finish': 13}) + '\\n').encode())\n"
                  "print('sent', flush=True)\ntime.sleep(60)\n")
        first = subprocess.Popen([sys.executable, "-c", script, sim.data_path], stdout=subprocess.PIPE, text=True,
                                 env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        assert first.stdout.readline().strip() == "sent"
        first.kill()
        first.wait()
        with BoardClient(sim.data_path) as second:
            started = time.monotonic()
            r = second.request("state")  # its first request
            assert "pegs" in r and "moves" in r and r["moves"] == [] and time.monotonic() - started < 10
            for _ in range(3):
                assert "pegs" in second.request("state")
