"""Copy the firmware onto a mounted CIRCUITPY drive, safely: only onto a drive CircuitPython wrote a
boot_out.txt on, naming a version the firmware supports (pegboard.deploy.circuitpython), each file written
under a temporary name, flushed to the device and renamed, only the files the chip imports, compiled to
.mpy when a CircuitPython mpy-cross for the drive's version is at hand, and the maker's own settings kept
(pegboard.deploy.settings_merge), and the browser page beside them as pegboard.html. The drive is found
on Windows (drive letters labelled CIRCUITPY), macOS (/Volumes/CIRCUITPY, "CIRCUITPY 1" for a second
board) and Linux (the mount table, then the usual mount folders). Nothing POSIX-only is imported at module
level: the CLI imports on Windows too."""

from __future__ import annotations

import ast
import glob
import importlib.util
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import pegcore

from pegboard.deploy import circuitpython

from pegboard.deploy import mpycross
from pegboard.hardware.boards import board_file, board_for_id
from pegboard.deploy.settings_merge import merge_settings

FIRMWARE = Path(pegcore.__file__).resolve().parent.parent
# lib/ holds only what CircuitPython lacks: adafruit_pixelbuf is built into it on RP2040
LIBS = ("neopixel",)
PACKAGES = ("pegcore", "pegfw")
DATA_FILES = ("pegcore/t5_hints.bin", "pegcore/t5_finish.bin", "pegcore/t5_ends.bin",  # what the chip reads
              "pegcore/t6_book.bin", "pegcore/t7_book.bin")


class DeployError(Exception):
    pass


@dataclass
class DriveInfo:
    """What boot_out.txt says about the board."""
    version: str | None = None   # "9.2.1"
    board_id: str | None = None  # "raspberry_pi_pico"


@dataclass
class Report:
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    compiled: bool = False
    why_source: str = ""  # why the modules went as .py
    settings_added: list[str] = field(default_factory=list)
    settings_kept: list[str] = field(default_factory=list)
    settings_from: str = ""


LABEL = "CIRCUITPY"  # CircuitPython's volume label; a second board on macOS mounts as "CIRCUITPY 1"
MOUNTS_FILES = ("/proc/self/mounts", "/proc/mounts")  # Linux's mount table, the first one readable
LINUX_GLOBS = ("/media/*/*", "/run/media/*/*", "/media/*", "/mnt/*")  # where desktops mount USB drives
VOLUMES = "/Volumes"  # macOS


def _platform() -> str:
    """sys.platform, asked at call time (tests stand in for another system)."""
    return sys.platform


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
    system = system or _platform()
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


def drive_example(system: str | None = None) -> str:
    """How to give the drive by hand on this system, and how to find it."""
    system = system or _platform()
    if system == "win32":
        return "`pegboard deploy --drive E:\\` (File Explorer shows the CIRCUITPY drive's letter)"
    if system == "darwin":
        return "`pegboard deploy --drive /Volumes/CIRCUITPY` (`ls /Volumes` shows it)"
    return ("`pegboard deploy --drive /media/$USER/CIRCUITPY` (`lsblk -o LABEL,MOUNTPOINT` shows where it is "
            "mounted)")


def drive_path(text: str, system: str | None = None) -> Path:
    """--drive as a path: on Windows "E:" means E:'s current folder, so it is taken as E:\\."""
    if (system or _platform()) == "win32" and re.fullmatch(r"[A-Za-z]:", text):
        text += "\\"
    return Path(text)


def read_boot_out(drive: Path) -> str | None:
    try:
        return (drive / "boot_out.txt").read_text(encoding="utf-8", errors="replace")[:1000]
    except OSError:
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
        first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip()
    except FileNotFoundError:
        return ("%s has no boot_out.txt, which CircuitPython writes at every start: not a CIRCUITPY drive "
                "(or CircuitPython has not started on it yet): refusing to write" % drive)
    except OSError as e:
        return ("cannot read %s (%s), so the drive's CircuitPython version is unknown: refusing to write"
                % (path, e.strerror or e))
    if "CircuitPython" not in first:
        return ("%s was not written by CircuitPython (its first line: %r): not a CIRCUITPY drive, refusing to write"
                % (path, first[:80]))
    return None


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


MODULE_NAME = re.compile(r"^(%s)(\.[a-z_][a-z0-9_]*)+$" % "|".join(PACKAGES))


def _imports(path: Path) -> set[str]:
    """Every module a firmware file imports, at any depth of its code, and every module it names
    in a string (pegfw.ondemand loads shows and rare commands by name: "pegfw.show_demo")."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_NAME.match(node.value):
            out.add(node.value)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out |= {node.module + "." + a.name for a in node.names}
    return out


def chip_modules() -> list[str]:
    """The firmware's own modules the chip can import, following imports from boot.py and code.py
    ("pegfw.app" ...): modules only the host uses (the PC solver's helpers) stay off the drive."""
    seen: set[str] = set()
    todo = _imports(FIRMWARE / "boot.py") | _imports(FIRMWARE / "code.py")
    while todo:
        name = todo.pop()
        top = name.split(".")[0]
        if top not in PACKAGES or name in seen:
            continue
        path = FIRMWARE / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = FIRMWARE / name.replace(".", "/") / "__init__.py"
            if not path.exists():
                continue  # "from pegfw import colors" also names the attribute pegfw.VERSION
        seen.add(name)
        if "." in name:
            todo.add(name.rsplit(".", 1)[0])  # importing a submodule runs its package's __init__
        todo |= _imports(path) - seen
    return sorted(seen)


def _module_file(name: str) -> str:
    """pegfw.app -> pegfw/app.py; pegfw -> pegfw/__init__.py."""
    rel = name.replace(".", "/")
    return rel + "/__init__.py" if (FIRMWARE / rel).is_dir() else rel + ".py"


def plan() -> list[tuple[Path, str]]:
    """(source file, destination path relative to the drive) for everything deploy copies, the
    modules as .py (deploy() swaps in .mpy when it compiles)."""
    files = [(FIRMWARE / name, name) for name in ("boot.py", "code.py")]
    files += [(FIRMWARE / _module_file(m), _module_file(m)) for m in chip_modules()]
    files += [(FIRMWARE / rel, rel) for rel in DATA_FILES]
    for lib in LIBS:
        spec = importlib.util.find_spec(lib)  # located, not imported: Blinka's parts raise on a PC
        if spec is None or not spec.origin:
            raise DeployError("the %s library is not installed (pip install adafruit-circuitpython-neopixel)" % lib)
        files.append((Path(spec.origin), "lib/%s.py" % lib))
    return files


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
    if _platform() == "darwin" and _full_fsync(fd):
        return
    os.fsync(fd)


def sync_folder(folder: Path) -> None:
    """After renames, flush the folder itself (its entries name the new files) on POSIX; skipped
    where a folder cannot be opened or flushed (Windows, some file systems)."""
    if _platform() == "win32":
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


def _write(drive: Path, rel: str, data: bytes) -> None:
    dest = drive / rel
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            flush_to_device(f.fileno())  # on the device before the name points at it
        os.replace(tmp, dest)  # a power cut leaves the old file or the new one, not half of one
    except OSError as e:
        raise DeployError("writing %s failed (%s): is the drive still mounted, writable and not full? (an "
                          "ejected drive, or a board whose boot.py gave its drive to the chip, refuses writes.) "
                          "Plug the board in again, wait for its CIRCUITPY drive, and deploy again"
                          % (dest, e.strerror or e)) from None


def choose_settings(drive: Path, board: str | None, settings: Path | None) -> tuple[Path, bool, str]:
    """(the settings file to merge in, whether its keys win, what to call it)."""
    if settings is not None:
        if not settings.is_file():
            raise DeployError("settings file %s not found" % settings)
        return settings, True, str(settings)
    if board is None:
        board = board_for_id(drive_info(drive).board_id or "") or "pico-gpio"
    try:
        path = board_file(board)
    except ValueError as e:
        raise DeployError(str(e)) from None
    return path, False, "hardware/boards/%s" % path.name


def deploy(drive: Path, settings: Path | None = None, board: str | None = None,
           mpy_cross: str | None = None, compile_modules: bool = True, any_version: bool = False) -> Report:
    check_drive(drive, any_version)
    src_settings, override, label = choose_settings(drive, board, settings)
    files = plan()
    report = Report(settings_from=label)
    compiler = None
    if compile_modules:
        try:
            compiler = mpycross.find(mpy_cross, drive_info(drive).version)
        except mpycross.MpyCrossError as e:
            if mpy_cross:  # asked for by name: a wrong one is an error, not a fallback
                raise DeployError(str(e)) from None
            report.why_source = str(e)
    else:
        report.why_source = "--py given"
    wanted: set[str] = set()
    for src, rel in files:
        data = src.read_bytes()
        if compiler is not None and rel.split("/")[0] in PACKAGES and rel.endswith(".py"):
            try:
                data = compiler.compile(src, rel)
            except mpycross.MpyCrossError as e:
                raise DeployError(str(e)) from None
            rel = rel[:-3] + ".mpy"
        _write(drive, rel, data)
        wanted.add(rel)
        report.written.append(rel)
    # the board's page (docs/web.md), one self-contained file: Chrome or Edge opens it from the drive
    # and reaches the board over Web Serial with nothing installed
    from pegboard.web.page import DRIVE_NAME, single_file

    _write(drive, DRIVE_NAME, single_file().encode("utf-8"))
    report.written.append(DRIVE_NAME)
    report.compiled = compiler is not None
    # our packages hold only this deploy's files: a stale .py would be imported before a new .mpy
    for pkg in PACKAGES:
        for old in sorted((drive / pkg).iterdir()):
            rel = "%s/%s" % (pkg, old.name)
            if old.is_file() and rel not in wanted and old.suffix in (".py", ".mpy", ".bin", ".tmp"):
                old.unlink()
                report.removed.append(rel)
    current = None
    try:
        current = (drive / "settings.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError) as e:
        raise DeployError("cannot read %s: %s" % (drive / "settings.toml", e)) from None
    merged = merge_settings(current, src_settings.read_text(encoding="utf-8"), override, label)
    report.settings_added, report.settings_kept = merged.added, merged.kept
    if merged.text != current:
        _write(drive, "settings.toml", merged.text.encode("utf-8"))
        report.written.append("settings.toml")
    for folder in sorted({(drive / rel).parent for rel in report.written + report.removed} | {drive}):
        sync_folder(folder)
    if hasattr(os, "sync"):  # POSIX only: Windows has no os.sync
        os.sync()
    return report

