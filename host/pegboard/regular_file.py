"""Reading a file someone else may have made (a drive's boot_out.txt, a solution file) only when it is
a regular file of a bounded size: a FIFO would block the read for ever, /dev/zero (or a link to it)
never ends, and a huge file costs memory. The file is opened without blocking (O_NONBLOCK: a FIFO
with no writer opens at once) and checked with fstat before one byte is read; `follow_links=False`
also refuses a symbolic link (O_NOFOLLOW where the system has it, lstat first everywhere, so
Windows, which lacks O_NOFOLLOW, refuses it too)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # missing on Windows: the lstat check stands in
NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # missing on Windows, which has no FIFOs in the file system
BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


class FileRefused(Exception):
    """The file is there but not one to read: its message says what it is instead."""


def is_link(st: os.stat_result) -> bool:
    """A symbolic link, or on Windows any reparse point (a junction too)."""
    reparse = getattr(st, "st_file_attributes", 0) & stat.FILE_ATTRIBUTE_REPARSE_POINT
    return stat.S_ISLNK(st.st_mode) or bool(reparse)


def kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def link_text(path: Path) -> str:
    """`path` as a link, naming where it points."""
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return "%s is a symbolic link (to %s)" % (path, target)


def read_regular(path: Path, limit: int, follow_links: bool = True) -> bytes:
    """The bytes of `path`, at most `limit` of them; FileRefused when it is not a regular file (or is a
    link, with follow_links=False) or is larger; OSError when it cannot be opened or read."""
    if not follow_links and is_link(os.lstat(path)):
        raise FileRefused(link_text(path))
    fd = os.open(path, os.O_RDONLY | NONBLOCK | BINARY | (0 if follow_links else NOFOLLOW))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused("%s is %s, not a file" % (path, kind(mode)))
        data = _read_at_most(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefused("%s is over %s" % (path, size_text(limit)))
    return data


def _read_at_most(fd: int, n: int) -> bytes:
    chunks = []
    while n > 0:
        chunk = os.read(fd, min(n, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def size_text(n: int) -> str:
    return "%d MB" % (n >> 20) if n >= 1 << 20 and not n % (1 << 20) else "%d KB" % (n >> 10)
