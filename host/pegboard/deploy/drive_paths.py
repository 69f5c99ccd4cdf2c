"""Every path deploy reads, writes or removes on the drive, checked part by part with lstat: a FAT
drive holds no symbolic links, so a link there (on a stick labelled CIRCUITPY with another file
system, or a folder given to --drive) is refused before anything is written, naming it; a link
would send a write, a removal or a settings merge into the user's own files. Files are opened
without following links as well (O_NOFOLLOW, where the system has it) and read only when regular
(pegboard.regular_file)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pegboard.deploy.errors import DeployError
from pegboard.regular_file import NOFOLLOW, NONBLOCK, BINARY, FileRefused, is_link, link_text, read_regular

# the flags of a file deploy writes: never through a link, never waiting on a FIFO
WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | NOFOLLOW | NONBLOCK | BINARY


def _lstat(path: Path) -> os.stat_result | None:
    """lstat, None when nothing is there (or a part on the way is not a folder: refused by the caller)."""
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise DeployError("cannot look at %s (%s): is the drive still mounted?" % (path, e.strerror or e)) from None


def refuse_link(path: Path) -> DeployError:
    return DeployError("%s: a CIRCUITPY drive holds no links, so deploy will not read, write or remove anything "
                       "through one. Remove the link (or give the board's own CIRCUITPY drive) and deploy again"
                       % link_text(path))


def existing_parts(drive: Path, rel: str) -> list[os.stat_result]:
    """The lstat of each part of drive/rel that is there, up to the first that is not; DeployError
    naming the first link among them."""
    path = drive
    found = []
    for part in rel.split("/"):
        path = path / part
        st = _lstat(path)
        if st is None:
            break
        if is_link(st):
            raise refuse_link(path)
        found.append(st)
    return found


def check_parts(drive: Path, rel: str, folder: bool = False) -> os.stat_result | None:
    """The lstat of drive/rel (None when it is not there) once no part of it under the drive is a link,
    each part before the last is a folder, and the last a regular file (`folder`: a folder);
    DeployError naming what is in the way."""
    parts = rel.split("/")
    found = existing_parts(drive, rel)
    path = drive
    for i, st in enumerate(found):
        path = path / parts[i]
        wants_folder = folder or i < len(parts) - 1
        if wants_folder and not stat.S_ISDIR(st.st_mode):
            raise DeployError("%s is in the way: deploy makes a folder there" % path)
        if not wants_folder and not stat.S_ISREG(st.st_mode):
            raise DeployError("%s is in the way: deploy writes a file there" % path)
    return found[-1] if len(found) == len(parts) else None


def is_regular_file(drive: Path, rel: str) -> bool:
    """Whether drive/rel is a regular file, reached through no link (DeployError naming a link)."""
    found = existing_parts(drive, rel)
    return len(found) == len(rel.split("/")) and stat.S_ISREG(found[-1].st_mode)


def check_writable(drive: Path, rel: str) -> None:
    """drive/rel and its temporary name (written first, then renamed) are a file or nothing, under folders."""
    check_parts(drive, rel)
    check_parts(drive, rel + ".tmp")


def read_drive_file(drive: Path, rel: str, limit: int) -> bytes | None:
    """The bytes of the drive's file `rel` (None when it is not there), read only as a regular file of at
    most `limit` bytes, through no link; DeployError saying what is wrong."""
    path = drive / rel
    if check_parts(drive, rel) is None:
        return None
    try:
        return read_regular(path, limit, follow_links=False)
    except FileRefused as e:
        raise DeployError(str(e)) from None
    except OSError as e:
        raise DeployError("cannot read %s (%s)" % (path, e.strerror or e)) from None


def open_for_writing(path: Path) -> int:
    """A file descriptor writing `path` from its start, opened through no link."""
    return os.open(path, WRITE_FLAGS, 0o666)
