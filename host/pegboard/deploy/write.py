"""Writing the drive: each file under a temporary name, flushed to the device (F_FULLFSYNC on macOS,
whose fsync may return with the data in the drive's cache) and only then renamed over the old one;
after the renames the changed folders are flushed, and a pause lets the system finish the FAT
before the board is told to reset. Only what pegboard.deploy.stage read and checked is written, and
never through a link (each path checked again as it is written: pegboard.deploy.drive_paths).
fcntl is imported where it is used: the CLI imports on Windows too."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pegboard.deploy import system as host_system
from pegboard.deploy.drive_paths import check_parts, check_writable, open_for_writing
from pegboard.deploy.errors import DeployError

# After the last file is written and before the board is told to `reset` (its firmware resets 200 ms
# later): fsync puts each file's data on the device, but the OS may still be writing its FAT metadata
# (allocation table, directory entries), which Windows and macOS write to a removable drive lazily; a
# reset mid-write leaves a corrupt file system. One second covers what remains after the flushes.
SETTLE_SECONDS = 1.0


def settle(seconds: float = SETTLE_SECONDS) -> None:
    """The pause between the last write and the `reset` request (SETTLE_SECONDS says why)."""
    time.sleep(seconds)


def _full_fsync(fd: int) -> bool:
    """macOS: F_FULLFSYNC asks the device itself to write its cache (fsync there may return while the
    data sits in the drive's cache). False where fcntl or F_FULLFSYNC is missing, or the file system
    refuses it."""
    try:
        import fcntl  # POSIX only: imported here, so this module imports on Windows
    except ImportError:
        return False
    full = getattr(fcntl, "F_FULLFSYNC", None)
    if full is None:
        return False
    try:
        fcntl.fcntl(fd, full)
    except OSError:
        return False
    return True


def flush_to_device(fd: int) -> None:
    """Put what was written to fd on the device: F_FULLFSYNC on macOS, else fsync."""
    if host_system.name() == "darwin" and _full_fsync(fd):
        return
    os.fsync(fd)


def sync_folder(folder: Path) -> None:
    """After renames, flush the folder itself (its entries name the new files) on POSIX; skipped
    where a folder cannot be opened or flushed (Windows, some file systems)."""
    if host_system.name() == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        flush_to_device(fd)
    except OSError:
        pass  # EINVAL, EACCES: this file system flushes folders its own way
    finally:
        os.close(fd)


def _write_fd(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_file(drive: Path, rel: str, data: bytes) -> None:
    """`data` as drive/rel: under a temporary name, flushed to the device, then renamed over the old file."""
    dest = drive / rel
    check_writable(drive, rel)  # stage checked it; a link made since is refused all the same
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".tmp")
        fd = open_for_writing(tmp)
        try:
            _write_fd(fd, data)
            flush_to_device(fd)  # on the device before the name points at it
        finally:
            os.close(fd)
        os.replace(tmp, dest)  # a power cut leaves the old file or the new one, not half of one
    except OSError as e:
        raise DeployError("writing %s failed (%s): is the drive still mounted, writable and not full? (an "
                          "ejected drive, or a board whose boot.py gave its drive to the chip, refuses writes.) "
                          "Plug the board in again, wait for its CIRCUITPY drive, and deploy again"
                          % (dest, e.strerror or e)) from None


def remove_file(drive: Path, rel: str) -> None:
    """Remove drive/rel, a file a deploy wrote, reached through no link."""
    try:
        if check_parts(drive, rel) is not None:
            (drive / rel).unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise DeployError("removing %s failed (%s): the new firmware is on the drive, but that file of an "
                          "older one would be imported before it. Remove it by hand, or deploy again"
                          % (drive / rel, e.strerror or e)) from None


def write_files(drive: Path, files: list[tuple[str, bytes]], remove: list[str],
                then: list[tuple[str, bytes]] | None = None) -> None:
    """Write `files` (path on the drive, content) in order, then remove `remove` (a stale .py would be
    imported before a new .mpy), then write `then`, then flush the folders that changed and the
    system's buffers."""
    then = then or []
    for rel, data in files:
        write_file(drive, rel, data)
    for rel in remove:
        remove_file(drive, rel)
    for rel, data in then:
        write_file(drive, rel, data)
    for folder in sorted({(drive / rel).parent for rel, _ in files + then} | {(drive / rel).parent for rel in remove}
                         | {drive}):
        sync_folder(folder)
    if hasattr(os, "sync"):  # POSIX only: Windows has no os.sync
        os.sync()
