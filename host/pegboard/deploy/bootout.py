"""What a drive's boot_out.txt says: CircuitPython writes it at every start, naming itself and its
version on the first line and the board on another. Deploy writes only to a drive whose boot_out.txt
CircuitPython wrote, naming a version the firmware supports (pegboard.deploy.circuitpython)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pegboard.deploy import circuitpython
from pegboard.deploy.errors import DeployError
from pegboard.deploy.system import drive_example
from pegboard.regular_file import FileRefused, read_regular


@dataclass
class DriveInfo:
    """What boot_out.txt says about the board."""
    version: str | None = None   # "9.2.1"
    board_id: str | None = None  # "raspberry_pi_pico"


# CircuitPython's boot_out.txt is a few hundred bytes (its banner, the board, boot.py's output); the
# cap leaves room for a talkative boot.py and keeps /dev/zero, or a huge planted file, out of memory
BOOT_OUT_LIMIT = 16 * 1024


def _boot_out_text(drive: Path) -> str:
    """boot_out.txt as text, read only as a regular file (a FIFO would block, /dev/zero never end)
    and never through a link; OSError or FileRefused when it cannot be."""
    data = read_regular(drive / "boot_out.txt", BOOT_OUT_LIMIT, follow_links=False)
    return data.decode("utf-8", errors="replace")


def read_boot_out(drive: Path) -> str | None:
    try:
        return _boot_out_text(drive)[:1000]
    except (OSError, FileRefused):
        return None


def is_circuitpy(drive: Path) -> bool:
    """CircuitPython writes boot_out.txt at every start, naming itself on its first line (the
    drive's label can be renamed, so it is not looked at)."""
    text = read_boot_out(drive)
    return text is not None and "CircuitPython" in text.split("\n", 1)[0]


def why_not_circuitpy(drive: Path) -> str | None:
    """None when CircuitPython wrote the drive's boot_out.txt (naming itself on its first line),
    else why the drive is refused."""
    if not drive.is_dir():
        return "%s is not a mounted folder" % drive
    path = drive / "boot_out.txt"
    try:
        first = _boot_out_text(drive).split("\n", 1)[0].strip()
    except FileNotFoundError:
        return ("%s has no boot_out.txt, which CircuitPython writes at every start: not a CIRCUITPY drive "
                "(or CircuitPython has not started on it yet): refusing to write" % drive)
    except FileRefused as e:
        return ("cannot read boot_out.txt: %s, so the drive's CircuitPython version is unknown: refusing to write"
                % e)
    except OSError as e:
        return ("cannot read %s (%s), so the drive's CircuitPython version is unknown: refusing to write"
                % (path, e.strerror or e))
    if "CircuitPython" not in first:
        return ("%s was not written by CircuitPython (its first line: %r): not a CIRCUITPY drive, refusing to write"
                % (path, first[:80]))
    return None


VERSION = re.compile(r"^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$")


def drive_info(drive: Path) -> DriveInfo:
    text = read_boot_out(drive) or ""
    info = DriveInfo()
    m = re.search(r"CircuitPython (\S+)", text)
    # a drive's text is anyone's: only a plain version (9.2.8, 10.3.0-alpha.4) is taken, else none
    if m and VERSION.match(m.group(1).rstrip(";")):
        info.version = m.group(1).rstrip(";")
    m = re.search(r"^Board ID:\s*(\S+)", text, re.M)
    if m:
        info.board_id = m.group(1)
    return info


def check_drive(drive: Path, any_version: bool = False) -> DriveInfo:
    """What boot_out.txt says about the drive, once it shows CircuitPython of a version the firmware
    supports wrote it (pegboard.deploy.circuitpython); else DeployError saying what was found and
    what to do."""
    why = why_not_circuitpy(drive)
    if why is not None:
        raise DeployError("%s. Give the board's CIRCUITPY drive itself, e.g. %s; if the board shows no such "
                          "drive, CircuitPython is not installed on it (or its boot.py hid the drive)"
                          % (why, drive_example()))
    info = drive_info(drive)
    why = circuitpython.refusal(info.version, any_version)
    if why is not None:
        raise DeployError(why)
    return info
