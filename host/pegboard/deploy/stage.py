"""Everything a deploy will do to the drive, read and checked before the first byte is written: the
firmware's files (compiled to .mpy when a CircuitPython mpy-cross for the drive's version is at
hand), the browser page, the drive's settings.toml with the board's settings merged in (each read
as UTF-8, as CircuitPython reads it), the files an earlier deploy wrote and this one does not
(pegboard.deploy.manifest), and whether it all fits on the drive. Every path on the drive is
checked first: a link there is refused (pegboard.deploy.drive_paths). A failure here leaves the
drive as it was."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pegboard.deploy import manifest, mpycross
from pegboard.deploy.bootout import DriveInfo
from pegboard.deploy.drive_paths import check_writable, read_drive_file
from pegboard.deploy.errors import DeployError
from pegboard.deploy.plan import PACKAGES, plan
from pegboard.deploy.settings_merge import merge_settings
from pegboard.deploy.space import check_room
from pegboard.hardware.boards import board_file, board_for_id
from pegboard.regular_file import FileRefused, read_regular

SETTINGS_LIMIT = 1 << 20  # a settings.toml is a few KB; the cap keeps /dev/zero out of memory


@dataclass
class Report:
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # in the firmware's folders, but no deploy wrote them
    compiled: bool = False
    why_source: str = ""  # why the modules went as .py
    settings_added: list[str] = field(default_factory=list)
    settings_kept: list[str] = field(default_factory=list)
    settings_from: str = ""


@dataclass
class Staged:
    """What to write (path on the drive, content, in order: the list of deploy's files first, settings.toml
    last) and the report of the deploy once it is written (its `removed`: the files to remove after;
    `then`: the list of deploy's files without them, written once they are gone)."""
    info: DriveInfo
    files: list[tuple[str, bytes]]
    report: Report
    then: list[tuple[str, bytes]] = field(default_factory=list)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise DeployError("cannot read %s (%s)" % (path, e.strerror or e)) from None


def _decoded(data: bytes, path: Path, what: str) -> str:
    """A settings file as text: UTF-8, as CircuitPython reads settings.toml."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DeployError("%s %s is not UTF-8 text (byte 0x%02x on line %d), and CircuitPython reads settings.toml "
                          "as UTF-8: save it as UTF-8 (or remove that byte) and deploy again"
                          % (what, path, data[e.start], data[:e.start].count(b"\n") + 1)) from None


def _settings_file(path: Path) -> str:
    """The settings file given (or the board's), read only as a regular file: a FIFO would block."""
    try:
        return _decoded(read_regular(path, SETTINGS_LIMIT), path, "settings file")
    except FileRefused as e:
        raise DeployError(str(e)) from None
    except OSError as e:
        raise DeployError("cannot read %s (%s)" % (path, e.strerror or e)) from None


def _drive_settings(drive: Path) -> str | None:
    """The drive's settings.toml (None when it has none), never read through a link."""
    data = read_drive_file(drive, "settings.toml", SETTINGS_LIMIT)
    return None if data is None else _decoded(data, drive / "settings.toml", "the drive's")


def choose_settings(info: DriveInfo, board: str | None, settings: Path | None) -> tuple[Path, bool, str]:
    """(the settings file to merge in, whether its keys win, what to call it)."""
    if settings is not None:
        if not settings.exists():  # anything else there is named by its reading (a folder, a FIFO ...)
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


def stage(drive: Path, info: DriveInfo, settings: Path | None, board: str | None, mpy_cross: str | None,
          compile_modules: bool) -> Staged:
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
    own = [rel for rel, _ in files]
    for rel in own + [manifest.NAME, "settings.toml"]:  # before a byte is read from the drive: no links
        check_writable(drive, rel)
    old = manifest.old_files(drive, set(own) | {manifest.NAME, "settings.toml"})
    report.removed, report.left = old.remove, old.left
    files.insert(0, manifest.manifest(own + old.remove))  # first: a deploy cut short still knows them
    current = _drive_settings(drive)
    merged = merge_settings(current, _settings_file(src_settings), override, label)
    report.settings_added, report.settings_kept = merged.added, merged.kept
    if merged.text != current:
        files.append(("settings.toml", merged.text.encode("utf-8")))
    report.written = [rel for rel, _ in files]
    check_room(drive, files)
    return Staged(info, files, report, then=[manifest.manifest(own)] if old.remove else [])
