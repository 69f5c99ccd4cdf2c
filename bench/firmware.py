"""Firmware figures measured in the MicroPython VMs (fake hardware objects, the real App): timings on
the unix VM with the RP2040 estimate at 230x (bench/util.py says where the factor comes from); heap
and the longest loop pass on chipvm, MicroPython's core set up as a CircuitPython board
(pegboard.sim.chipvm; 32-bit where gcc -m32 works)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from pegboard.sim import chipvm
from bench.util import RP2040_FACTOR, figure
from bench.core import micropython_vm
from pegboard.sim.firmware_child import lib_dir as _lib_dir

ROOT = Path(__file__).resolve().parent.parent


RUNS = 5  # VM processes: a whole process can land on a slow spell of the machine
# the settings the scenario's board starts from (a Pico wired as hardware/boards/pico-gpio.toml)
SETTINGS = {"PEGBOARD_SENSOR_PINS": ",".join("GP%d" % i for i in range(15)), "PEGBOARD_PIXEL_PIN": "GP16",
            "PEGBOARD_BUTTON_PIN": "GP15"}
# exit statuses of bench/mp/firmware_bench.py (it says what each means)
NO_MEMORY = 3
START_FAILED = 4


class ScenarioFailed(RuntimeError):
    """The firmware scenario did not complete: `status` is its process's exit status."""

    def __init__(self, status: int, output: str) -> None:
        super().__init__("firmware bench failed (exit status %d): %s" % (status, output[-2000:]))
        self.status = status


def flash_pass(cpu_us: int, writes: int, typ_ms: float, max_ms: float, budget: int, vm: str,
               note: str) -> dict[str, Any]:
    """A loop pass that wrote the flash: its CPU time x 230 plus `writes` flash operations at the
    data sheet's worst time each (typical beside it)."""
    cpu_ms = round(cpu_us * RP2040_FACTOR / 1000, 2)
    return figure(cpu_ms + writes * max_ms, "ms (RP2040 estimate)", budget, vm=vm, measured_us=cpu_us,
                  flash_operations=writes, typical_ms=round(cpu_ms + writes * typ_ms, 2), note=note)


_made: list[Path] = []


# Winbond W25Q16JV data sheet (the Pico's flash), AC electrical characteristics: page program
# tPP 0.4 ms typical, 3 ms max; 4 KB sector erase tSE 45 ms typical, 400 ms max. CircuitPython's
# nvm programs a log entry into erased bytes (one page program) and rewrites the record by erasing
# the sector and programming its 16 pages.
FLASH_PAGE_PROGRAM_TYP_MS, FLASH_PAGE_PROGRAM_MAX_MS = 0.4, 3.0
FLASH_SECTOR_REWRITE_TYP_MS = 45 + 16 * FLASH_PAGE_PROGRAM_TYP_MS
FLASH_SECTOR_REWRITE_MAX_MS = 400 + 16 * FLASH_PAGE_PROGRAM_MAX_MS


def nvm_image() -> str:
    """A file with an NVM record whose log is nearly full (the totals of ~230 games): the scenario
    starts from it, so the board rewrites the record in a quiet pass, as it does every ~250 games."""
    path = Path(tempfile.gettempdir()) / ("pegboard-bench-nvm-%d.bin" % os.getpid())
    if not _made:
        _made.append(path)
        sys.path.insert(0, str(ROOT / "firmware"))
        sys.path.insert(0, str(ROOT / "tests"))
        from fakehw import FlashNvm
        from pegcore.geometry import Board, start_mask
        from pegcore.rules import legal_jumps
        from pegfw.store import Store

        board, nvm = Board(5), FlashNvm()
        store = Store(nvm, 5)
        while store.end is None or store.end < len(nvm) - 250:  # fewer than 256 bytes left: compact
            mask = start_mask(board, 1 + (store.games % 15))
            store.new_game(mask)
            for _ in range(3):  # a short game: three moves, then the verdict
                j = legal_jumps(board, mask)[0]
                store.move(j)
                mask ^= board.flip[j]
            store.game_over(12)
        path.write_bytes(bytes(nvm.data))
    return str(path)


def run_scenario(lib: str, mode: str, vm: str | None = None, heap_kb: int | None = None) -> dict[str, int]:
    """The scenario of bench/mp/firmware_bench.py in a MicroPython VM (default: the unix VM):
    its figures, or ScenarioFailed."""
    # the chip VM gets an RP2040's heap; the 64-bit unix VM (timings only) room for its bigger objects
    # (its pointers and GC blocks are twice the chip's: 256 KB no longer held the start-up's peak
    # once positions set by hand were followed)
    heap_kb = heap_kb or (192 if vm else 320)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
    for k, v in SETTINGS.items():  # the chip VM's os.getenv reads values as settings.toml has them
        env[k] = json.dumps(v) if vm else v
    cmd = [vm or micropython_vm(), "-X", "heapsize=%dK" % heap_kb, str(ROOT / "bench/mp/firmware_bench.py"),
           str(ROOT), lib, mode, nvm_image()]
    p = subprocess.run(cmd, cwd=ROOT / "firmware", env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise ScenarioFailed(p.returncode, p.stdout + p.stderr)
    figures = {}
    for line in p.stdout.splitlines():  # "name value" lines; start-up's own console lines aside
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            figures[parts[0]] = int(parts[1])
    return figures


def _smallest_heap(lib: str, vm: str) -> tuple[int, int]:
    """(KB, free bytes the firmware had in it) of the smallest heap, in 4 KB steps, that the whole
    scenario completes in on `vm`: what the sampled peak leaves out (compiling modules, the search's
    memos, fragmentation) is in it. A run too small for the heap says so by its exit status: out of
    memory, or a failed start-up (the same start-up completed in the largest heap first, so in a
    smaller one only the heap can have failed it). Fails loudly on any other status."""
    def run_in(kb: int) -> dict[str, int] | None:
        try:
            return run_scenario(lib, "devices", vm, kb)
        except subprocess.TimeoutExpired:
            raise RuntimeError("the firmware scenario hung in a %d KB heap" % kb) from None
        except ScenarioFailed as e:
            if e.status in (NO_MEMORY, START_FAILED):
                return None  # too small
            raise

    lo, hi = 64, 256  # lo is too small: the fakes, stand-ins and bench script alone take most of it
    best = run_in(hi)
    if best is None:
        raise RuntimeError("the firmware scenario does not complete in a %d KB heap" % hi)
    while hi - lo > 4:
        mid = (lo + hi) // 8 * 4
        got = run_in(mid)
        if got is None:
            lo = mid
        else:
            hi, best = mid, got
    return hi, best["free_at_base"]


def run() -> dict[str, Any]:
    lib = _lib_dir()  # the real neopixel library, as on the chip's /lib
    heap32: dict[str, int] = {}
    chip_bits, chip_note = 0, ""
    smallest = None
    own32: dict[str, int] = {}
    why_not32 = None
    try:
        runs = [run_scenario(lib, "devices") for _ in range(RUNS)]
        own = run_scenario(lib, "plain")
        try:
            built = chipvm.build()
            chip = str(built.path)
            # heap figures do not vary; the longest pass and the solve answer are CPU times: like
            # the unix VM's timings, the least disturbed of several processes
            chip_runs = [run_scenario(lib, "devices", chip) for _ in range(3)]
            heap32 = {k: (max(r[k] for r in chip_runs) if k.startswith("heap") else min(r[k] for r in chip_runs))
                      for k in chip_runs[0]}
            heap32["spread"] = max(r["longest_pass_us"] for r in chip_runs) - heap32["longest_pass_us"]
            own32 = run_scenario(lib, "plain", chip)
            smallest = _smallest_heap(lib, chip)
            chip_bits, chip_note = built.bits, built.note
        except chipvm.Unavailable as e:
            why_not32 = str(e)
    finally:
        shutil.rmtree(lib, ignore_errors=True)
    # times: each run's median, the least disturbed run's (this machine has spells of running at
    # half speed, long enough to slow several runs in a row; like timeit, trust the fastest);
    # heap: the largest seen (it does not vary)
    v = {k: (max(r[k] for r in runs) if k.startswith("heap") else min(r[k] for r in runs)) for k in runs[0]}
    est = lambda us: round(us * RP2040_FACTOR / 1000, 2)  # noqa: E731
    vm = "micropython unix (64-bit)"
    # heap: from the 32-bit VM (the chip's word and GC block sizes); without it, the 64-bit figures
    # stand in, overstating the chip's, and the reason is reported
    h, h_own = (heap32, own32) if heap32 else (v, own)
    if heap32:
        hvm = ("chipvm (MicroPython 1.19 core set up as a CircuitPython board, %d-bit%s)"
               % (chip_bits, ", 16-byte GC blocks as the RP2040's" if chip_bits == 32 else ": " + chip_note))
    else:
        hvm = "%s: chipvm unavailable: %s" % (vm, why_not32)
    out = {
        "idle_loop_pass": figure(v["idle_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 5,
                                 measured_us=v["idle_us"],
                                 p99_rp2040_estimate_ms=est(v["idle_p99_us"]), vm=vm),
        "sensor_event_to_lights": figure(v["sensor_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", None,
                                         measured_us=v["sensor_us"], vm=vm),
        "button_to_hint_lights": figure(v["hint_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 5,
                                        measured_us=v["hint_us"], vm=vm,
                                        worst_rp2040_estimate_ms=est(v["hint_worst_us"]),
                                        button_debounce_ms=[20, 40],
                                        note="median of 25, from the pass that reads the debounced release "
                                             "(the keypad event; the board's stats time it from the event's "
                                             "timestamp); the debounce before it: 20-40 ms (2 scans of 20 ms, "
                                             "for a button bouncing 5 ms at most: pegfw.hardware)"),
        "button_to_hint_lights_hand_set": figure(
            v["hint_set_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 5,
            measured_us=v["hint_set_us"], worst_rp2040_estimate_ms=est(v["hint_set_worst_us"]), vm=vm,
            note="median of 25 (the worst beside it): the hint button on 7 pegs set by hand after the "
                 "board was emptied (free play): still a table lookup"),
        "longest_pass_with_flash_write": flash_pass(
            h["flash_write_pass_us"], h["flash_write_pass_programs"], FLASH_PAGE_PROGRAM_TYP_MS,
            FLASH_PAGE_PROGRAM_MAX_MS, 100, hvm, "the longest pass that logged a game entry (passes compiling "
            "code on demand aside, as for longest_loop_pass): CPU time x 230, plus each page program at the "
            "W25Q16JV data sheet's worst tPP (3 ms; typical 0.4 ms), interrupts off meanwhile"),
        "longest_pass_with_compaction": flash_pass(
            h["compaction_pass_us"], h["compaction_pass_erases"], FLASH_SECTOR_REWRITE_TYP_MS,
            FLASH_SECTOR_REWRITE_MAX_MS, 1000, hvm, "the pass that rewrote the record (erase + 16 page "
            "programs: 448 ms at the data sheet's worst tSE and tPP, 51 ms typical), in a quiet pass only (no "
            "peg moved for 2 s), far inside the 4 s watchdog; its code compiled on demand included"),
        "boot_to_ready": figure(v["boot_ms"] * RP2040_FACTOR, "ms (RP2040 estimate)", None, measured_ms=v["boot_ms"],
                                note="imports compiled from source; .mpy files would load faster"),
        "code_load_on_demand_worst": figure(v["load_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", None,
                                            measured_us=v["load_us"], vm=vm,
                                            note="the pause when a show or a rare request compiles its module"),
        "longest_loop_pass": figure(h["longest_pass_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 100,
                                    measured_us=h["longest_pass_us"], vm=hvm,
                                    spread_us_over_3_runs=h.get("spread"),
                                    note="the longest main-loop pass of the whole scenario (boot aside: "
                                         "start-up feeds the watchdog between modules), solve with a "
                                         "finish hole from every start to every hole included, passes "
                                         "that compile code on demand aside (next figure); CPU time x 230"),
        "longest_loop_pass_compiling": figure(
            h["longest_compile_pass_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", None,
            measured_us=h["longest_compile_pass_us"], vm=hvm,
            note="the longest pass that compiled a module on demand (a rare request's code, a show's) "
                 "from source, as the chip does without .mpy files; well inside the 4 s watchdog"),
        "solve_answer_worst": figure(h["solve_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 3000,
                                     measured_us=h["solve_us"], vm=hvm,
                                     note="request to answer, in loop-pass CPU time, over solve with "
                                          "every finish hole from every start (compiling its code "
                                          "included)"),
        "heap_after_boot": figure(h["heap_boot"], "bytes", None, vm=hvm, unix_64bit_vm_bytes=v["heap_boot"]),
        # budgets: 48 KB and 96 KB until the board followed positions set by hand (about 1.5 KB more
        # resident code; a foreign NVM record rewritten at start-up); 52 KB and 104 KB keep more
        # than 20 KB under the smallest free heap an RP2040 has for Python (~126 KB)
        "heap_peak_game_and_demo": figure(h["heap_peak"], "bytes", 52 * 1024, vm=hvm,
                                          unix_64bit_vm_bytes=v["heap_peak"],
                                          scenario="a game by the sensors, hints, a long-press demo, then "
                                                   "every kind of request from a laptop",
                                          note="live heap after gc, firmware compiled from source as "
                                               "CircuitPython does, with the real device objects and "
                                               "the Adafruit neopixel library; the fakes under them are "
                                               "not counted. The 64-bit unix VM's figure is beside it "
                                               "for reference: its 8-byte pointers and 32-byte GC "
                                               "blocks are not the chip's"),
        "heap_peak_firmware_alone": figure(h_own["heap_peak"], "bytes", None, vm=hvm,
                                           unix_64bit_vm_bytes=own["heap_peak"],
                                           note="the same without the device objects and the neopixel "
                                                "library: pegfw, pegcore and the hint table"),
    }
    if smallest is not None:
        out["heap_free_needed"] = figure(
            smallest[1], "bytes", 104 * 1024, vm=hvm, smallest_heap_kb=smallest[0],
            note="free heap the firmware needs to get through the whole scenario: gc.mem_free() "
                 "before the firmware starts, in the smallest -X heapsize (4 KB steps) the scenario "
                 "completes in; unlike the sampled peak it includes compiling modules (app.py, a "
                 "rare request's), the search's memos and fragmentation (RP2040: ~126-179 KB free)")
    return out
