"""Copy the firmware onto a mounted CIRCUITPY drive, safely: only onto a real CircuitPython drive,
each file written under a temporary name and renamed, the maker's settings.toml kept."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
from pathlib import Path

import pegcore

FIRMWARE = Path(pegcore.__file__).resolve().parent.parent
LIBS = ("neopixel", "adafruit_pixelbuf")


class DeployError(Exception):
    pass


def find_drives() -> list[Path]:
    pats = ["/media/*/*CIRCUITPY*", "/run/media/*/*CIRCUITPY*", "/media/*CIRCUITPY*", "/Volumes/*CIRCUITPY*",
            "/mnt/*CIRCUITPY*"]
    out = []
    for pat in pats:
        out += [Path(p) for p in glob.glob(pat) if is_circuitpy(Path(p))]
    return sorted(set(out))


def is_circuitpy(drive: Path) -> bool:
    """A CIRCUITPY drive names itself so and carries boot_out.txt written by CircuitPython."""
    boot_out = drive / "boot_out.txt"
    try:
        head = boot_out.read_text(encoding="utf-8", errors="replace")[:400]
    except OSError:
        return False
    return "CIRCUITPY" in drive.name.upper() and "CircuitPython" in head


def plan(settings: Path | None = None) -> list[tuple[Path, str]]:
    """(source file, destination path relative to the drive) for everything deploy copies."""
    files: list[tuple[Path, str]] = []
    for name in ("boot.py", "code.py"):
        files.append((FIRMWARE / name, name))
    for pkg in ("pegcore", "pegfw"):
        for src in sorted((FIRMWARE / pkg).iterdir()):
            if src.suffix in (".py", ".bin"):
                files.append((src, "%s/%s" % (pkg, src.name)))
    for lib in LIBS:
        spec = importlib.util.find_spec(lib)
        if spec is None or not spec.origin:
            raise DeployError("the %s library is not installed (pip install adafruit-circuitpython-neopixel)" % lib)
        files.append((Path(spec.origin), "lib/%s.py" % lib))
    if settings is not None:
        files.append((settings, "settings.toml"))
    return files


def deploy(drive: Path, settings: Path | None = None, log=print) -> int:
    if not drive.is_dir():
        raise DeployError("%s is not a mounted folder" % drive)
    if not is_circuitpy(drive):
        raise DeployError("%s is not a CIRCUITPY drive (no CircuitPython boot_out.txt): refusing to write" % drive)
    if settings is not None and not settings.is_file():
        raise DeployError("settings file %s not found" % settings)
    files = plan(settings)
    if settings is None and not (drive / "settings.toml").exists():
        files.append((FIRMWARE / "settings.toml", "settings.toml"))
    for src, rel in files:
        dest = drive / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".tmp")
        shutil.copyfile(src, tmp)
        os.replace(tmp, dest)  # a power cut leaves the old file or the new one, not half of one
        log("  %s" % rel)
    try:
        os.sync()
    except AttributeError:
        pass
    return len(files)
