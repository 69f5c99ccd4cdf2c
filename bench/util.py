"""Helpers for bench modules: timing medians and figure records."""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

# CircuitPython 9 on an RP2040 against the MicroPython unix port on a PC: an ASSUMED ratio, measured
# on no board (docs/chip-runtime.md, "The x230 factor", says what it rests on and how it errs).
RP2040_FACTOR = 230


def median_time(fn: Callable[[], Any], repeats: int = 5) -> float:
    """Median wall time of fn() in seconds over `repeats` runs in this process."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def figure(value: float, unit: str, budget: float | None = None, lower_is_better: bool = True,
           **extra: Any) -> dict[str, Any]:
    ok = True
    if budget is not None:
        ok = value <= budget if lower_is_better else value >= budget
    out: dict[str, Any] = {"value": round(value, 6) if isinstance(value, float) else value, "unit": unit,
                           "budget": budget, "ok": ok}
    if budget is not None and not lower_is_better:
        out["at_least"] = True  # the budget is a floor
    out.update(extra)
    return out
