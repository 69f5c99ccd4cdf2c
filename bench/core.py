"""Core figures: host solving speed, and hint latency + heap in the MicroPython VM (issue 2)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.util import RP2040_FACTOR, figure, median_time
from pegboard.fastsolve import count_all
from pegboard.tablegen import reachable
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
    from pegboard.cmd_solve import _all_solutions

    solver = Solver(board)
    return sum(1 for e in range(1, 16) for _ in _all_solutions(board, solver, start_mask(board, e)))


def _t7_solvable() -> int:
    # the core's own search, as `pegboard solve --rows 7 --empty all` runs it: colour parities
    # refuse the impossible starts, a depth-first search with a dead-position bitset finds the rest
    b = Board(7)
    solver = Solver(b)
    return sum(1 for e in range(1, b.holes + 1) if solver.solvable(start_mask(b, e)))


def _micropython() -> str:
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
    out["t5_enumerate_all_solutions"] = figure(median_time(lambda: _enumerate_all(t5), 1), "s", None,
                                               solutions=438984)
    out["t7_solvability_all_starts"] = figure(median_time(_t7_solvable, 3), "s", 60, engine="pure core",
                                              solvable_starts=_t7_solvable(), starts=28)
    out.update(_device())
    return out


def _device() -> dict[str, Any]:
    masks = sorted(reachable(Board(5)))
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(b"".join(m.to_bytes(2, "little") for m in masks))
        path = f.name
    try:
        p = subprocess.run([_micropython(), "-X", "heapsize=512K", "bench/mp/hint_latency.py", path],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(path)
    if p.returncode != 0:
        raise RuntimeError("micropython hint bench failed: " + p.stdout + p.stderr)
    vals = dict(line.split() for line in p.stdout.splitlines())
    med, worst, heap = int(vals["median_us"]), int(vals["worst_us"]), int(vals["heap"])
    return {
        "hint_latency_median": figure(med / 1e3, "ms", 0.02, positions=int(vals["n"]),
                                      rp2040_estimate_ms=med * RP2040_FACTOR / 1e3, vm="micropython unix"),
        "hint_latency_worst": figure(worst / 1e3, "ms", 0.02, positions=int(vals["n"]),
                                     rp2040_estimate_ms=worst * RP2040_FACTOR / 1e3, vm="micropython unix"),
        "heap_core_and_table": figure(heap, "bytes", 16384, vm="micropython unix, 64-bit pointers"),
        "hint_table_file": figure(TABLE.stat().st_size, "bytes", None),
    }
