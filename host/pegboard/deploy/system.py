"""The system deploy runs on, asked at call time (tests stand in for another one), and how a drive
is given by hand there. Nothing POSIX-only is imported here: the CLI imports on Windows too."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def name() -> str:
    """sys.platform: "win32", "darwin", "linux" ..."""
    return sys.platform


def drive_example(system: str | None = None) -> str:
    """How to give the drive by hand on this system, and how to find it."""
    system = system or name()
    if system == "win32":
        return "`pegboard deploy --drive E:\\` (File Explorer shows the CIRCUITPY drive's letter)"
    if system == "darwin":
        return "`pegboard deploy --drive /Volumes/CIRCUITPY` (`ls /Volumes` shows it)"
    return ("`pegboard deploy --drive /media/$USER/CIRCUITPY` (`lsblk -o LABEL,MOUNTPOINT` shows where it is "
            "mounted)")


def drive_path(text: str, system: str | None = None) -> Path:
    """--drive as a path: on Windows "E:" means E:'s current folder, so it is taken as E:\\."""
    if (system or name()) == "win32" and re.fullmatch(r"[A-Za-z]:", text):
        text += "\\"
    return Path(text)
