"""Figures from CircuitPython's own RP2040 binary: the rp2040 runtime (pegboard.sim.rp2040) boots the UF2
in $PEGBOARD_UF2 on rp2040js, the firmware on its drive as `pegboard deploy --py` writes it, and every time
here is the emulated chip's clock at 125 MHz (rp2040js's Cortex-M0+ cycle counts; the boot ROM's routines
charged the cycles measured for the real ROM's, pegboard.sim.rp2040.rom.js; flash erase and program the
W25Q16JV data sheet's typical times). Every figure is the emulator's; no board was used. Beside thumbvm's figures
(bench/firmware.py, bench/boot.py), whose differences docs/chip-runtime.md explains. Without a UF2 every
figure here is skipped, saying so.

- heap: `gc.mem_free()` on a bare code.py; the board's own `stats` after its start and its lowest
  through the scenario (a game by hand, hints, a demo);
- first light and ready: from code.py's start (CircuitPython's title on the console) to the first
  NeoPixel frame and to the firmware's "ready" console line, as bench/boot.py's; and code.py's start
  from the chip's reset (CircuitPython's own boot: its safe-mode wait, USB, boot.py);
- the hint button: from the emulated release of the button (the pin's change reaching the chip) to
  the first frame that shows the hint, the wait as the player meets it, worst of PRESSES presses; and the
  board's own `last_hint_ms` (from the keypad event's timestamp to the lights sent);
- a request: from its bytes reaching the chip to the first byte of its reply, worst of REQUESTS;
- the longest loop pass: the board's own `longest_pass_ms` while playing, and again after a demo whose
  code the chip compiles from .py when first asked; the longest stretch between two watchdog feeds the
  harness saw."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from bench.util import figure

UNIT = "ms (RP2040: CircuitPython's own binary on rp2040js, emulated time at 125 MHz)"
HINT_BUDGET_MS = 5  # the button's hint, as the other runtimes' figures hold it (bench/firmware.py)
FIRST_LIGHT_BUDGET_MS = 300  # bench/boot.py's
LOOP_PASS_BUDGET_MS = 100  # bench/firmware.py's longest_loop_pass
LONG_PASS_NS = 20e6  # the harness says each pass longer than this (harness.js LONG_PASS_NS)
UNFED_BUDGET_MS = 2800  # bench/boot.py's: 70 % of the 4 s watchdog
PRESSES = 3
REQUESTS = 5
RUNTIME = "rp2040 runtime: CircuitPython %s's own binary on rp2040js 1.4.1 (emulated; not a board)"


def _skipped(why: str) -> dict[str, Any]:
    return {"uf2": {"value": None, "unit": "", "budget": None, "ok": True, "skipped": why}}


def _ms(ns: float) -> float:
    return round(ns / 1e6, 3)


def _wait(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise RuntimeError("realchip bench: timed out waiting for " + what)
        time.sleep(0.05)


def _bare_heap(uf2: str) -> int:
    """gc.mem_free() of CircuitPython's own binary with nothing but a code.py that asks for it."""
    from pegboard.sim.firmware_child import FirmwareChild
    from pegboard.sim.rp2040 import node
    from pegboard.sim.rp2040.board import Rp2040Board

    exe, modules = node.install()
    # it waits for the host to open the console (CircuitPython's output to a closed CDC is lost, as on a board)
    code = (b"import gc, supervisor, time\nwhile not supervisor.runtime.serial_connected:\n    time.sleep(0.1)\n"
            b"gc.collect()\nprint('free_heap', gc.mem_free())\n")
    board = Rp2040Board(uf2, None, {}, files=[("code.py", code)])
    child = FirmwareChild(board.command(exe), dict(os.environ, NODE_PATH=str(modules)), Path.cwd())
    try:
        for msg in ({"t": "nvm", "d": ""}, {"t": "link", "up": True}, {"t": "pins", "s": 0, "b": 0}):
            child.send(msg)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            for item in child.receive() or []:
                if isinstance(item, str) and "free_heap " in item:  # after the title bar's escape sequence
                    return int(item.split("free_heap ")[1].split()[0])
            time.sleep(0.05)
        raise RuntimeError("realchip bench: the bare code.py never printed its free heap")
    finally:
        child.kill()
        board.close()


def _frames_after(sim, ns: float) -> list[dict[str, Any]]:
    return [m for m in list(sim.timeline) if m["t"] == "px" and m["ns"] > ns]


def _press_to_lights(sim, client) -> tuple[float, int]:
    """(ns from the button's release reaching the chip to the first frame after the hint event, the
    board's own last_hint_ms) for one short press."""
    client.poll(0.1)
    mark = len(sim.timeline)
    sim.control("press", ms=150)
    client.wait_for("hint", timeout=120)
    took = [m["ns"] for m in list(sim.timeline)[mark:] if m["t"] == "took" and m["m"] == "pins"]
    release = took[1]  # the press, then its release
    frame = _wait(lambda: _frames_after(sim, release), 60, "the hint's frame")[0]
    return frame["ns"] - release, client.request("stats")["last_hint_ms"]


def _longest_pass_since(sim, ns: float) -> float:
    """The longest stretch between two watchdog feeds that ended after `ns` (the harness says each over
    20 ms), in ns; 0 if none was that long."""
    return max([m["this_ms"] * 1e6 for m in list(sim.timeline) if m["t"] == "pass" and m["ns"] > ns] + [0])


def _request_to_reply(sim, client) -> float:
    client.poll(0.1)
    mark = len(sim.timeline)
    client.request("state")
    timeline = list(sim.timeline)[mark:]
    took = next(m["ns"] for m in timeline if m["t"] == "took" and m["m"] == "rx")
    reply = next(m["ns"] for m in timeline if m["t"] == "tx" and m["ns"] >= took)
    return reply - took


def run() -> dict[str, Any]:
    """Each UF2 PEGBOARD_UF2 names (one, several joined by the path separator, or a folder): its
    figures under its version ("v10_2_1.free_heap_lowest"), and under the plain name the worst of
    them all (the least heap, the longest time), the figure the budgets are held to."""
    from pegboard.sim.rp2040.board import uf2_files

    uf2s = uf2_files(os.environ.get("PEGBOARD_UF2"))
    if not uf2s:
        return _skipped("no CircuitPython UF2: set PEGBOARD_UF2 to the Raspberry Pi Pico's UF2 from circuitpython.org "
                        "(several, or a folder)")
    per_version: dict[str, dict[str, Any]] = {}
    for uf2 in uf2s:
        figures = run_one(str(uf2))
        if "uf2" in figures:
            return figures  # skipped: say why
        version = figures["free_heap_bare_code_py"]["vm"].split("CircuitPython ")[1].split("'")[0]
        per_version[version] = figures
    return merge(per_version)


def merge(per_version: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from pegboard.deploy.circuitpython import parse

    versions = sorted(per_version, key=lambda v: parse(v) or (0, 0, 0))
    out: dict[str, Any] = {}
    for version, figures in sorted(per_version.items()):
        for name, fig in figures.items():
            out["v%s.%s" % (version.replace(".", "_").replace("-", "_"), name)] = fig
    for name in next(iter(per_version.values())):
        figs = [(v, f[name]) for v, f in per_version.items()]
        least = "bytes" in figs[0][1]["unit"]  # heap: the least any version leaves; time: the longest
        version, worst = (min if least else max)(figs, key=lambda vf: vf[1]["value"])
        of = "the %s of CircuitPython %s" % ("least" if least else "longest", ", ".join(versions))
        out[name] = dict(worst, versions=versions, worst_of=version,
                         note=worst["note"] + "; " + of if worst.get("note") else of)
    return out


def run_one(uf2: str) -> dict[str, Any]:
    from pegboard.link.client import BoardClient
    from pegboard.sim.errors import SimError
    from pegboard.sim.simulator import Simulator
    from pegcore.geometry import Board, start_mask
    from pegcore.solver import Solver

    try:
        sim = Simulator(runtime="rp2040", uf2=uf2)
    except SimError as e:
        return _skipped(str(e))
    vm = RUNTIME % sim.circuitpython
    out: dict[str, Any] = {}
    out["free_heap_bare_code_py"] = figure(_bare_heap(uf2), "bytes", vm=vm)
    with sim:
        ready = _wait(lambda: [m for m in list(sim.timeline) if m["t"] == "line" and " ready:" in m.get("text", "")],
                      300, "the firmware's ready line")[0]
        timeline = list(sim.timeline)
        # code.py begins where CircuitPython writes its title (an escape sequence naming code.py)
        code_py = next(m["ns"] for m in timeline if m["t"] == "con" and "code.py" in m["s"])
        first = next(m["ns"] for m in timeline if m["t"] == "px" and m["ns"] > code_py)
        out["code_py_start"] = figure(_ms(code_py), UNIT, vm=vm,
                                     note="from the chip's reset: CircuitPython's own start")
        out["first_light_py"] = figure(_ms(first - code_py), UNIT, FIRST_LIGHT_BUDGET_MS, vm=vm,
                                       note="from code.py's start, as bench/boot.py's")
        out["ready_py"] = figure(_ms(ready["ns"] - code_py), UNIT, vm=vm, note="from code.py's start")
        with BoardClient(sim.data_path, timeout=120) as client:
            out["free_heap_after_start"] = figure(client.request("stats")["free_heap"], "bytes", vm=vm)
            g = Board(5)
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            waits, own = [], []
            for _ in range(PRESSES):
                ns, hint_ms = _press_to_lights(sim, client)
                waits.append(ns)
                own.append(hint_ms)
            out["button_release_to_hint_lights_worst"] = figure(
                _ms(max(waits)), UNIT, samples=[_ms(w) for w in waits], vm=vm,
                note="as the player meets it: the keypad's debounce (20-40 ms, two 20 ms scans) is in this wait; "
                     "the 5 ms budget is the board's part, last_hint_ms")
            out["last_hint_ms_worst"] = figure(max(own), "ms (the board's own clock: supervisor.ticks_ms)",
                                               HINT_BUDGET_MS, samples=own, vm=vm)
            # play: requests, hints and moves by hand, no rare request (stats and records load their code on
            # demand, compiled on the chip from .py each time: longest_pass_compiling's kind of pass)
            playing = sim.timeline[-1]["ns"]
            replies = [_request_to_reply(sim, client) for _ in range(REQUESTS)]
            out["request_to_reply_worst"] = figure(_ms(max(replies)), UNIT, samples=[_ms(r) for r in replies], vm=vm,
                                                   note="state: from its bytes reaching the chip to its reply's first")
            for j in Solver(g).solution(start_mask(g, 1))[:4]:
                f, o, t = g.move_of(j)
                for cmd, h in (("lift", f), ("lift", o), ("place", t)):
                    sim.control(cmd, hole=h)
                sim.control("wait_idle")
                client.request("hint")
            # the harness names each pass over 20 ms: none while playing reads as "at most 20 ms"
            played = _longest_pass_since(sim, playing) or LONG_PASS_NS
            out["longest_pass_playing"] = figure(_ms(played), UNIT, LOOP_PASS_BUDGET_MS, vm=vm, at_most=True,
                                                 note="requests, hints and moves by hand; the harness names passes "
                                                      "over 20 ms, so 20 here means none was longer")
            mark = sim.timeline[-1]["ns"]
            client.request("demo")  # its code is compiled on the chip when first asked for (pegfw.ondemand)
            client.wait_for("demo_done", timeout=600)
            stats = client.request("stats")
            out["free_heap_lowest"] = figure(stats["free_heap_lowest"], "bytes", vm=vm)
            out["longest_pass_compiling"] = figure(_ms(_longest_pass_since(sim, mark)), UNIT, vm=vm,
                                                   note="a demo and a stats request: code compiled on the chip")
            out["longest_pass_board_own"] = figure(stats["longest_pass_ms"], "ms (the board's own clock)", vm=vm,
                                                   note="since power-on: start-up's passes are in it")
            out["longest_unfed_stretch"] = figure(sim.longest_pass_ms, UNIT, UNFED_BUDGET_MS, vm=vm,
                                                  note="between two watchdog feeds since power-on")
    return out
