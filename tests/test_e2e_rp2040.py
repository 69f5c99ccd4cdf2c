"""End to end on CircuitPython's own RP2040 binary (the rp2040 runtime): the firmware as `pegboard deploy`
writes it, on the drive of an emulated Raspberry Pi Pico that boots the official UF2, through both of
its USB CDC ports, its PIO-driven NeoPixels, its keypad scan and its flash. Give the UF2 in PEGBOARD_UF2
(circuitpython.org/board/raspberry_pi_pico); without it every test here skips, saying so.

One board serves the file (a boot is ~20 s of the PC's time: the emulated chip runs at about an eighth
of real time when busy); each test starts its own game on it."""

import json
import os
import subprocess
import sys
import time

import pytest
from support import hint_lit, jump, state_when, until

from pegboard.link.client import BoardClient
from pegboard.sim.errors import SimError
from pegboard.sim.rp2040.board import uf2_files
from pegboard.sim.simulator import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.rules import legal_jumps
from pegcore.solver import Solver

G = Geometry(5)
UF2S = uf2_files(os.environ.get("PEGBOARD_UF2"))  # one file, several (os.pathsep), or a folder: each is run
pytestmark = pytest.mark.skipif(not UF2S, reason="no CircuitPython UF2 given: set PEGBOARD_UF2 to the Raspberry Pi "
                                                 "Pico's UF2 from circuitpython.org (several, or a folder) to run the "
                                                 "rp2040 runtime's tests")
SLOW = 60.0  # s: what a few of the board's seconds take at an eighth of real time, with room


@pytest.fixture(scope="module", params=UF2S or [None], ids=lambda p: p.name if p else "none")
def uf2(request):
    return request.param


@pytest.fixture(scope="module")
def sim(uf2):
    try:
        s = Simulator(runtime="rp2040", uf2=uf2)
    except SimError as e:
        if e.missing:  # a tool to install (Node.js): said, and skipped
            pytest.skip(str(e))
        raise  # a UF2 was given and the tools are here: a runtime that will not start is a failure
    with s:
        until(lambda: any("ready:" in line for line in s.console), 180, "the firmware's ready line")
        yield s


@pytest.fixture
def board(sim):
    with BoardClient(sim.data_path, timeout=SLOW) as b:
        yield b


def new_game(sim, b, empty):
    """A new game from `empty`, whatever the board did before: stop what runs, empty it, fill it."""
    b.request("stop")
    sim.control("clear")
    # an empty board ends the game once it has stayed empty 500 ms (pegfw.app.EMPTY_SETTLE_MS): no hand
    # empties and refills a board quicker, and the firmware takes a quicker refill for the old game
    state_when(b, lambda st: st["mode"] == "setup", SLOW, "the emptied board to end the game")
    sim.control("fill", empty=empty)
    sim.control("wait_idle", timeout=SLOW)
    seen = []

    def fresh():
        seen.append(b.request("state"))
        st = seen[-1]
        return st if st["mode"] == "play" and st["empty_start"] == empty and not st["moves"] else None

    try:
        return until(fresh, SLOW, "a new game from hole %d" % empty, every=0.5)
    except AssertionError as e:
        raise AssertionError("%s; the last state: %s" % (e, {k: seen[-1].get(k) for k in ("mode", "empty_start", "moves",
                                                                                           "pegs")})) from None


def cli(sim, *args):
    p = subprocess.run([sys.executable, "-m", "pegboard", *args, "--port", sim.data_path], capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def test_the_real_binary_boots_the_deployed_firmware(sim, board):
    info = board.request("info")
    assert info["runtime"] == "circuitpython" and info["holes"] == 15 and info["hint_table"] is True
    assert any("pegboard %s ready: 15 holes, hint table loaded" % info["firmware"] in line for line in sim.console)
    assert sim.control("pixels")["frames"] >= 2  # first light, then the board's own
    assert sim.circuitpython == sim.rp2040.version


def test_a_game_with_an_illegal_placement_and_an_undo(sim, board):
    new_game(sim, board, 1)
    line = Solver(G).solution(start_mask(G, 1))
    pegs = start_mask(G, 1)
    for j in line[:6]:
        jump(sim, G.move_of(j))
        pegs ^= G.flip[j]
    assert state_when(board, lambda st: len(st["moves"]) == 6, SLOW)["moves"] == [G.move_of(j) for j in line[:6]]
    # a peg put where no jump explains it (not a landing, not a put-back): flagged, then taken out again
    lands = 0
    for j in legal_jumps(G, pegs):
        lands |= G.land[j]
    bad = next(h for h in range(1, 16) if not (pegs | G.flip[line[5]] | lands) >> (h - 1) & 1)
    board.poll(0.2)
    sim.control("place", hole=bad)
    assert board.wait_for("illegal", timeout=SLOW)["holes"] == [bad]
    assert board.request("state")["mode"] == "illegal"
    sim.control("lift", hole=bad)
    board.wait_for("recovered", timeout=SLOW)
    # the last jump's pegs put back: an undo
    f, o, t = G.move_of(line[5])
    sim.control("lift", hole=t)
    sim.control("place", hole=o)
    sim.control("place", hole=f)
    assert board.wait_for("undo", timeout=SLOW)["move"] == [f, o, t]
    assert len(board.request("state")["moves"]) == 5


def test_hints_by_request_and_by_the_button_light_the_move(sim, board):
    new_game(sim, board, 4)
    h = board.request("hint")
    assert h["solvable"] and h["move"] in [G.move_of(j) for j in legal_jumps(G, start_mask(G, 4))]
    hint_lit(sim, h["move"], SLOW)
    board.poll(0.2)
    sim.control("press", ms=200)
    e = board.wait_for("hint", timeout=SLOW)
    assert e["solvable"] is True and e["best_left"] == 1
    assert board.request("stats")["last_hint_ms"] is not None


def test_demo_and_watch_run_and_stop(sim, board):
    new_game(sim, board, 1)
    assert board.request("demo", moves=[[4, 2, 1], [6, 5, 4]])["moves"] == [[4, 2, 1], [6, 5, 4]]
    assert board.wait_for("demo_done", timeout=SLOW)["stopped"] is False
    assert board.request("watch", speed=50)["speed"] == 50
    time.sleep(2)
    assert board.request("stop")["stopped"] == "watch"


def test_an_uploaded_solution_is_guided(sim, board):
    new_game(sim, board, 1)
    moves = [G.move_of(j) for j in Solver(G).solution(start_mask(G, 1))]
    assert board.request("guide", moves=moves)["steps"] == len(moves)
    for m in moves[:2]:
        jump(sim, m)
        assert board.wait_for("guide_step", timeout=SLOW)["move"] == m
    assert board.request("stop")["stopped"] == "guide"


def test_a_power_cut_mid_game_resumes_from_the_flash(sim, board):
    new_game(sim, board, 1)
    jump(sim, [4, 2, 1])
    jump(sim, [6, 5, 4])
    assert state_when(board, lambda st: len(st["moves"]) == 2, SLOW)["moves"] == [[4, 2, 1], [6, 5, 4]]
    sim.control("power_cycle")
    st = state_when(board, lambda st: st["mode"] == "play", 240, "the game to resume after the power cut")
    assert st["empty_start"] == 1 and st["moves"] == [[4, 2, 1], [6, 5, 4]]


def test_a_hand_set_position_is_played_and_kept(sim, board):
    sim.control("set", pegs=[1, 2, 7])
    sim.control("wait_idle", timeout=SLOW)
    r = board.request("play")
    assert sorted(r["start"]) == [1, 2, 7]
    jump(sim, [1, 2, 4])  # pegs 4, 7 left, then 7 over 4 into 2
    jump(sim, [7, 4, 2])
    over = board.wait_for("game_over", timeout=SLOW)
    assert over["pegs_left"] == 1
    kept = board.request("records")
    last = board.request("records", page=kept["pages"] - 1)["games"][-1]
    assert last["start"] == [1, 2, 7] and last["moves"] == [[1, 2, 4], [7, 4, 2]] and last["result"] == 1


def test_a_challenge_is_set_and_judged(sim, board):
    new_game(sim, board, 13)
    r = board.request("challenge", target="finish")
    assert r["challenge"] == "finish:13" and r["reachable"] is True
    h = board.request("hint")
    assert h["challenge"] == "finish:13" and h["reachable"] is True and h["move"]


def test_the_cli_reads_the_real_binary(sim):
    code, out = cli(sim, "state", "--json")
    assert code == 0, out
    st = json.loads(out)
    assert st["pegs"] == sim.peg_list(), out


def test_the_flash_keeps_what_the_board_wrote(sim, board):
    """The NVM the simulator keeps is the emulated flash's: records written by the real binary's
    microcontroller.nvm reach it (through the ROM's flash functions), byte for byte."""
    board.request("stats")
    with open(sim.rp2040.flash_path, "rb") as f:
        from pegboard.sim.rp2040 import layout

        f.seek(layout.NVM_OFFSET)
        flash_nvm = f.read(layout.NVM_SIZE)
    assert flash_nvm == bytes(sim.nvm)
    assert flash_nvm.rstrip(b"\xff")  # the games above were written


def test_a_firmware_that_never_comes_up_is_said_so(uf2, monkeypatch):
    # 10.x waits at start-up while BOOTSEL is held (it reads the QSPI chip-select line): with the
    # button held the console stays silent, and the runtime says so instead of waiting for ever
    from pegboard.sim.rp2040.uf2 import read_uf2

    version = read_uf2(uf2).version
    if int(version.split(".")[0]) < 10:
        pytest.skip("CircuitPython %s does not wait on BOOTSEL at start-up" % version)
    monkeypatch.setenv("PEGBOARD_RP2040_BOOTSEL", "held")
    monkeypatch.setenv("PEGBOARD_RP2040_SILENT_S", "5")
    with Simulator(runtime="rp2040", uf2=uf2) as s:
        line = until(lambda: next((x for x in s.console if "printed nothing" in x), None), 180,
                     "the runtime saying the firmware is silent")
        assert "emulated time" in line and "PC 0x" in line
        assert not any("ready:" in x for x in s.console)
