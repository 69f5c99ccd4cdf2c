"""Copy the firmware onto a mounted CIRCUITPY drive, safely: only onto a drive CircuitPython wrote a
boot_out.txt on, naming a version the firmware supports (pegboard.deploy.circuitpython), each file written
under a temporary name and renamed, only the files the chip imports, compiled to .mpy when a
CircuitPython mpy-cross for the drive's version is at hand, and the maker's own settings kept
(pegboard.deploy.settings_merge)."""

from __future__ import annotations

import ast
import glob
import importlib.util
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pegcore

from pegboard.deploy import circuitpython

from pegboard.deploy import mpycross
from pegboard.hardware.boards import board_file, board_for_id
from pegboard.deploy.settings_merge import merge_settings

FIRMWARE = Path(pegcore.__file__).resolve().parent.parent
# lib/ holds only what CircuitPython lacks: adafruit_pixelbuf is built into it on RP2040
LIBS = ("neopixel",)
PACKAGES = ("pegcore", "pegfw")
DATA_FILES = ("pegcore/t5_hints.bin", "pegcore/t5_finish.bin", "pegcore/t6_book.bin",  # what the chip reads
              "pegcore/t7_book.bin")


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


def find_drives() -> list[Path]:
    """Mounted drives CircuitPython wrote a boot_out.txt on, whatever their label."""
    pats = ["/media/*/*", "/run/media/*/*", "/media/*", "/Volumes/*", "/mnt/*"]
    out = []
    for pat in pats:
        out += [Path(p) for p in glob.glob(pat) if is_circuitpy(Path(p))]
    return sorted(set(out))


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


def check_drive(drive: Path, any_version: bool = False) -> DriveInfo:
    """What boot_out.txt says about the drive, once it shows CircuitPython of a version the firmware
    supports wrote it (pegboard.deploy.circuitpython); else DeployError saying what was found."""
    if not drive.is_dir():
        raise DeployError("%s is not a mounted folder" % drive)
    path = drive / "boot_out.txt"
    try:
        first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip()
    except FileNotFoundError:
        raise DeployError("%s has no boot_out.txt, which CircuitPython writes at every start: not a CIRCUITPY "
                          "drive (or CircuitPython has not started on it yet): refusing to write" % drive) from None
    except OSError as e:
        raise DeployError("cannot read %s (%s), so the drive's CircuitPython version is unknown: refusing to write"
                          % (path, e.strerror or e)) from None
    if "CircuitPython" not in first:
        raise DeployError("%s was not written by CircuitPython (its first line: %r): not a CIRCUITPY drive, "
                          "refusing to write" % (path, first[:80]))
    info = drive_info(drive)
    why = circuitpython.refusal(info.version, any_version)
    if why is not None:
        raise DeployError(why)
    return info


def drive_info(drive: Path) -> DriveInfo:
    text = read_boot_out(drive) or ""
    info = DriveInfo()
    m = re.search(r"CircuitPython (\d+\.\d+\.\d+\S*)", text)
    if m:
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


def _write(drive: Path, rel: str, data: bytes) -> None:
    dest = drive / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dest)  # a power cut leaves the old file or the new one, not half of one


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
    try:
        os.sync()
    except AttributeError:
        pass
    return report

