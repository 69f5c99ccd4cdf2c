"""`pegboard deploy`'s order: the drive's boot_out.txt checked (pegboard.deploy.bootout), then
everything read and checked (pegboard.deploy.stage), and only then the drive written
(pegboard.deploy.write): a settings.toml that cannot be read, a compiler that fails or a drive too
small stops the deploy with the drive as it was."""

from __future__ import annotations

from pathlib import Path

from pegboard.deploy.bootout import check_drive
from pegboard.deploy.errors import DeployError
from pegboard.deploy.stage import Report, Staged, stage
from pegboard.deploy.write import write_files


def prepare(drive: Path, settings: Path | None = None, board: str | None = None, mpy_cross: str | None = None,
            compile_modules: bool = True, any_version: bool = False) -> Staged:
    """Everything to write onto `drive`, read and checked; DeployError (nothing written) if not."""
    info = check_drive(drive, any_version)
    try:
        return stage(drive, info, settings, board, mpy_cross, compile_modules)
    except DeployError as e:
        raise DeployError("%s. Nothing on %s was changed." % (str(e).rstrip("."), drive)) from None


def install(drive: Path, staged: Staged) -> Report:
    """Write what `prepare` staged."""
    write_files(drive, staged.files, staged.report.removed, staged.then)
    return staged.report


def deploy(drive: Path, settings: Path | None = None, board: str | None = None, mpy_cross: str | None = None,
           compile_modules: bool = True, any_version: bool = False) -> Report:
    return install(drive, prepare(drive, settings, board, mpy_cross, compile_modules, any_version))
