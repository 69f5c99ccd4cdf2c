"""Firmware figures from the MicroPython VMs running the real App over fake hardware objects
(bench/mp/firmware_bench.py's scenario). Nothing here was measured on a board.

- RP2040 timings: thumbvm's emulated Cortex-M0+ cycles at 125 MHz (pegboard.sim.thumbvm; each
  executed instruction charged its cycles by the model in host/pegboard/sim/thumbvm/host.c, whose
  gaps docs/chip-runtime.md lists). The scenario runs there twice: the counts do not depend on the
  PC or its load, so the two runs must agree to the cycle (each figure says `identical_runs`; a
  difference fails the bench). Sampled figures give the median and the worst single sample. The
  passes that wrote the flash add the W25Q16JV data sheet's flash times to the emulated CPU time.
- Host figures beside them (`host_unix_vm_us`): the 64-bit unix VM's µs on this PC, the least
  disturbed of a few runs; they move with the machine and are converted to nothing.
- Heap: chipvm (MicroPython's core set up as a CircuitPython board, pegboard.sim.chipvm; 32-bit, the
  chip's word and GC block sizes), which runs at the PC's speed, so the smallest heap the scenario
  completes in can be searched for; thumbvm's and the 64-bit unix VM's figures beside them."""

from __future__ import annotations

import json
import os
import sys
import subprocess
from pathlib import Path
from typing import Any

from pegboard.sim import chipvm, thumbvm
from bench.util import THUMBVM, WORK, bench_lib, figure, ms, rp2040, stable_file, unavailable
from bench.core import micropython_vm
from bench import hint_wait

ROOT = Path(__file__).resolve().parent.parent


RUNS = 5  # unix VM processes (host figures): a whole process can land on a slow spell of the machine
THUMB_RUNS = 2  # the same cycles twice, or the bench fails
# the settings the scenario's board starts from (a Pico wired as hardware/boards/pico-gpio.toml)
# with the roles' patterns on the lights and the piezo sounding: every figure holds with both running
SETTINGS = {"PEGBOARD_SENSOR_PINS": ",".join("GP%d" % i for i in range(15)), "PEGBOARD_PIXEL_PIN": "GP16",
            "PEGBOARD_BUTTON_PIN": "GP15", "PEGBOARD_PIEZO_PIN": "GP17", "PEGBOARD_ROLES": "motion"}
# exit statuses of bench/mp/firmware_bench.py (it says what each means)
# The heap budgets, set once from the chip: the free heap CircuitPython's own RP2040 binary gives a
# program, the least of the official Pico binaries of the range the firmware claims (a bare code.py's
# gc.mem_free() in rp2040js, bench/realchip.py: realchip.v*.free_heap_bare_code_py): 9.2.1 171,136,
# 9.2.8 167,040, 10.2.1 162,928 bytes. At the firmware's worst moment 30 % of it stays free, for what
# the bench's scenario does not do and for CircuitPython versions to come.
REAL_FREE_HEAP = 162_928  # CircuitPython 10.2.1's, the smallest
HEAP_KEPT_FREE = 30  # %
HEAP_BUDGET = REAL_FREE_HEAP * (100 - HEAP_KEPT_FREE) // 100
NO_MEMORY = 3
START_FAILED = 4


class ScenarioFailed(RuntimeError):
    """The firmware scenario did not complete: `status` is its process's exit status."""

    def __init__(self, status: int, output: str) -> None:
        super().__init__("firmware bench failed (exit status %d): %s" % (status, output[-2000:]))
        self.status = status


FLASH_UNIT = "ms (RP2040: emulated Cortex-M0+ cycles at 125 MHz, plus data-sheet flash times)"


def flash_pass(cycles: int, writes: int, typ_ms: float, max_ms: float, budget: int, note: str,
               **extra: Any) -> dict[str, Any]:
    """A loop pass that wrote the flash: its emulated CPU time (thumbvm's cycles at 125 MHz) plus
    `writes` flash operations at the W25Q16JV data sheet's worst time each (typical beside it),
    during which the chip runs no code."""
    cpu_ms = ms(cycles)
    return figure(round(cpu_ms + writes * max_ms, 3), FLASH_UNIT, budget, cycles=cycles, cpu_ms=cpu_ms,
                  flash_operations=writes, flash_ms=round(writes * max_ms, 3),
                  typical_ms=round(cpu_ms + writes * typ_ms, 3), vm=THUMBVM, note=note, **extra)


_made: list[str] = []


# Winbond W25Q16JV data sheet (the Pico's flash), AC electrical characteristics: page program
# tPP 0.4 ms typical, 3 ms max; 4 KB sector erase tSE 45 ms typical, 400 ms max. CircuitPython's
# nvm programs a log entry into erased bytes (one page program) and rewrites the record by erasing
# the sector and programming its 16 pages.
FLASH_PAGE_PROGRAM_TYP_MS, FLASH_PAGE_PROGRAM_MAX_MS = 0.4, 3.0
FLASH_SECTOR_REWRITE_TYP_MS = 45 + 16 * FLASH_PAGE_PROGRAM_TYP_MS
FLASH_SECTOR_REWRITE_MAX_MS = 400 + 16 * FLASH_PAGE_PROGRAM_MAX_MS


def nvm_image() -> str:
    """A file with an NVM record whose log is nearly full (the totals of ~230 games): the scenario
    starts from it, so the board rewrites the record in a quiet pass, as it does every ~115 games."""
    if not _made:
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
        # at the same path every run (bench/util.py: WORK says why)
        _made.append(str(stable_file(WORK / "nvm-nearly-full.bin", bytes(nvm.data))))
    return _made[0]


def run_scenario(lib: str, mode: str, vm: str | None = None, heap_kb: int | None = None) -> dict[str, int]:
    """The scenario of bench/mp/firmware_bench.py in a MicroPython VM (default: the unix VM):
    its figures as it prints them (times in ticks: `ticks_per_us` of them a µs, 125 on thumbvm,
    whose ticks are emulated cycles), or ScenarioFailed."""
    # the chip VMs get an RP2040's heap; the 64-bit unix VM (timings only) room for its bigger objects
    # (its pointers and GC blocks are twice the chip's: 256 KB no longer held the start-up's peak
    # once positions set by hand were followed)
    # (512 KB since challenges: the unix VM interns the stand-ins' names at run time, unlike the chip
    # VMs (pegboard.sim.chipvm.standins), so its name pools grow to a 1,280-entry one, 10 KB in one
    # piece, which a fragmented 320 KB heap of 64-bit objects could not give)
    heap_kb = heap_kb or (192 if vm else 512)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
    for k, v in SETTINGS.items():  # the chip VM's os.getenv reads values as settings.toml has them
        env[k] = json.dumps(v) if vm else v
    # the repository's files by paths relative to the working folder (firmware/): the same on every
    # checkout, so the emulated cycles are too (bench/util.py: WORK)
    cmd = [vm or micropython_vm(), "-X", "heapsize=%dK" % heap_kb, "../bench/mp/firmware_bench.py", "..", lib, mode,
           nvm_image()]
    # (the figures are the emulated chip's cycles: a busy PC takes longer, they do not change)
    p = subprocess.run(cmd, cwd=ROOT / "firmware", env=env, capture_output=True, text=True, timeout=3600)
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


def _thumb_runs(lib: str) -> tuple[dict[str, int] | None, str]:
    """(the scenario's figures on thumbvm, "") or (None, why thumbvm is unavailable). Runs it
    THUMB_RUNS times and fails loudly unless every run gave the same figures, to the cycle."""
    try:
        exe = str(thumbvm.build().path)
    except thumbvm.Unavailable as e:
        return None, str(e)
    runs = [run_scenario(lib, "devices", exe) for _ in range(THUMB_RUNS)]
    differ = sorted(k for k in runs[0] if any(r.get(k) != runs[0][k] for r in runs[1:]))
    if differ or any(set(r) != set(runs[0]) for r in runs):
        raise RuntimeError("thumbvm gave different figures in %d runs of the same scenario (%s): %s"
                           % (THUMB_RUNS, ", ".join(differ), runs))
    if runs[0].get("ticks_per_us") != thumbvm.CHIP_HZ // 1_000_000:
        raise RuntimeError("the scenario on thumbvm did not time in cycles: %r" % runs[0])
    return runs[0], ""


def run() -> dict[str, Any]:
    lib = bench_lib()  # the real neopixel library, as on the chip's /lib
    heap32: dict[str, int] = {}
    chip_bits, chip_note = 0, ""
    smallest = None
    own32: dict[str, int] = {}
    why_not32 = None
    runs = [run_scenario(lib, "devices") for _ in range(RUNS)]
    own = run_scenario(lib, "plain")
    try:
        built = chipvm.build()
        chip = str(built.path)
        heap32 = run_scenario(lib, "devices", chip)  # heap figures do not vary from run to run
        own32 = run_scenario(lib, "plain", chip)
        smallest = _smallest_heap(lib, chip)
        chip_bits, chip_note = built.bits, built.note
    except chipvm.Unavailable as e:
        why_not32 = str(e)
    c, why_no_thumb = _thumb_runs(lib)
    # host times: each run's median, the least disturbed run's (this machine has spells of running
    # at half speed, long enough to slow several runs in a row; like timeit, trust the fastest);
    # heap: the largest seen (it does not vary)
    v = {k: (max(r[k] for r in runs) if k.startswith("heap") else min(r[k] for r in runs)) for k in runs[0]}
    vm = "micropython unix (64-bit)"
    # heap: from the 32-bit VM (the chip's word and GC block sizes); without it, the 64-bit figures
    # stand in, overstating the chip's, and the reason is reported
    h, h_own = (heap32, own32) if heap32 else (v, own)
    if heap32:
        hvm = ("chipvm (MicroPython 1.19 core set up as a CircuitPython board, %d-bit%s)"
               % (chip_bits, ", 16-byte GC blocks as the RP2040's" if chip_bits == 32 else ": " + chip_note))
    else:
        hvm = "%s: chipvm unavailable: %s" % (vm, why_not32)
    out = _timings(c, why_no_thumb, v)
    out.update(hint_wait.run(lib, SETTINGS, nvm_image()) if c else {
        k: unavailable(why_no_thumb, 5) for k in ("release_to_hint_lights", "request_to_hint_lights_p99")})
    # thumbvm's heap figures beside chipvm's (both 32-bit; a few hundred bytes apart)
    boot32: dict[str, Any] = {"thumbvm_bytes": c["heap_boot"]} if c else {}
    peak32: dict[str, Any] = {"thumbvm_bytes": c["heap_peak"]} if c else {}
    out.update({
        "heap_after_boot": figure(h["heap_boot"], "bytes", None, vm=hvm, unix_64bit_vm_bytes=v["heap_boot"],
                                  **boot32),
        # budget: HEAP_BUDGET, from the real binary's free heap (above); the peak live heap must fit in
        # it as the whole scenario's need (heap_free_needed) must
        "heap_peak_game_and_demo": figure(h["heap_peak"], "bytes", HEAP_BUDGET, vm=hvm,
                                          unix_64bit_vm_bytes=v["heap_peak"],
                                          **peak32,
                                          scenario="a game by the sensors, hints, a long-press demo, then "
                                                   "every kind of request from a laptop",
                                          note="live heap after gc, firmware compiled from source as "
                                               "CircuitPython does, with the real device objects and "
                                               "the Adafruit neopixel library; the fakes under them are "
                                               "not counted. The 64-bit unix VM's figure is beside it "
                                               "for reference: its 8-byte pointers and 32-byte GC "
                                               "blocks are not the chip's; thumbvm's (32-bit too) as well"),
        "heap_peak_firmware_alone": figure(h_own["heap_peak"], "bytes", None, vm=hvm,
                                           unix_64bit_vm_bytes=own["heap_peak"],
                                           note="the same without the device objects and the neopixel "
                                                "library: pegfw, pegcore and the hint table"),
    })
    if smallest is not None:
        out["heap_free_needed"] = figure(
            smallest[1], "bytes", HEAP_BUDGET, vm=hvm, smallest_heap_kb=smallest[0],
            note="free heap the firmware needs to get through the whole scenario: gc.mem_free() "
                 "before the firmware starts, in the smallest -X heapsize (4 KB steps) the scenario "
                 "completes in; unlike the sampled peak it includes compiling modules (app.py, a "
                 "rare request's), the search's memos and fragmentation; budget: %d %% of the %d bytes "
                 "CircuitPython 10.2.1's own Pico binary, the smallest of the range, leaves a bare code.py"
                 % (100 - HEAP_KEPT_FREE, REAL_FREE_HEAP))
    return out


# the RP2040 timing figures: name -> (the scenario's figure, its worst sample or None, budget in ms)
TIMINGS = {
    "idle_loop_pass": ("idle", "idle_worst", 5),
    "sensor_event_to_lights": ("sensor", "sensor_worst", None),
    "boot_to_ready": ("boot", None, None),
    "code_load_on_demand_worst": ("load", None, None),
    "longest_loop_pass": ("longest_pass", None, 100),
    "longest_loop_pass_compiling": ("longest_compile_pass", None, None),
    "solve_answer_worst": ("solve", None, 3000),
}
NOTES = {
    "idle_loop_pass": "median of 2,000 idle passes (the worst and the 99th percentile beside it)",
    "sensor_event_to_lights": "median of 25 (the worst beside it): a peg lifted -> the pass that sends its "
                              "lights",
    "boot_to_ready": "start-up (pegfw.startup.start) in the bench's scenario, imports compiled from source; .mpy "
                     "files would load faster",
    "code_load_on_demand_worst": "the slowest of 12 modules compiled on demand (a show starting, a rare request), "
                                 "each imported fresh",
    "longest_loop_pass": "the longest main-loop pass of the whole scenario (boot aside: start-up feeds the "
                         "watchdog between modules), solve with a finish hole from every start to every hole "
                         "included, passes that compile code on demand aside (next figure)",
    "longest_loop_pass_compiling": "the longest pass that compiled a module on demand (a rare request's code, a "
                                   "show's) from source, as the chip does without .mpy files; the watchdog "
                                   "allows 4 s",
    "solve_answer_worst": "request to answer, in loop-pass CPU time, over solve with every finish hole from every "
                          "start (compiling its code included)",
}


def _timings(c: dict[str, int] | None, why_not: str, host: dict[str, int]) -> dict[str, Any]:
    """The RP2040 timing figures from thumbvm's figures `c` (cycles), the unix VM's µs (from its
    figures `host`) beside each."""
    out: dict[str, Any] = {}

    def host_us(key: str) -> int:
        return host[key] // host["ticks_per_us"]

    flash = {"longest_pass_with_flash_write": 100, "longest_pass_with_compaction": 1000}
    if c is None:
        for name, (_, _, budget) in TIMINGS.items():
            out[name] = unavailable(why_not, budget)
        for name, budget in flash.items():
            out[name] = unavailable(why_not, budget)
        return out
    same = {"identical_runs": True}  # _thumb_runs fails otherwise
    for name, (key, worst, budget) in TIMINGS.items():
        extra: dict[str, Any] = {}
        if name == "idle_loop_pass":
            extra = {"p99_ms": ms(c["idle_p99_ticks"]), "p99_cycles": c["idle_p99_ticks"]}
        out[name] = rp2040(c[key + "_ticks"], budget, c[worst + "_ticks"] if worst else None, **extra, **same,
                           host_unix_vm_us=host_us(key + "_ticks"), note=NOTES[name])
    out["longest_pass_with_flash_write"] = flash_pass(
        c["flash_write_pass_ticks"], c["flash_write_pass_programs"], FLASH_PAGE_PROGRAM_TYP_MS,
        FLASH_PAGE_PROGRAM_MAX_MS, flash["longest_pass_with_flash_write"],
        "the longest pass that logged a game entry (passes compiling code on demand aside, as for "
        "longest_loop_pass): its emulated CPU time, plus each page program at the W25Q16JV data sheet's "
        "worst tPP (3 ms; typical 0.4 ms), interrupts off meanwhile", **same,
        host_unix_vm_us=host_us("flash_write_pass_ticks"))
    out["longest_pass_with_compaction"] = flash_pass(
        c["compaction_pass_ticks"], c["compaction_pass_erases"], FLASH_SECTOR_REWRITE_TYP_MS,
        FLASH_SECTOR_REWRITE_MAX_MS, flash["longest_pass_with_compaction"],
        "the pass that rewrote the record: its emulated CPU time, plus erase + 16 page programs (448 ms at "
        "the W25Q16JV data sheet's worst tSE and tPP, 51 ms typical), in a quiet pass only (no peg moved "
        "for 2 s), far inside the 4 s watchdog; its code compiled on demand included", **same,
        host_unix_vm_us=host_us("compaction_pass_ticks"))
    return out
