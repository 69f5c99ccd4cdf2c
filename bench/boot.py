"""Boot figures: from code.py's first line to the first light (the start-up pattern on the pixels)
and to the game being ready, from a drive as `pegboard deploy` writes it. The RP2040 figures are
thumbvm's emulated Cortex-M0+ cycles at 125 MHz (the cycle model in host/pegboard/sim/thumbvm/host.c;
bench/util.py): one run, the count being the same on every run (the VM's files at fixed paths, the
simulator's fakes keeping the emulated chip's time, bench/mp/boot_bench.py). The unix MicroPython
VM's times (µs of this PC, the least disturbed of a few runs) stand beside them as host figures,
converted to nothing. From .py source, and from .mpy as a deploy with mpy-cross writes the drive
(its modules compiled by the mpy-cross of thumbvm's own core: bench/mpy_drive.py). The drive given
to the VMs holds only these figures' copies, at the same path every run (bench/util.py: WORK).
Nothing here was measured on a board."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from bench import mpy_drive
from bench.core import micropython_vm
from bench.util import WORK, bench_lib, rp2040, stable_file, unavailable
from pegboard.sim import thumbvm

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5  # unix VM processes (host figures): a whole process can land on a slow spell of the machine
FIRST_LIGHT_BUDGET_MS = 300  # the board is never dark for long: RP2040 (thumbvm's cycles)
WATCHDOG_MS = 4000  # pegfw.hardware.WATCHDOG_S
UNFED_BUDGET_MS = WATCHDOG_MS * 7 // 10  # the margin docs/chip-runtime.md keeps


def _drive(where: Path, mpy: bool) -> Path:
    """A drive as `pegboard deploy --py` writes it; with `mpy`, its modules then swapped for .mpy."""
    from pegboard.deploy.install import deploy

    d = where / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
                                    "Board ID:raspberry_pi_pico\n")
    (d / "settings.toml").write_text("")
    deploy(d, board="pico-gpio", compile_modules=False)
    if mpy:
        mpy_drive.compile_drive(d)
    return d


def _env(drive: Path, chip: bool) -> dict[str, str]:
    from pegboard.sim.settings import read_settings

    env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
    values: dict[str, str | int] = dict(read_settings(drive / "settings.toml"))
    values["PEGBOARD_SIM_BOARD"] = "raspberry_pi_pico"
    for k, v in values.items():  # the chip VMs' os.getenv reads values as settings.toml has them
        env[k] = json.dumps(v) if chip else str(v)
    return env


def _stable_copies() -> tuple[str, str]:
    """(the script, the simulator's device fakes' folder), copied into WORK: the same paths on
    every run and checkout (bench/util.py: WORK says why)."""
    fakes = WORK / "fakes"
    for f in sorted((ROOT / "host" / "pegboard" / "sim" / "device").glob("*.py")):
        stable_file(fakes / f.name, f.read_bytes())
    script = stable_file(WORK / "boot_bench.py", (ROOT / "bench" / "mp" / "boot_bench.py").read_bytes())
    return str(script), str(fakes)


def _run(vm: str, drive: Path, lib: str, chip: bool) -> dict[str, int]:
    """One start-up in `vm`: bench/mp/boot_bench.py's figures (ticks, and ticks_per_us)."""
    script, fakes = _stable_copies()
    r, w = os.pipe()  # stdin kept open and empty: no pins or host bytes arrive
    try:
        # the 64-bit unix VM: 320 KB, as the simulator gives it (its objects and the fakes take room)
        p = subprocess.run([vm, "-X", "heapsize=%dK" % (192 if chip else 320), script,
                            fakes, str(drive), lib], stdin=r, capture_output=True, text=True,
                           timeout=600, env=_env(drive, chip), cwd=str(drive))
    finally:
        os.close(r)
        os.close(w)
    got = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("ticks_per_us", "first_light_ticks", "ready_ticks",
                                                 "longest_unfed_ticks"):
            got[parts[0]] = int(parts[1])
    if p.returncode != 0 or "ready_ticks" not in got or got.get("first_light_ticks", -1) < 0:
        raise RuntimeError("boot bench failed on %s: %s%s" % (vm, p.stdout[-400:], p.stderr[-400:]))
    return got


def _best_unix_run(drive: Path, lib: str) -> dict[str, int]:
    """The least disturbed of RUNS unix VM processes (this machine has slow spells)."""
    runs = [_run(micropython_vm(), drive, lib, chip=False) for _ in range(RUNS)]
    return min(runs, key=lambda got: got["ready_ticks"])


def _figures(kind: str, drive: Path, lib: str, extra: dict[str, Any]) -> dict[str, Any]:
    host = _best_unix_run(drive, lib)  # the unix VM's ticks are µs
    first, ready = "first_light_ms_est_" + kind, "ready_ms_est_" + kind
    try:
        chip = _run(str(thumbvm.build().path), drive, lib, chip=True)
    except thumbvm.Unavailable as e:
        return {first: unavailable(str(e), FIRST_LIGHT_BUDGET_MS), ready: unavailable(str(e))}
    if chip["ticks_per_us"] != thumbvm.CHIP_HZ // 1_000_000:
        raise RuntimeError("boot bench: thumbvm's clock is not its cycles: %r" % chip)
    if chip.get("longest_unfed_ticks", -1) < 0:
        raise RuntimeError("boot bench: start-up never armed the watchdog: %r" % chip)
    return {
        first: rp2040(chip["first_light_ticks"], FIRST_LIGHT_BUDGET_MS, host_unix_vm_us=host["first_light_ticks"],
                      **extra),
        ready: rp2040(chip["ready_ticks"], None, host_unix_vm_us=host["ready_ticks"], **extra),
        "longest_unfed_ms_" + kind: rp2040(
            chip["longest_unfed_ticks"], UNFED_BUDGET_MS, watchdog_ms=WATCHDOG_MS, **dict(
                extra, note="the longest stretch of start-up without a watchdog feed, from its arming to "
                            "the ready game (hint table load, each module compiled, the App built), %s: the "
                            "chip resets past 4 s; the budget keeps 30 %% of that for what the cycle model "
                            "leaves out (docs/chip-runtime.md)" % extra.get("note", ""))),
    }


def _fresh(kind: str) -> Path:
    """An empty folder for a drive, at the same path every run (WORK)."""
    d = WORK / "boot" / kind
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def run() -> dict[str, Any]:
    import fcntl

    lib = bench_lib()  # what CircuitPython has built in (adafruit_pixelbuf), and neopixel
    out: dict[str, Any] = {}
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / "boot.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the drives' folders are one per machine: one boot bench at a time
        out.update(_figures("py", _drive(_fresh("py"), False), lib,
                            {"note": "from .py source: every module compiled on the chip"}))
        try:
            drive = _drive(_fresh("mpy"), True)
        except mpy_drive.Unavailable as e:
            out["mpy"] = {"value": None, "unit": "", "budget": None, "ok": True, "skipped": str(e)}
        else:
            out.update(_figures("mpy", drive, lib,
                                {"note": "from .mpy as pegboard deploy writes them (bench/mpy_drive.py)"}))
    return out
