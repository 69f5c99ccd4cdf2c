"""The simulated board's flash (its NVM: kept games, stats, personal bests) kept between runs in the
user's data folder, one file per simulated board name, as a real board keeps its own. Each write
the firmware makes reaches the file as it lands (written whole and renamed into place), so a
simulator stopped at any moment leaves the flash as a power cut leaves the chip's: what the
firmware had written, nothing half-written by the PC."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

SIZE = 4096  # the NVM a board has (the simulator's, as microcontroller.nvm on an RP2040 build)
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
DEFAULT_NAME = "board"


class FlashError(ValueError):
    """A bad board name, or a kept file that is not a board's flash."""


def data_dir() -> Path:
    """The user's folder for pegboard's kept data: $PEGBOARD_DATA_DIR, else the platform's own
    (XDG_DATA_HOME or ~/.local/share, ~/Library/Application Support, %LOCALAPPDATA%)."""
    override = os.environ.get("PEGBOARD_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "pegboard"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "pegboard"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "pegboard"


def path_of(name: str) -> Path:
    if not NAME.match(name):
        raise FlashError("a simulated board's name is 1-40 letters, digits, '-' or '_', not %r" % name)
    return data_dir() / "boards" / ("%s.nvm" % name)


def load(path: Path) -> bytearray:
    """The kept flash at `path`, or an erased one if none is kept yet."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return bytearray(b"\xff" * SIZE)
    if len(data) != SIZE:
        raise FlashError("%s is not a simulated board's flash (%d bytes, not %d): move it away or start with "
                         "--fresh" % (path, len(data), SIZE))
    return bytearray(data)


class Claim:
    """One simulator's hold on a kept flash: a second simulator on the same board would overwrite
    the first's games with its own, so it is refused while this one runs. The hold is the OS's lock
    on a file beside the flash, so a simulator that is killed lets go of it at once."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.with_suffix(".lock")
        self._file = open(lock, "a+", encoding="ascii")  # noqa: SIM115 - held until release()
        try:
            import fcntl
        except ImportError:  # Windows runs no simulator (it has no pseudo-terminals)
            return
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._file.seek(0)
            holder = self._file.read().strip() or "?"
            self._file.close()
            raise FlashError("the simulated board %r is running already (pid %s): use that one (commands find "
                             "it), stop it, or start another with --name" % (path.stem, holder)) from None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(str(os.getpid()))
        self._file.flush()

    def release(self) -> None:
        self._file.close()


def save(path: Path, data: bytes) -> None:
    """`data` in `path`, whole or not at all (a new file renamed over the old)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".%s." % path.name, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Kept(NamedTuple):
    name: str
    path: Path
    used: int  # bytes written (not erased)
    modified: float


def kept() -> list[Kept]:
    """The simulated boards whose flash is kept, by name."""
    folder = data_dir() / "boards"
    out = []
    for p in sorted(folder.glob("*.nvm")) if folder.is_dir() else []:  # not the .lock beside each
        data = p.read_bytes()
        out.append(Kept(p.stem, p, len(data.rstrip(b"\xff")), p.stat().st_mtime))
    return out
