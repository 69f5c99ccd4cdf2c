"""End to end: the unchanged firmware in the simulated device (CPython and the MicroPython VM),
real ptys, real pyserial, the host's BoardClient, and the virtual hand on the control port."""

import json
import os
import time

import pytest
import serial
from support import RUNTIMES, hint_lit, jump, runtimes, state_when, until

from pegboard.link.client import BoardClient, BoardError
from pegboard.sim.errors import SimError
from pegboard.sim.simulator import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.rules import legal_jumps
from pegcore.solver import Solver

G = Geometry(5)


@pytest.fixture(params=runtimes("chip"))
def sim(request):
    with Simulator(runtime=request.param) as s:
        yield s


def events_of(board, name):
    return [e for e in board.poll(0.3) if e.get("event") == name]


def test_boot_info_and_a_whole_game_by_hand(sim):
    with BoardClient(sim.data_path) as b:
        info = b.request("info")
        assert info["protocol"] == 1 and info["holes"] == 15 and info["runtime"] == {"chip": "micropython", "thumb": "micropython"}.get(sim.runtime, sim.runtime)
        assert info["hint_table"] is True
        sim.control("fill", empty=5)
        sim.control("wait_idle")
        assert b.request("state")["empty_start"] == 5
        sol = Solver(G).solution(start_mask(G, 5))
        orders = [(0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 0, 1)]
        for k, j in enumerate(sol):
            jump(sim, G.move_of(j), orders[k % 4])
        got = b.poll(0.5)
        moves = [e["move"] for e in got if e.get("event") == "move"]
        assert moves == [G.move_of(j) for j in sol]
        over = [e for e in got if e.get("event") == "game_over"]
        assert over and over[0]["pegs_left"] == 1 and over[0]["verdict"] == "genius"
        assert not [e for e in got if e.get("event") == "illegal"]
        seqs = [e["seq"] for e in got]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gaps
        assert b.gaps == 0
        px = sim.control("pixels")
        assert px["max_ma"] <= 400 and len(px["pixels"]) == 15


def test_hint_lights_three_colours_and_demo_runs(sim):
    with BoardClient(sim.data_path) as b:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        h = b.request("hint")
        assert h["solvable"] and h["move"] in [G.move_of(j) for j in legal_jumps(G, start_mask(G, 1))]
        hint_lit(sim, h["move"], 5)
        r = b.request("demo", moves=[[4, 2, 1], [6, 5, 4]])
        assert r["moves"] == [[4, 2, 1], [6, 5, 4]]
        done = b.wait_for("demo_done", timeout=10)
        assert done["stopped"] is False


def test_button_press_gives_a_hint_event(sim):
    with BoardClient(sim.data_path) as b:
        sim.control("fill", empty=4)
        sim.control("wait_idle")
        b.poll(0.2)
        # a short press, well clear of the debounce (3 scans) on a busy machine and of a long press
        sim.control("press", ms=200)
        e = b.wait_for("hint", timeout=5)
        assert e["solvable"] is True and e["best_left"] == 1


def test_power_cycle_mid_game_resumes(sim):
    with BoardClient(sim.data_path) as b:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        jump(sim, [4, 2, 1])
        jump(sim, [6, 5, 4])
        assert len(b.request("state")["moves"]) == 2
        sim.control("power_cycle")
        st = state_when(b, lambda st: st["mode"] == "play", what="the game to resume")
        assert st["empty_start"] == 1 and st["moves"] == [[4, 2, 1], [6, 5, 4]]
        assert b.request("stats")["games"] == 1


def test_hung_loop_is_reset_by_the_watchdog():
    with Simulator() as sim:
        with BoardClient(sim.data_path) as b:
            b.request("info")
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            r = sim.control("hang")
            assert r["watchdog_ms"] > 0
            until(lambda: sim.control("status")["watchdog_resets"], 15, "the watchdog to fire")
            st = state_when(b, lambda st: st["mode"] not in ("starting", "setup"), what="the game to resume")
            assert st["empty_start"] == 1 and st["mode"] == "play"  # the game survived


def test_unplug_and_replug_reconnects(tmp_path):
    link = str(tmp_path / "pegboard")
    with Simulator(link=link) as sim:
        b = BoardClient(link, reconnect=5).open()
        assert b.request("info")["protocol"] == 1
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        sim.control("unplug")
        assert not os.path.exists(link)
        sim.control("replug")
        t = time.monotonic()
        st = b.request("state", timeout=5)
        assert time.monotonic() - t < 2.0
        assert st["empty_start"] == 1 and b.reconnects == 1
        b.close()


def test_fuzzed_lines_each_get_one_reply_and_change_nothing():
    import random

    rnd = random.Random(1234)
    with Simulator() as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        with BoardClient(sim.data_path) as b:
            before = b.request("state")
        s = serial.Serial(sim.data_path, timeout=3)
        junk = [b"\xff\xfe\xfd", b"{", b"[]", b'{"cmd":null}', b'{"cmd":"nope"}', b"x" * 700,
                b'{"id":{},"cmd":"info"}', b"[" * 200, b'{"cmd":"guide","moves":[[1,2]]}', b'{"cmd":"brightness","value":"x"}']
        sent = 0
        for _ in range(120):
            if rnd.random() < 0.5:
                line = rnd.choice(junk)
            else:
                line = bytes(rnd.randrange(1, 256) for _ in range(rnd.randrange(1, 80))).replace(b"\n", b"")
            if not line.strip():
                continue
            s.write(line + b"\n")
            sent += 1
        replies = []
        deadline = time.monotonic() + 20
        while len(replies) < sent and time.monotonic() < deadline:
            raw = s.readline()
            if raw:
                obj = json.loads(raw)
                if "event" not in obj:
                    replies.append(obj)
        assert len(replies) == sent
        assert all(r["ok"] is False for r in replies)
        s.close()
        with BoardClient(sim.data_path) as b:
            after = b.request("state")
        assert after["pegs"] == before["pegs"] and after["moves"] == before["moves"]


def test_control_port_errors():
    with Simulator() as sim:
        with pytest.raises(SimError):
            sim.control("lift", hole=16)
        sim.control("clear")
        with pytest.raises(SimError):
            sim.control("lift", hole=3)
        with pytest.raises(SimError):
            sim.control("teleport")


def test_bad_firmware_folder_is_refused(tmp_path):
    with pytest.raises(SimError):
        Simulator(firmware=tmp_path)


def chip_ok(sim):
    """On the chip runtime, with chip time on: no loop pass the RP2040's watchdog would not survive."""
    st = sim.control("status")
    assert st["chip_watchdog_resets"] == 0 and st["watchdog_resets"] == 0, st["console"]
    return st


def test_watch_runs_and_steps(sim):
    with BoardClient(sim.data_path) as b:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        assert b.request("watch", speed=10)["speed"] == 10
        time.sleep(0.5)  # not a wait: half a second on, the search is still being shown
        assert b.request("state")["mode"] == "demo"
        assert b.request("stop")["stopped"] == "watch"
        assert b.request("watch", step=True)["speed"] == 0
        first = sim.control("pixels")["pixels"]
        for _ in range(3):
            b.request("watch", step=True)
        until(lambda: sim.control("pixels")["pixels"] != first, 5, "a step to move the search on")
        errors = [e for e in b.poll(0.2) if e.get("event") == "error"]
        assert not errors, errors
        if sim.runtime in ("chip", "thumb"):
            chip_ok(sim)


def test_hints_on_hand_placed_pegs_of_every_size(sim):
    import random

    rng = random.Random(7)
    with BoardClient(sim.data_path) as b:
        for n in range(0, 16):
            pegs = sorted(rng.sample(range(1, 16), n))
            sim.control("set", pegs=pegs)
            sim.control("wait_idle")
            h = b.request("hint")
            # the position the board follows: the pegs, or the game a full board less one started
            mask = sum(1 << (p - 1) for p in b.request("state")["position"])
            assert h["best_left"] == Solver(G).best_left(mask), (pegs, h)
            assert h["solvable"] == (h["best_left"] == 1)
        if sim.runtime in ("chip", "thumb"):
            chip_ok(sim)


def test_solve_with_every_finish_hole(sim):
    from test_core_reference import FINISHES

    with BoardClient(sim.data_path) as b:
        for empty in (4,):  # (every start: test_fw_app)
            sim.control("fill", empty=empty)
            sim.control("wait_idle")
            assert b.request("state")["empty_start"] == empty
            for finish in range(1, 16):
                try:
                    r = b.request("solve", finish=finish, timeout=10)
                except BoardError as e:
                    assert finish not in FINISHES[empty] and e.code == "not_solvable", e
                    continue
                assert finish in FINISHES[empty]
                assert len(r["moves"]) == 13 and r["moves"][-1][2] == finish
        if sim.runtime in ("chip", "thumb"):
            st = chip_ok(sim)
            assert 0 < st["longest_pass_ms"] < 4000


@pytest.mark.parametrize("stall_ms,resets", [(2, False), (40, True)])
def test_chip_time_resets_a_pass_the_rp2040_watchdog_would_not_survive(tmp_path, stall_ms, resets):
    # a firmware whose loop stalls for stall_ms of CPU between feeds: x230 that is 0.46 s (the
    # watchdog's 4 s allow it) or 9.2 s (the chip would reset)
    (tmp_path / "code.py").write_text(
        "import microcontroller, _vmhost\n"
        "from watchdog import WatchDogMode\n"
        "wd = microcontroller.watchdog\n"
        "wd.timeout = 4\n"
        "wd.mode = WatchDogMode.RESET\n"
        "while True:\n"
        "    wd.feed()\n"
        "    t = _vmhost.cpu_us()\n"
        "    while (_vmhost.cpu_us() - t) & ((1 << 29) - 1) < %d:\n"
        "        pass\n" % (stall_ms * 1000))
    with Simulator(firmware=tmp_path, runtime="chip") as sim:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            st = sim.control("status")
            if st["chip_watchdog_resets"] or (not resets and st["longest_pass_ms"] > 0 and
                                               time.monotonic() > deadline - 4):
                break
            time.sleep(0.1)
        assert (st["chip_watchdog_resets"] > 0) == resets, st
        assert st["longest_pass_ms"] >= stall_ms * 230 * 0.9


# every runtime's own json module (thumb's is chip's, at the chip's speed: a soak run)
@pytest.mark.parametrize("sim", [pytest.param(r, marks=pytest.mark.soak) if r == "thumb" else r for r in RUNTIMES],
                         indirect=True)
def test_malformed_json_is_refused_on_every_runtime(sim):
    # CircuitPython's own json.loads takes '{"a" 1}' and '{"a":}' (it skips commas and colons), and
    # the chip VM's is as lenient: the firmware's shape check is what refuses them
    lines = [b'{"id":1 "cmd":"state"}', b'{"id":2,"cmd" "state"}', b'{"id":3,"cmd":"state",}',
             b'{"id":4,"cmd":"solve","finish":}', b'{"id":5,"cmd":"solve","finish" 13}',
             b'{"id": "a\\"b", "cmd": "state", "x": [1, {"y": [true, null, -1.5e2]}]}']
    # thumb starts up at the chip's speed (~2 s of chip time from .py source)
    with serial.Serial(sim.data_path, timeout=15 if sim.runtime == "thumb" else 3) as port:
        port.write(b"".join(line + b"\n" for line in lines))
        got = []
        while len(got) < len(lines):
            line = port.readline()
            assert line, "no reply"
            msg = json.loads(line)
            if "event" not in msg:
                got.append(msg)
    assert [m["error"] for m in got[:5]] == ["bad_json"] * 5
    assert got[5]["ok"] and got[5]["id"] == 'a"b'
