"""Everything a deploy will do to the drive, read and checked before the first byte is written: the
firmware's files (compiled to .mpy when a CircuitPython mpy-cross for the drive's version is at
hand), the browser page, the drive's settings.toml with the board's settings merged in (each read
as UTF-8, as CircuitPython reads it), the files of an older deploy to remove, and whether it all
fits on the drive. A failure here leaves the drive as it was."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pegboard.deploy import mpycross
from pegboard.deploy.bootout import DriveInfo
from pegboard.deploy.errors import DeployError
from pegboard.deploy.plan import PACKAGES, plan
from pegboard.deploy.settings_merge import merge_settings
from pegboard.deploy.space import check_room
from pegboard.hardware.boards import board_file, board_for_id

STALE = (".py", ".mpy", ".bin", ".tmp")  # what an older deploy left in our packages


@dataclass
class Report:
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    compiled: bool = False
    why_source: str = ""  # why the modules went as .py
    settings_added: list[str] = field(default_factory=list)
    settings_kept: list[str] = field(default_factory=list)
    settings_from: str = ""


@dataclass
class Staged:
    """What to write (path on the drive, content, in order: settings.toml last) and the report of the
    deploy once it is written (its `removed`: the files to remove after)."""
    info: DriveInfo
    files: list[tuple[str, bytes]]
    report: Report


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise DeployError("cannot read %s (%s)" % (path, e.strerror or e)) from None


def _text(path: Path, what: str) -> str:
    """A settings file as text: UTF-8, as CircuitPython reads settings.toml."""
    data = _read(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DeployError("%s %s is not UTF-8 text (byte 0x%02x on line %d), and CircuitPython reads settings.toml "
                          "as UTF-8: save it as UTF-8 (or remove that byte) and deploy again"
                          % (what, path, data[e.start], data[:e.start].count(b"\n") + 1)) from None


def choose_settings(info: DriveInfo, board: str | None, settings: Path | None) -> tuple[Path, bool, str]:
    """(the settings file to merge in, whether its keys win, what to call it)."""
    if settings is not None:
        if not settings.is_file():
            raise DeployError("settings file %s not found" % settings)
        return settings, True, str(settings)
    if board is None:
        board = board_for_id(info.board_id or "") or "pico-gpio"
    try:
        path = board_file(board)
    except ValueError as e:
        raise DeployError(str(e)) from None
    return path, False, "hardware/boards/%s" % path.name


def drive_files(compiler: mpycross.MpyCross | None) -> list[tuple[str, bytes]]:
    """(path on the drive, content) of the firmware's files, the modules of our packages compiled
    with `compiler` when given, and the board's page (docs/web.md: one self-contained file Chrome
    or Edge opens from the drive, reaching the board over Web Serial with nothing installed)."""
    from pegboard.web.page import DRIVE_NAME, single_file

    files = []
    for src, rel in plan():
        data = _read(src)
        if compiler is not None and rel.split("/")[0] in PACKAGES and rel.endswith(".py"):
            try:
                data = compiler.compile(src, rel)
            except mpycross.MpyCrossError as e:
                raise DeployError(str(e)) from None
            rel = rel[:-3] + ".mpy"
        files.append((rel, data))
    files.append((DRIVE_NAME, single_file().encode("utf-8")))
    return files


def _check_paths(drive: Path, rels: list[str]) -> None:
    """Each file goes where a file (or nothing) is, in folders that are folders (or not there yet)."""
    for rel in rels:
        dest = drive / rel
        if dest.exists() and not dest.is_file():
            raise DeployError("%s is in the way: deploy writes a file there" % dest)
        for folder in dest.parents:
            if folder == drive:
                break
            if folder.exists() and not folder.is_dir():
                raise DeployError("%s is in the way: deploy makes a folder there" % folder)


def _stale(drive: Path, wanted: set[str]) -> list[str]:
    """Our packages hold only this deploy's files: a stale .py would be imported before a new .mpy."""
    out = []
    for pkg in PACKAGES:
        folder = drive / pkg
        if not folder.is_dir():
            continue
        try:
            items = sorted(folder.iterdir())
        except OSError as e:
            raise DeployError("cannot list %s (%s)" % (folder, e.strerror or e)) from None
        for old in items:
            rel = "%s/%s" % (pkg, old.name)
            if old.is_file() and rel not in wanted and old.suffix in STALE:
                out.append(rel)
    return out


def stage(drive: Path, info: DriveInfo, settings: Path | None = None, board: str | None = None,
          mpy_cross: str | None = None, compile_modules: bool = True) -> Staged:
    """Read, compile, merge and check everything for a deploy onto `drive` (`info`: its boot_out.txt,
    already checked); DeployError before anything is written."""
    src_settings, override, label = choose_settings(info, board, settings)
    report = Report(settings_from=label)
    compiler = None
    if compile_modules:
        try:
            compiler = mpycross.find(mpy_cross, info.version)
        except mpycross.MpyCrossError as e:
            if mpy_cross:  # asked for by name: a wrong one is an error, not a fallback
                raise DeployError(str(e)) from None
            report.why_source = str(e)
    else:
        report.why_source = "--py given"
    files = drive_files(compiler)
    report.compiled = compiler is not None
    current = None
    if (drive / "settings.toml").exists():
        current = _text(drive / "settings.toml", "the drive's")
    merged = merge_settings(current, _text(src_settings, "settings file"), override, label)
    report.settings_added, report.settings_kept = merged.added, merged.kept
    if merged.text != current:
        files.append(("settings.toml", merged.text.encode("utf-8")))
    report.written = [rel for rel, _ in files]
    report.removed = _stale(drive, set(report.written))
    _check_paths(drive, report.written)
    check_room(drive, files)
    return Staged(info, files, report)
