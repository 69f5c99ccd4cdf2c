"""Deploy removes only what a deploy wrote: each one lists its files on the drive (.pegboard-files),
and the next removes the listed ones it no longer writes (a stale pegfw/app.py would be imported
before a new app.mpy). A drive with no list (deployed by an older pegboard) gives up only the files
named as this firmware's own (pegboard.deploy.plan.firmware_file_names); any other file in the
firmware's folders is the maker's, left where it is and reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pegboard.deploy.drive_paths import check_parts, is_regular_file, read_drive_file
from pegboard.deploy.errors import DeployError
from pegboard.deploy.plan import PACKAGES, firmware_file_names

NAME = ".pegboard-files"
LIMIT = 64 * 1024  # a list of a few hundred names
HEADER = ("# pegboard deploy wrote these files: the next deploy removes the ones it no longer writes, "
          "and nothing else\n")
NEVER_OURS = {"settings.toml", "boot_out.txt", NAME}  # the maker's settings (merged in, never removed), CircuitPython's
LOOKS_STALE = (".py", ".mpy", ".bin", ".tmp")  # what in the firmware's folders an older firmware may have left


@dataclass
class OldFiles:
    remove: list[str] = field(default_factory=list)  # a deploy wrote them, this one does not
    left: list[str] = field(default_factory=list)    # in the firmware's folders, but no deploy's: kept


def _plain(name: str) -> bool:
    """A path inside the drive as deploy writes one ("pegfw/app.py"): never "../x", "/x", "C:x" or "a\\b"."""
    return ("\\" not in name and ":" not in name and name not in NEVER_OURS
            and all(part not in ("", ".", "..") for part in name.split("/")))


def listed(drive: Path) -> set[str] | None:
    """The files the drive's list names, None when it has none."""
    data = read_drive_file(drive, NAME, LIMIT)
    if data is None:
        return None
    names = (line.strip() for line in data.decode("utf-8", errors="replace").splitlines())
    return {name for name in names if name and not name.startswith("#") and _plain(name)}


def manifest(rels: list[str]) -> tuple[str, bytes]:
    """The list naming `rels`, as (path on the drive, content)."""
    names = sorted({rel for rel in rels if _plain(rel)})
    return NAME, (HEADER + "".join(name + "\n" for name in names)).encode("utf-8")


def _in_firmware_folders(drive: Path) -> list[str]:
    """The files in the drive's pegcore/ and pegfw/ whose names an older firmware may have left."""
    out = []
    for pkg in PACKAGES:
        if check_parts(drive, pkg, folder=True) is None:
            continue
        try:
            names = sorted(p.name for p in (drive / pkg).iterdir())
        except OSError as e:
            raise DeployError("cannot list %s (%s)" % (drive / pkg, e.strerror or e)) from None
        out += ["%s/%s" % (pkg, name) for name in names if name.endswith(LOOKS_STALE)]
    return out


def old_files(drive: Path, wanted: set[str]) -> OldFiles:
    """What an earlier deploy wrote that this one, writing `wanted`, does not (to remove), and the other
    files of the firmware's folders (kept); DeployError naming a link among them."""
    ours = listed(drive)
    if ours is None:
        ours = firmware_file_names()
    found = OldFiles()
    found.remove = sorted(rel for rel in ours - wanted if is_regular_file(drive, rel))
    found.left = [rel for rel in _in_firmware_folders(drive) if rel not in wanted and rel not in found.remove]
    return found
