"""Whether deploy's files fit on the drive, asked before the first byte is written. A FAT drive hands
out room in clusters (512 bytes on a CIRCUITPY drive up to 2 MiB: CircuitPython formats it with
f_mkfs, see pegboard.sim.rp2040.drive_image), so a file takes its size rounded up to whole clusters
and a folder takes 32 bytes for each name it holds (one more for every 13 characters of a long
name). Each file is written under a temporary name and then renamed over the old one, so at the
peak the drive holds the files already replaced, the old ones still to come and the one being
written; files of an older deploy are removed only after, so they count as taken."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pegboard.deploy import system as host_system
from pegboard.deploy.errors import DeployError

ENTRY = 32  # bytes per FAT directory entry
LFN_CHARS = 13  # characters of a long name per extra entry
CIRCUITPY_CLUSTER = 512  # what CircuitPython's format gives a drive up to 2 MiB; taken where none is told


@dataclass
class Room:
    free: int     # bytes free on the drive
    cluster: int  # bytes a file's size is rounded up to


def _windows_cluster(drive: Path, kernel32: Any = None) -> int | None:
    """Bytes a cluster of the Windows drive holding `drive` (GetDiskFreeSpaceW), None when not told."""
    import ctypes

    if kernel32 is not None:
        k = kernel32
    elif sys.platform == "win32":  # WinDLL exists only there
        k = ctypes.WinDLL("kernel32", use_last_error=True)
    else:
        return None
    per, size, free, total = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_ulong()
    root = os.path.splitdrive(os.path.abspath(drive))[0] + "\\"
    if not k.GetDiskFreeSpaceW(ctypes.c_wchar_p(root), ctypes.byref(per), ctypes.byref(size), ctypes.byref(free),
                               ctypes.byref(total)):
        return None
    return per.value * size.value or None


def room(drive: Path) -> Room:
    """The drive's free bytes and its cluster size (statvfs on POSIX, GetDiskFreeSpaceW on Windows)."""
    try:
        free = shutil.disk_usage(drive).free
        if host_system.name() == "win32":
            cluster = _windows_cluster(drive)
        else:
            st = os.statvfs(drive)  # POSIX only
            cluster = st.f_frsize or st.f_bsize
    except OSError as e:
        raise DeployError("cannot ask %s how much room it has (%s): is the drive still mounted?"
                          % (drive, e.strerror or e)) from None
    return Room(free, cluster or CIRCUITPY_CLUSTER)


def _entries(name: str) -> int:
    """Directory entries a name takes: its own and its long name's (counted even where 8.3 would do)."""
    return 1 + -(-len(name) // LFN_CHARS)


def needed(drive: Path, files: list[tuple[str, bytes]], cluster: int) -> int:
    """The free bytes writing `files` (path on the drive, content) in order needs at its peak."""
    def clusters(n: int) -> int:
        return -(-n // cluster)

    names: dict[Path, int] = {}  # folder -> entries of the names it gets
    tmp: dict[Path, int] = {}  # folder -> entries of its longest temporary name, there while one is written
    made: set[Path] = set()  # folders the writes make
    grown = peak = 0
    for rel, data in files:
        dest = drive / rel
        old = dest.stat().st_size if dest.is_file() else None
        tmp[dest.parent] = max(tmp.get(dest.parent, 0), _entries(dest.name + ".tmp"))
        if old is None:
            names[dest.parent] = names.get(dest.parent, 0) + _entries(dest.name)
            folder = dest.parent
            while folder != drive and folder not in made and not folder.exists():
                made.add(folder)
                names[folder] = names.get(folder, 0) + 2  # "." and ".."; its own name is in its parent
                names[folder.parent] = names.get(folder.parent, 0) + _entries(folder.name)
                folder = folder.parent
        peak = max(peak, grown + clusters(len(data)))
        grown += clusters(len(data)) - clusters(old or 0)
    folders = sum(clusters((names.get(f, 0) + tmp.get(f, 0)) * ENTRY) for f in set(names) | set(tmp))
    return (max(peak, grown) + folders) * cluster


def check_room(drive: Path, files: list[tuple[str, bytes]]) -> None:
    """DeployError when `files` will not fit on the drive."""
    r = room(drive)
    need = needed(drive, files, r.cluster)
    if need > r.free:
        raise DeployError("%s has %d KB free and this deploy needs %d KB there (%d files; each takes whole "
                          "clusters of %d bytes): make room on the drive (remove files of your own you no longer "
                          "need) and deploy again"
                          % (drive, r.free // 1024, -(-need // 1024), len(files), r.cluster))
