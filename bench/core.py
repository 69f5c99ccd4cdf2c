"""Core figures: host solving speed (CPython on this PC), and the hint's latency and the core's heap
in the MicroPython VMs (issue 2). The hint latency is an RP2040 figure: thumbvm's emulated
Cortex-M0+ cycles at 125 MHz (the cycle model in host/pegboard/sim/thumbvm/host.c; bench/util.py)
over every mask, the unix MicroPython VM's µs beside it as a host figure; the heap is chipvm's
(32-bit, the chip's word and GC block sizes), thumbvm's beside it. Nothing here was measured on a
board."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.util import figure, median_time, ms, rp2040, unavailable
from pegboard.solve.fastsolve import count_all
from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps
from pegcore.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "firmware" / "pegcore" / "t5_hints.bin"


def _plain_count(board: Board, mask: int) -> int:
    # the classic solvers' way: backtrack through every line, no memo
    if mask & (mask - 1) == 0:
        return 1
    return sum(_plain_count(board, mask ^ board.flip[j]) for j in legal_jumps(board, mask))


def _enumerate_all(board: Board) -> int:
    from pegboard.commands.solve import all_solutions

    solver = Solver(board)
    return sum(1 for e in range(1, 16) for _ in all_solutions(board, solver, start_mask(board, e)))


def _t7_solvable() -> int:
    # the core's own search, as `pegboard solve --rows 7 --empty all` runs it: colour parities
    # refuse the impossible starts, a depth-first search with a dead-position bitset finds the rest
    b = Board(7)
    solver = Solver(b)
    return sum(1 for e in range(1, b.holes + 1) if solver.solvable(start_mask(b, e)))


def micropython_vm() -> str:
    here = Path(sys.executable).parent / "micropython"
    return str(here) if here.exists() else "micropython"


def run() -> dict[str, Any]:
    t5, t6 = Board(5), Board(6)
    out: dict[str, Any] = {}
    starts5 = list(range(1, 16))
    out["t5_counts_all_starts"] = figure(median_time(lambda: count_all(t5, starts5), 7) * 1e3, "ms", 20,
                                         engine="numpy", total=sum(count_all(t5, starts5).values()))
    out["t5_counts_all_starts_core"] = figure(
        median_time(lambda: [Solver(t5).count(start_mask(t5, e)) for e in starts5], 3) * 1e3, "ms", None,
        engine="pure core (the chip's code on CPython)")
    out["t6_counts_all_starts"] = figure(median_time(lambda: count_all(t6, list(range(1, 22))), 3), "s", 2,
                                         engine="numpy")
    base = median_time(lambda: _plain_count(t5, start_mask(t5, 1)), 1)
    memo = median_time(lambda: Solver(t5).count(start_mask(t5, 1)), 3)
    out["t5_count_corner_plain_backtracking"] = figure(base * 1e3, "ms", None)
    out["t5_count_corner_memo_speedup"] = figure(base / memo, "x", None, baseline="plain backtracking")
    listed: list[int] = []
    out["t5_enumerate_all_solutions"] = figure(median_time(lambda: listed.append(_enumerate_all(t5)), 1), "s", None,
                                               solutions=listed[-1])  # the count the listing returned
    out["t7_solvability_all_starts"] = figure(median_time(_t7_solvable, 3), "s", 60, engine="pure core",
                                              solvable_starts=_t7_solvable(), starts=28)
    out.update(_device())
    return out


HINT_BUDGET_MS = 5  # a hint's lookup on the RP2040 (thumbvm's cycles)


def _hint_vm(vm: str, heap_kb: int, *args: str) -> dict[str, int]:
    p = subprocess.run([vm, "-X", "heapsize=%dK" % heap_kb, "bench/mp/hint_latency.py", *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        raise RuntimeError("hint bench failed on %s: %s%s" % (vm, p.stdout, p.stderr))
    return {k: int(v) for k, v in (line.split() for line in p.stdout.splitlines())}


def _device() -> dict[str, Any]:
    from pegboard.sim import chipvm, thumbvm

    # host figures: the 64-bit unix VM, µs of this PC (each mask's median of 3)
    unix = _hint_vm(micropython_vm(), 512)
    try:
        built = chipvm.build()
        chip = _hint_vm(str(built.path), 192, "heap")  # the heap alone: chipvm's time is the PC's
        hvm = "chipvm, %d-bit%s" % (built.bits, "" if built.bits == 32 else ": " + built.note)
    except chipvm.Unavailable as e:
        chip, hvm = unix, "micropython unix, 64-bit pointers (chipvm unavailable: %s)" % e
    heap = figure(chip["heap"], "bytes", 16384, vm=hvm, unix_64bit_vm_bytes=unix["heap"])
    table = figure(TABLE.stat().st_size, "bytes", None,
                   finish_table_file_bytes=TABLE.with_name("t5_finish.bin").stat().st_size)
    try:
        # RP2040 figures: one sample a mask, every mask (~17 s of emulation); the counts repeat exactly
        thumb = _hint_vm(str(thumbvm.build().path), 192)
    except thumbvm.Unavailable as e:
        return {"hint_latency_median": unavailable(str(e), HINT_BUDGET_MS),
                "hint_latency_worst": unavailable(str(e), HINT_BUDGET_MS), "heap_core_and_table": heap,
                "hint_table_file": table}
    if thumb["ticks_per_us"] != thumbvm.CHIP_HZ // 1_000_000:
        raise RuntimeError("hint bench: thumbvm's clock is not its cycles: %r" % thumb)
    heap["thumbvm_bytes"] = thumb["heap"]
    how = ("every mask a hand can set on 15 holes (%d), each looked up once (the cycles repeat exactly); "
           "the timer's own cost (%d cycles) taken off; automatic collections off while timing, the lookups' "
           "garbage collected between batches, as the firmware collects while the button is down (pegfw.app); "
           "one collection on this 192 KB heap: collect_ms; host_unix_vm_us: the unix VM's µs on this PC "
           "(each mask's median of 3), a host figure" % (thumb["n"], thumb["overhead_ticks"]))
    common: dict[str, Any] = dict(positions=thumb["n"], collect_ms=ms(thumb["collect_ticks"]),
                                  collect_cycles=thumb["collect_ticks"], note=how)
    return {
        "hint_latency_median": rp2040(thumb["median_ticks"], HINT_BUDGET_MS, thumb["worst_ticks"],
                                      host_unix_vm_us=unix["median_ticks"], **common),
        "hint_latency_worst": rp2040(thumb["worst_ticks"], HINT_BUDGET_MS,
                                     host_unix_vm_us=unix["worst_ticks"], **common),
        "heap_core_and_table": heap,
        "hint_table_file": table,
    }
