"""CircuitPython's mpy-cross, for compiling the firmware's modules to .mpy: the chip then loads
bytecode instead of compiling source at every start. Only CircuitPython's own mpy-cross will do,
of the drive's major version: CircuitPython refuses MicroPython's .mpy files (they begin with
"M", CircuitPython's with "C") and those of another major version (the format changes)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path



class MpyCrossError(Exception):
    """Why no usable mpy-cross: the message says what to do."""


class MpyCross:
    def __init__(self, path: str, version: str) -> None:
        self.path = path
        self.version = version  # "9.2.1" as it reports itself

    def compile(self, src: Path, rel: str) -> bytes:
        """src compiled, with `rel` (its path on the drive) as the name tracebacks show."""
        with tempfile.TemporaryDirectory(prefix="pegboard-mpy-") as d:
            out = Path(d) / "out.mpy"
            p = subprocess.run([self.path, "-o", str(out), "-s", rel, str(src)], capture_output=True, text=True,
                               timeout=60)
            if p.returncode != 0 or not out.exists():
                raise MpyCrossError("mpy-cross could not compile %s: %s" % (rel, (p.stderr or p.stdout).strip()))
            data = out.read_bytes()
        if data[:1] != b"C":
            raise MpyCrossError("%s wrote a file CircuitPython would refuse (first byte %r, not 'C')"
                                % (self.path, data[:1]))
        return data


def version_of(path: str) -> tuple[str, str]:
    """(the implementation, its version) as `mpy-cross --version` names them."""
    try:
        p = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise MpyCrossError("cannot run %s: %s" % (path, e)) from None
    text = (p.stdout + p.stderr).strip()
    m = re.match(r"(CircuitPython|MicroPython) v?(\d+\.\d+\.\d+\S*)", text)
    if not m:
        raise MpyCrossError("%s does not say which mpy-cross it is (%r)" % (path, text[:80]))
    return m.group(1), m.group(2)


def check(path: str, drive_version: str | None) -> MpyCross:
    impl, version = version_of(path)
    if impl != "CircuitPython":
        raise MpyCrossError("%s is MicroPython's mpy-cross (%s): CircuitPython refuses its .mpy files; "
                            "use CircuitPython's own (--mpy-cross PATH)" % (path, version))
    if drive_version is None:
        raise MpyCrossError("boot_out.txt names no CircuitPython version to compile for")
    if version.split(".")[0] != drive_version.split(".")[0]:
        raise MpyCrossError("%s is CircuitPython %s's mpy-cross; the board runs CircuitPython %s, whose .mpy "
                            "format may differ" % (path, version, drive_version))
    return MpyCross(path, version)


def find(explicit: str | None, drive_version: str | None) -> MpyCross:
    """The mpy-cross to use: `explicit` (--mpy-cross PATH), else $PEGBOARD_MPY_CROSS, else
    `mpy-cross` on PATH. Raises MpyCrossError saying why none will do. (Fetching one per release with
    circuitpython-build-tools is gone: its releases up to 1.16.0 ran `git checkout VERSION` through a
    shell with the version a drive's boot_out.txt gave, and today's fail at the call.)"""
    explicit = explicit or os.environ.get("PEGBOARD_MPY_CROSS") or None
    if explicit:
        if not Path(explicit).is_file():
            raise MpyCrossError("--mpy-cross %s: no such file" % explicit)
        return check(explicit, drive_version)
    on_path = shutil.which("mpy-cross")
    reasons = []
    if on_path:
        try:
            return check(on_path, drive_version)
        except MpyCrossError as e:
            reasons.append(str(e))
    if not reasons:
        reasons.append("no CircuitPython mpy-cross found (give --mpy-cross PATH, set PEGBOARD_MPY_CROSS, or put "
                       "the mpy-cross of the board's CircuitPython release on PATH: adafruit-circuitpython.s3."
                       "amazonaws.com/index.html?prefix=bin/mpy-cross/)")
    raise MpyCrossError("; ".join(reasons))
