"""Boot figures: from code.py's first line to the first light (the start-up pattern on the pixels)
and to the game being ready, run in the MicroPython unix VM from a drive as `pegboard deploy`
writes it, with the RP2040 estimate at 230x the VM's time (bench/util.py). From .py source always;
from .mpy when a CircuitPython mpy-cross is at hand ($PEGBOARD_MPY_CROSS or `mpy-cross` on PATH).

The VM is MicroPython's, which takes only files that begin with "M": for the .mpy figures the
CircuitPython-compiled files get that one header byte changed (the bytecode format behind it is the
same version, v6, and the run checks the firmware reaches "ready" from them). The drive given to the
VM holds only these figures' copies; the deployed drive's files are untouched."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench.core import micropython_vm
from bench.util import RP2040_FACTOR, figure

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5
FIRST_LIGHT_BUDGET_MS = 300  # the board is never dark for long: est. RP2040


def _drive(where: Path, mpy_cross: str | None) -> Path:
    from pegboard.deploy import deploy
    from pegboard.mpycross import version_of

    d = where / "CIRCUITPY"
    d.mkdir()
    version = version_of(mpy_cross)[1] if mpy_cross else "9.2.1"
    (d / "boot_out.txt").write_text("Adafruit CircuitPython %s on 2024-11-20; Raspberry Pi Pico with rp2040\n"
                                    "Board ID:raspberry_pi_pico\n" % version)
    (d / "settings.toml").write_text("")
    r = deploy(d, board="pico-gpio", mpy_cross=mpy_cross, compile_modules=mpy_cross is not None)
    if mpy_cross and not r.compiled:
        raise RuntimeError("deploy did not compile: " + r.why_source)
    for f in d.rglob("*.mpy"):  # see the module docstring
        data = bytearray(f.read_bytes())
        data[0] = ord("M")
        f.write_bytes(bytes(data))
    return d


def _env(drive: Path) -> dict[str, str]:
    from pegboard.sim.settings import read_settings

    env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
    env.update({k: str(v) for k, v in read_settings(drive / "settings.toml").items()})
    env["PEGBOARD_SIM_BOARD"] = "raspberry_pi_pico"
    return env


def _best_run(drive: Path, lib: str) -> dict[str, int]:
    fakes = ROOT / "host" / "pegboard" / "sim" / "device"
    best: dict[str, int] = {}
    for _ in range(RUNS):  # the least disturbed process: this machine has slow spells
        r, w = os.pipe()  # stdin kept open and empty: no pins or host bytes arrive
        try:
            p = subprocess.run([micropython_vm(), "-X", "heapsize=256K", str(ROOT / "bench/mp/boot_bench.py"),
                                str(fakes), str(drive), lib], stdin=r, capture_output=True, text=True,
                               timeout=120, env=_env(drive), cwd=str(drive))
        finally:
            os.close(r)
            os.close(w)
        got = {}
        for line in p.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0].endswith("_us"):
                got[parts[0]] = int(parts[1])
        if p.returncode != 0 or "ready_us" not in got or got.get("first_light_us", -1) < 0:
            raise RuntimeError("boot bench failed: " + p.stdout[-400:] + p.stderr[-400:])
        if not best or got["ready_us"] < best["ready_us"]:
            best = got
    return best


def circuitpython_mpy_cross() -> tuple[str | None, str]:
    """(path, "") of a CircuitPython mpy-cross, or (None, why not)."""
    from pegboard.mpycross import MpyCrossError, version_of

    exe = os.environ.get("PEGBOARD_MPY_CROSS") or shutil.which("mpy-cross")
    if not exe:
        return None, "no CircuitPython mpy-cross (set PEGBOARD_MPY_CROSS or put one on PATH)"
    try:
        impl, _ = version_of(exe)
    except MpyCrossError as e:
        return None, str(e)
    if impl != "CircuitPython":
        return None, "%s is MicroPython's mpy-cross; CircuitPython's is needed" % exe
    return exe, ""


def _figures(kind: str, got: dict[str, int], extra: dict[str, Any]) -> dict[str, Any]:
    light = got["first_light_us"] / 1000 * RP2040_FACTOR
    ready = got["ready_us"] / 1000 * RP2040_FACTOR
    return {
        "first_light_ms_est_" + kind: figure(light, "ms", FIRST_LIGHT_BUDGET_MS, vm_ms=got["first_light_us"] / 1000,
                                             **extra),
        "ready_ms_est_" + kind: figure(ready, "ms", None, vm_ms=got["ready_us"] / 1000, **extra),
    }


def run() -> dict[str, Any]:
    from pegboard.sim.firmware_child import lib_dir as _lib_dir

    lib = _lib_dir()  # what CircuitPython has built in (adafruit_pixelbuf)
    out: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="pegboard-boot-") as t:
            out.update(_figures("py", _best_run(_drive(Path(t), None), lib),
                                {"note": "from .py source: every module compiled on the chip"}))
        exe, why = circuitpython_mpy_cross()
        if exe is None:
            out["mpy"] = {"value": None, "unit": "", "budget": None, "ok": True, "skipped": why}
        else:
            with tempfile.TemporaryDirectory(prefix="pegboard-boot-") as t:
                out.update(_figures("mpy", _best_run(_drive(Path(t), exe), lib),
                                    {"note": "from .mpy made by CircuitPython's mpy-cross (%s)" % exe}))
    finally:
        shutil.rmtree(lib, ignore_errors=True)
    return out
