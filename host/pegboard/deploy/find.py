"""Finding the CIRCUITPY drive, the way each system mounts it: on Windows the drive letters labelled
CIRCUITPY, on macOS /Volumes/CIRCUITPY ("CIRCUITPY 1" for a second board), on Linux the mount table,
then the usual mount folders. A drive counts only when CircuitPython wrote its boot_out.txt
(pegboard.deploy.bootout). Each lookup takes its system's calls as arguments, so tests feed fakes
and every branch runs on any machine. Nothing POSIX-only is imported at module level."""

from __future__ import annotations

import glob
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from pegboard.deploy import system as host_system
from pegboard.deploy.bootout import is_circuitpy, why_not_circuitpy
from pegboard.deploy.errors import DeployError

LABEL = "CIRCUITPY"  # CircuitPython's volume label; a second board on macOS mounts as "CIRCUITPY 1"
MOUNTS_FILES = ("/proc/self/mounts", "/proc/mounts")  # Linux's mount table, the first one readable
LINUX_GLOBS = ("/media/*/*", "/run/media/*/*", "/media/*", "/mnt/*")  # where desktops mount USB drives
VOLUMES = "/Volumes"  # macOS


def _named_circuitpy(name: str) -> bool:
    return name.upper().startswith(LABEL)


@dataclass
class Search:
    """Where one system's drives were looked for: `named` roots say CIRCUITPY in their name or label
    (one that is not CircuitPython's is reported with why), `others` are folders a renamed drive may
    be (taken only with CircuitPython's boot_out.txt), `looked_at` says where, in words."""
    looked_at: list[str] = field(default_factory=list)
    named: list[Path] = field(default_factory=list)
    others: list[Path] = field(default_factory=list)


@dataclass
class Found:
    drives: list[Path] = field(default_factory=list)
    refused: list[tuple[Path, str]] = field(default_factory=list)  # named CIRCUITPY, not CircuitPython's
    looked_at: list[str] = field(default_factory=list)


def _unescape_mount(path: str) -> str:
    """The mount table writes a space as \\040 (and tab, newline, backslash likewise)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), path)


def linux_roots(mounts_files: Iterable[str] | None = None, globs: Iterable[str] | None = None) -> Search:
    """Linux (and other POSIX systems): the mount points in the mount table whose last part starts
    with CIRCUITPY, then every folder of the usual mount places (a renamed drive)."""
    s = Search()
    files = tuple(MOUNTS_FILES if mounts_files is None else mounts_files)
    for name in files:
        try:
            with open(name, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        s.looked_at.append("the mount points named %s* in %s" % (LABEL, name))
        for line in lines:
            parts = line.split()
            if len(parts) >= 2:
                mount = Path(_unescape_mount(parts[1]))
                if _named_circuitpy(mount.name):
                    s.named.append(mount)
        break
    else:
        if files:
            s.looked_at.append("no mount table (%s could not be read)" % " nor ".join(files))
    for pat in LINUX_GLOBS if globs is None else globs:
        s.looked_at.append(pat)
        for p in sorted(glob.glob(pat)):
            (s.named if _named_circuitpy(os.path.basename(p)) else s.others).append(Path(p))
    return s


def mac_roots(volumes: str | None = None) -> Search:
    """macOS: /Volumes/CIRCUITPY, /Volumes/CIRCUITPY 1 ... (one a board), then the other volumes
    (a renamed drive)."""
    where = VOLUMES if volumes is None else volumes
    s = Search(looked_at=["%s/%s*" % (where, LABEL), "the other volumes in %s (a renamed drive)" % where])
    for p in sorted(glob.glob(os.path.join(glob.escape(where), "*"))):
        (s.named if _named_circuitpy(os.path.basename(p)) else s.others).append(Path(p))
    return s


def _kernel32() -> Any:
    import ctypes

    if sys.platform == "win32":  # WinDLL exists only there
        return ctypes.WinDLL("kernel32", use_last_error=True)
    raise DeployError("drive letters are Windows's: this is %s" % sys.platform)


def _letter_root(letter: str) -> str:
    return letter + ":\\"


DRIVE_REMOVABLE, DRIVE_FIXED = 2, 3  # GetDriveTypeW; network drives and CD-ROMs are not asked their label
SEM_FAILCRITICALERRORS, SEM_NOOPENFILEERRORBOX = 0x0001, 0x8000  # no "insert a disk" box for an empty drive


def volume_label(kernel32: Any, root: str) -> str | None:
    """The volume label of a Windows drive root ("E:\\"), None when it cannot be read."""
    import ctypes

    buf = ctypes.create_unicode_buffer(261)
    ok = kernel32.GetVolumeInformationW(ctypes.c_wchar_p(root), buf, len(buf), None, None, None, None, 0)
    return buf.value if ok else None


def windows_roots(kernel32: Any = None, label_of: Callable[[str], str | None] | None = None,
                  root_of: Callable[[str], str] | None = None) -> Search:
    """Windows: the drive letters (GetLogicalDrives) of removable or fixed drives whose volume label
    (GetVolumeInformationW; `label_of` reads it) starts with CIRCUITPY."""
    k = _kernel32() if kernel32 is None else kernel32
    read_label = label_of or (lambda root: volume_label(k, root))
    to_root = root_of or _letter_root
    mask = int(k.GetLogicalDrives())
    letters = [chr(ord("A") + i) for i in range(26) if mask >> i & 1]
    s = Search(looked_at=["the drive letters labelled %s (%s)" % (
        LABEL, ", ".join(x + ":\\" for x in letters) or "none")])
    old_mode = k.SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX)
    try:
        for letter in letters:
            root = to_root(letter)
            if k.GetDriveTypeW(root) not in (DRIVE_REMOVABLE, DRIVE_FIXED):
                continue
            label = read_label(root)
            if label and _named_circuitpy(label):
                s.named.append(Path(root))
    finally:
        k.SetErrorMode(old_mode)
    return s


def candidate_roots(system: str | None = None) -> Search:
    """Where this system mounts drives, and the roots there that may be CIRCUITPY."""
    system = system or host_system.name()
    if system == "win32":
        return windows_roots()
    if system == "darwin":
        return mac_roots()
    return linux_roots()


def look_for_drives(search: Search | None = None) -> Found:
    """The drives CircuitPython wrote a boot_out.txt on among the candidate roots, and the ones
    named CIRCUITPY that are refused, with why."""
    s = candidate_roots() if search is None else search
    found = Found(looked_at=s.looked_at)
    seen: set[str] = set()
    for path in s.named:
        key = os.path.normcase(os.path.abspath(path))
        if key in seen:
            continue
        seen.add(key)
        why = why_not_circuitpy(path)
        if why is None:
            found.drives.append(path)
        else:
            found.refused.append((path, why))
    for path in s.others:
        key = os.path.normcase(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            if is_circuitpy(path):
                found.drives.append(path)
    return found
