"""Helpers for bench modules: timing medians, figure records, and RP2040 figures from thumbvm.

Every RP2040 timing figure is the emulated chip's: the Cortex-M0+ cycles thumbvm counts
(pegboard.sim.thumbvm: MicroPython's core set up as a CircuitPython board, built for a Cortex-M0+
and run in the Unicorn emulator, each executed instruction charged its cycles by the model in
host/pegboard/sim/thumbvm/host.c) at the RP2040's 125 MHz. The count depends only on the program
and its inputs (WORK below), not on the PC or its load; what the model leaves out (flash wait
states, CircuitPython's background work, ...) is in docs/chip-runtime.md. No figure here was
measured on a board."""

from __future__ import annotations

import importlib.util
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from pegboard.sim.thumbvm import CHIP_HZ  # the RP2040's clock, 125 MHz

CYCLES_PER_MS = CHIP_HZ // 1000
RP2040_UNIT = "ms (RP2040: emulated Cortex-M0+ cycles at 125 MHz)"
# Files the VMs read (the neopixel library, the scenario's NVM image, the boot bench's drive) sit
# here, at paths that are the same on every run: the paths are inputs too (the same start-up from a
# drive at another random temporary path counted ~36,000 cycles more to the first light), so a
# random folder would change the cycles from one run to the next.
WORK = Path(tempfile.gettempdir()) / "pegboard-bench"
THUMBVM = "thumbvm (MicroPython 1.19 core set up as a CircuitPython board, Cortex-M0+ cycles counted by " \
          "the model in host/pegboard/sim/thumbvm/host.c)"


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


def ms(cycles: int) -> float:
    """Emulated cycles as ms at 125 MHz (to the µs)."""
    return round(cycles / CYCLES_PER_MS, 3)


def rp2040(cycles: int, budget: float | None = None, worst_cycles: int | None = None,
           **extra: Any) -> dict[str, Any]:
    """An RP2040 timing figure from thumbvm's cycles: `cycles` (the median where sampled), and the
    worst single sample beside it where there are samples; the budget is on the value."""
    more: dict[str, Any] = {"cycles": cycles}
    if worst_cycles is not None:
        more.update(worst_ms=ms(worst_cycles), worst_cycles=worst_cycles)
    more["vm"] = THUMBVM
    more.update(extra)
    return figure(ms(cycles), RP2040_UNIT, budget, **more)


def unavailable(why: str, budget: float | None = None) -> dict[str, Any]:
    """An RP2040 timing figure thumbvm could not give: no value, and the run fails (ok: False)."""
    return {"value": None, "unit": RP2040_UNIT, "budget": budget, "ok": False,
            "skipped": "thumbvm unavailable: %s" % why}


def stable_file(path: Path, data: bytes) -> Path:
    """`path` holding `data`, written only when it does not already, and atomically (benches
    running at once write the same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_bytes() != data:
        tmp = path.with_name(".%s.%d" % (path.name, os.getpid()))
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return path


def bench_lib() -> str:
    """A folder (in WORK, the same path every run) with the real Adafruit neopixel library files,
    as on the chip's /lib."""
    d = WORK / "lib"
    for name in ("neopixel", "adafruit_pixelbuf"):
        # located without importing: on a PC, Blinka's neopixel_write raises at import
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            raise RuntimeError("the %s library is missing: pip install adafruit-circuitpython-neopixel" % name)
        stable_file(d / Path(spec.origin).name, Path(spec.origin).read_bytes())
    return str(d)
