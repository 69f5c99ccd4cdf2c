"""Firmware figures measured in the MicroPython VM (fake hardware objects, the real App), with the
RP2040 estimate at 230x (bench/util.py says where the factor comes from)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from bench.util import RP2040_FACTOR, figure
from bench.core import _micropython
from pegboard.sim.simulator import _lib_dir

ROOT = Path(__file__).resolve().parent.parent


RUNS = 5  # VM processes: a whole process can land on a slow spell of the machine


def _vm_run(lib: str, mode: str) -> dict[str, int]:
    p = subprocess.run([_micropython(), "-X", "heapsize=192K", "bench/mp/firmware_bench.py", lib, mode],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("firmware bench failed: " + p.stdout + p.stderr)
    return {k: int(x) for k, x in (line.split() for line in p.stdout.splitlines())}


def run() -> dict[str, Any]:
    lib = _lib_dir()  # the real neopixel library, as on the chip's /lib
    try:
        runs = [_vm_run(lib, "devices") for _ in range(RUNS)]
        own = _vm_run(lib, "plain")
    finally:
        shutil.rmtree(lib, ignore_errors=True)
    # times: each run's median, the least disturbed run's (this machine has spells of running at
    # half speed, long enough to slow several runs in a row; like timeit, trust the fastest);
    # heap: the largest seen (it does not vary)
    v = {k: (max(r[k] for r in runs) if k.startswith("heap") else min(r[k] for r in runs)) for k in runs[0]}
    est = lambda us: round(us * RP2040_FACTOR / 1000, 2)  # noqa: E731
    vm = "micropython unix (64-bit)"
    return {
        "idle_loop_pass": figure(v["idle_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 5,
                                 measured_us=v["idle_us"],
                                 p99_rp2040_estimate_ms=est(v["idle_p99_us"]), vm=vm),
        "sensor_event_to_lights": figure(v["sensor_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", None,
                                         measured_us=v["sensor_us"], vm=vm),
        "button_to_hint_lights": figure(v["hint_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", 5,
                                        measured_us=v["hint_us"], vm=vm),
        "boot_to_ready": figure(v["boot_ms"] * RP2040_FACTOR, "ms (RP2040 estimate)", None, measured_ms=v["boot_ms"],
                                note="imports compiled from source; .mpy files would load faster"),
        "code_load_on_demand_worst": figure(v["load_us"] * RP2040_FACTOR / 1000, "ms (RP2040 estimate)", None,
                                            measured_us=v["load_us"], vm=vm,
                                            note="the pause when a show or a rare request compiles its module"),
        "heap_after_boot": figure(v["heap_boot"], "bytes", None, vm=vm),
        "heap_peak_game_and_demo": figure(v["heap_peak"], "bytes", 48 * 1024, vm=vm,
                                          scenario="a game by the sensors, hints, a long-press demo, then "
                                                   "every kind of request from a laptop",
                                          note="live heap after gc, firmware compiled from source as "
                                               "CircuitPython does, with the real device objects and "
                                               "the Adafruit neopixel library; the fakes under them are "
                                               "not counted"),
        "heap_peak_firmware_alone": figure(own["heap_peak"], "bytes", None, vm=vm,
                                           note="the same without the device objects and the neopixel "
                                                "library: pegfw, pegcore and the hint table"),
    }
