"""The CIRCUITPY drive as bytes, for the emulated Pico's flash (at layout.FS_OFFSET): a FAT12 volume laid
out as CircuitPython's own format makes it, holding the files `pegboard deploy` writes, with long file
names. The tests read it back with pyfatfs, an independent FAT implementation, and mtools where installed.

How CircuitPython formats the drive (CircuitPython supervisor/shared/filesystem.c filesystem_init calls
CircuitPython lib/oofatfs/ff.c f_mkfs with FM_FAT and an automatic cluster size; facts from tag 9.2.8):
  - the volume is the first partition of a disk whose block 0 is a made-up MBR
    (CircuitPython supervisor/shared/flash.c flash_read_blocks, PART1_START_BLOCK 0x1): the flash at FS_OFFSET holds the
    volume's boot sector, and the boot sector counts that one block as hidden;
  - f_mkfs: one FAT (n_fats = 1), one reserved sector, 512 root entries (n_rootdir), media 0xF8, a
    cluster of one sector below 4096 sectors (cst[] table), FAT12 up to 0xFF5 clusters (MAX_FAT12);
    for 1 MiB: 2048 sectors = 1 + 7 (FAT) + 32 (root) + 2008 clusters of 512 bytes;
  - then f_setlabel(fs, "CIRCUITPY"): a volume-label entry in the root folder (written here in the boot
    sector too, where other readers look for it).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pegboard.deploy import mpycross
from pegboard.deploy.errors import DeployError
from pegboard.deploy.plan import FIRMWARE
from pegboard.deploy.settings_merge import merge_settings
from pegboard.deploy.stage import drive_files
from pegboard.sim.rp2040.layout import FS_SIZE, SECTOR_SIZE

N_FATS = 1
RESERVED_SECTORS = 1
ROOT_ENTRIES = 512
HIDDEN_SECTORS = 1
MEDIA = 0xF8
MAX_FAT12 = 0xFF5
VOLUME_ID = 0x50454742  # fixed, so the same files make the same image (CircuitPython draws one at random)
ENTRY = 32  # bytes per directory entry
ATTR_VOLUME, ATTR_DIR, ATTR_ARCHIVE, ATTR_LFN = 0x08, 0x10, 0x20, 0x0F
LFN_LAST = 0x40
STAMP_TIME, STAMP_DATE = 0, (2020 - 1980) << 9 | 1 << 5 | 1  # 2020-01-01 00:00: every file, for a fixed image
SFN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'()-@^_`{}~")  # what an 8.3 name may hold
LFN_FORBIDDEN = frozenset('\\/:*?"<>|')
BPB = struct.Struct("<HBHBHHBHHHII")  # at byte 11: the BIOS parameter block, up to TotSec32
EXT_BPB = struct.Struct("<BBBI11s8s")  # at byte 36: drive number, reserved, 0x29, volume id, label, type
DIR_ENTRY = struct.Struct("<11sBBBHHHHHHHI")


class DriveError(ValueError):
    """Files that do not fit or cannot be named on the drive, or an image that is not a FAT volume."""


@dataclass(frozen=True)
class Geometry:
    sectors: int
    cluster_sectors: int
    fat_sectors: int
    root_entries: int
    first_data: int  # sector of cluster 2
    clusters: int

    @property
    def cluster_bytes(self) -> int:
        return self.cluster_sectors * SECTOR_SIZE


def geometry(size: int = FS_SIZE) -> Geometry:
    """The layout f_mkfs gives a FAT12 volume of `size` bytes (see the module's doc)."""
    sectors = size // SECTOR_SIZE
    per = 1
    for step in (1, 4, 16, 64, 256, 512):  # f_mkfs's cst[]: a cluster twice as big at each, in 4K-sector units
        if sectors // 4096 >= step:
            per *= 2
    guess = sectors // per
    if guess > MAX_FAT12:
        raise DriveError("a volume of %d bytes would be FAT16: only FAT12 volumes are written" % size)
    fat_sectors = -(-((guess * 3 + 1) // 2 + 3) // SECTOR_SIZE)
    root = ROOT_ENTRIES if sectors > 256 else 128
    first_data = RESERVED_SECTORS + N_FATS * fat_sectors + root * ENTRY // SECTOR_SIZE
    return Geometry(sectors, per, fat_sectors, root, first_data, (sectors - first_data) // per)


# -- names ---------------------------------------------------------------------------------------
def _check_long_name(name: str, path: str) -> None:
    if name in ("", ".", ".."):
        raise DriveError("%r: empty, '.' or '..' part in the path" % path)
    bad = sorted({c for c in name if c in LFN_FORBIDDEN or ord(c) < 0x20})
    if bad:
        raise DriveError("%r: FAT names cannot hold %s" % (path, " ".join(repr(c) for c in bad)))
    if name[-1] in ". ":
        raise DriveError("%r: a FAT name cannot end in a dot or a space" % path)
    if len(name.encode("utf-16-le")) > 2 * 255:
        raise DriveError("%r: a FAT name is at most 255 characters" % path)


def short_name(name: str, taken: set[bytes]) -> tuple[bytes, bool]:
    """(the 11-byte 8.3 name, whether a long name must go with it): the upper-cased name when it fits
    8.3 unchanged and is free, else its first letters with a numeric tail, "BOARD_~1PY" for
    board_requests.py, unique among `taken` (the folder's other short names)."""
    upper = name.upper()
    stripped = upper.replace(" ", "").lstrip(".")
    base, ext = stripped.rsplit(".", 1) if "." in stripped else (stripped, "")
    lossy = stripped != upper or "." in base
    base = base.replace(".", "")
    clean_base = "".join(c if c in SFN_CHARS else "_" for c in base)
    clean_ext = "".join(c if c in SFN_CHARS else "_" for c in ext)
    lossy = lossy or clean_base != base or clean_ext != ext or len(base) > 8 or len(ext) > 3 or not base
    base, ext = (clean_base or "_")[:8], clean_ext[:3]
    exact = (base.ljust(8) + ext.ljust(3)).encode("ascii")
    if not lossy and exact not in taken:
        return exact, name != (base + "." + ext if ext else base)
    for n in range(1, 1000000):
        tail = "~%d" % n
        candidate = ((base[:8 - len(tail)] + tail).ljust(8) + ext.ljust(3)).encode("ascii")
        if candidate not in taken:
            return candidate, True
    raise DriveError("%r: no free short name" % name)  # a million alike in one folder


def lfn_checksum(short: bytes) -> int:
    """The checksum of an 8.3 name that each of its long-name entries carries."""
    s = 0
    for b in short:
        s = ((s & 1) << 7) + (s >> 1) + b & 0xFF
    return s


def _lfn_entries(name: str, checksum: int) -> list[bytes]:
    """The long-name entries that go before the 8.3 entry: 13 UTF-16 units each, the last part first."""
    units = name.encode("utf-16-le")
    chars = [units[i:i + 2] for i in range(0, len(units), 2)]
    if len(chars) % 13:
        chars.append(b"\0\0")  # a terminator, then 0xFFFF padding
        chars += [b"\xff\xff"] * (-len(chars) % 13)
    parts = [b"".join(chars[i:i + 13]) for i in range(0, len(chars), 13)]
    out = []
    for i, part in enumerate(parts):
        order = i + 1 | (LFN_LAST if i == len(parts) - 1 else 0)
        out.append(bytes([order]) + part[:10] + bytes([ATTR_LFN, 0, checksum]) + part[10:22] + b"\0\0" + part[22:])
    return out[::-1]


def _entry(short: bytes, attr: int, cluster: int, size: int) -> bytes:
    return DIR_ENTRY.pack(short, attr, 0, 0, STAMP_TIME, STAMP_DATE, STAMP_DATE, 0, STAMP_TIME, STAMP_DATE,
                          cluster, size)


# -- the writer ----------------------------------------------------------------------------------
@dataclass
class _File:
    data: bytes
    cluster: int = 0  # 0: empty, no cluster


@dataclass
class _Dir:
    items: dict[str, _Dir | _File] = field(default_factory=dict)
    folded: dict[str, str] = field(default_factory=dict)  # FAT names match whatever their case: casefold -> name
    cluster: int = 0  # 0: the root folder
    entries: list[tuple[str, bytes, bool]] = field(default_factory=list)  # (name, 8.3 name, needs a long name)


def _tree(files: Iterable[tuple[str, bytes]]) -> _Dir:
    root = _Dir()
    for path, data in files:
        parts = path.split("/")
        for part in parts:
            _check_long_name(part, path)
        folder = root
        for i, part in enumerate(parts):
            name = folder.folded.setdefault(part.casefold(), part)
            have = folder.items.get(name)
            if i == len(parts) - 1:
                if have is not None:
                    raise DriveError("%r is given twice (or as a folder too, or in another case)" % path)
                folder.items[name] = _File(bytes(data))
            elif isinstance(have, _Dir):
                folder = have
            elif have is None:
                folder.items[name] = folder = _Dir()
            else:
                raise DriveError("%r: %r is a file, not a folder" % (path, "/".join(parts[:i + 1])))
    return root


def _name_entries(folder: _Dir) -> int:
    """Give every item of `folder` its 8.3 name; the number of directory entries the items take."""
    taken: set[bytes] = set()
    count = 0
    for name in folder.items:
        short, long = short_name(name, taken)
        taken.add(short)
        folder.entries.append((name, short, long))
        count += 1 + (-(-len(name.encode("utf-16-le")) // 26) if long else 0)
    return count


def build_drive(files: Iterable[tuple[str, bytes]], label: str = "CIRCUITPY", size: int = FS_SIZE) -> bytes:
    """A FAT12 volume of FS_SIZE bytes holding `files` ("pegcore/t5_hints.bin", content), folders made
    as the paths need them, labelled `label`; DriveError when they do not fit or cannot be named."""
    label = label.upper()
    if not label or len(label) > 11 or label[0] == " " or any(c not in SFN_CHARS and c != " " for c in label):
        raise DriveError("volume label %r: 1 to 11 characters, letters, digits, spaces and !#$%%&'()-@^_`{}~"
                         % label)
    geo = geometry(size)
    root = _tree(files)
    runs = _allocate(root, geo)
    image = bytearray(geo.sectors * SECTOR_SIZE)
    _write_folders(image, root, label, geo)
    _write_fat(image, runs, geo)
    _write_boot_sector(image, label, geo)
    return bytes(image)


Run = tuple["_Dir | _File", int]  # an item and the clusters it takes, from its own `cluster` on


def _allocate(root: _Dir, geo: Geometry) -> list[Run]:
    """Clusters in order, each item's in one run: a folder's own, then its items'; DriveError when
    the root folder's entries or the drive's clusters do not hold them."""
    runs: list[Run] = []
    free = 2

    def allocate(folder: _Dir, is_root: bool) -> None:
        nonlocal free
        count = _name_entries(folder)
        if is_root:
            if count + 1 > geo.root_entries:  # + the label
                raise DriveError("the root folder holds %d entries and these files need %d there (a long name "
                                 "takes 1 more entry for every 13 characters)" % (geo.root_entries, count + 1))
        else:
            n = -(-(count + 2) * ENTRY // geo.cluster_bytes)  # + "." and ".."
            folder.cluster, free = free, free + n
            runs.append((folder, n))
        for name, _, _ in folder.entries:
            item = folder.items[name]
            if isinstance(item, _Dir):
                allocate(item, False)
            elif item.data:
                n = -(-len(item.data) // geo.cluster_bytes)
                item.cluster, free = free, free + n
                runs.append((item, n))

    allocate(root, True)
    need = free - 2
    if need > geo.clusters:
        raise DriveError("the files need %d KiB of the drive (%d clusters of %d bytes, folders included) but the "
                         "CIRCUITPY drive holds %d KiB (%d clusters)"
                         % (need * geo.cluster_bytes // 1024, need, geo.cluster_bytes,
                            geo.clusters * geo.cluster_bytes // 1024, geo.clusters))
    return runs


def _data_at(geo: Geometry, cluster: int) -> int:
    return (geo.first_data + (cluster - 2) * geo.cluster_sectors) * SECTOR_SIZE


def _write_folders(image: bytearray, root: _Dir, label: str, geo: Geometry) -> None:
    """The root folder (the label first) and every folder below it, with their entries (long names
    where a name needs one); files' contents in their clusters."""

    def folder_bytes(folder: _Dir, parent: int) -> bytes:
        out = [_entry(b".".ljust(11), ATTR_DIR, folder.cluster, 0), _entry(b"..".ljust(11), ATTR_DIR, parent, 0)] \
            if folder.cluster else [_entry(label.ljust(11).encode("ascii"), ATTR_VOLUME, 0, 0)]
        for name, short, long in folder.entries:
            if long:
                out += _lfn_entries(name, lfn_checksum(short))
            item = folder.items[name]
            size = len(item.data) if isinstance(item, _File) else 0
            out.append(_entry(short, ATTR_DIR if isinstance(item, _Dir) else ATTR_ARCHIVE, item.cluster, size))
            if isinstance(item, _Dir):
                raw = folder_bytes(item, folder.cluster)
                image[_data_at(geo, item.cluster):_data_at(geo, item.cluster) + len(raw)] = raw
            elif item.data:
                image[_data_at(geo, item.cluster):_data_at(geo, item.cluster) + len(item.data)] = item.data
        return b"".join(out)

    root_at = (RESERVED_SECTORS + N_FATS * geo.fat_sectors) * SECTOR_SIZE
    raw = folder_bytes(root, 0)
    image[root_at:root_at + len(raw)] = raw


def _write_fat(image: bytearray, runs: list[Run], geo: Geometry) -> None:
    """The FAT (each run a chain, its last cluster the end mark), packed as FAT12, in every copy."""
    fat = [0] * (geo.clusters + 2)
    fat[0], fat[1] = 0xF00 | MEDIA, 0xFFF
    for item, n in runs:
        for c in range(item.cluster, item.cluster + n):
            fat[c] = c + 1 if c < item.cluster + n - 1 else 0xFFF
    packed = bytearray()
    for i in range(0, len(fat), 2):  # FAT12: two 12-bit entries in three bytes
        pair = fat[i] | (fat[i + 1] if i + 1 < len(fat) else 0) << 12
        packed += pair.to_bytes(3, "little")
    for n in range(N_FATS):
        at = (RESERVED_SECTORS + n * geo.fat_sectors) * SECTOR_SIZE
        image[at:at + len(packed)] = packed


def _write_boot_sector(image: bytearray, label: str, geo: Geometry) -> None:
    image[0:11] = b"\xeb\xfe\x90MSDOS5.0"  # as f_mkfs writes: a jump, the OEM name
    small = geo.sectors < 0x10000
    BPB.pack_into(image, 11, SECTOR_SIZE, geo.cluster_sectors, RESERVED_SECTORS, N_FATS, geo.root_entries,
                  geo.sectors if small else 0, MEDIA, geo.fat_sectors, 63, 255, HIDDEN_SECTORS,
                  0 if small else geo.sectors)
    EXT_BPB.pack_into(image, 36, 0x80, 0, 0x29, VOLUME_ID, label.ljust(11).encode("ascii"), b"FAT12   ")
    image[510:512] = b"\x55\xaa"


# -- what deploy writes --------------------------------------------------------------------------
def deploy_files(settings_path: str | Path | None = None, compile: bool = False,
                 version: str | None = None) -> list[tuple[str, bytes]]:
    """(path on the drive, content) for what `pegboard deploy --py` writes onto a fresh CIRCUITPY drive:
    pegboard.deploy.stage.drive_files(): the firmware and the page (pegboard.html), and settings.toml, made by
    pegboard.deploy.settings_merge from firmware/settings.toml (or `settings_path`, whose keys win, as
    --settings FILE) over the empty one CircuitPython makes. `compile`: the firmware's modules as .mpy,
    from the mpy-cross deploy would use for CircuitPython `version` (the UF2's); DeployError when none
    will do."""
    compiler = None
    if compile:
        try:
            compiler = mpycross.find(None, version)
        except mpycross.MpyCrossError as e:
            raise DeployError(str(e)) from None
    files = drive_files(compiler)
    if settings_path is None:
        settings, label = FIRMWARE / "settings.toml", "firmware/settings.toml"
    else:
        settings, label = Path(settings_path), str(settings_path)
        if not settings.is_file():
            raise DeployError("settings file %s not found" % settings)
    merged = merge_settings("", settings.read_text(encoding="utf-8"), settings_path is not None, label)
    files.append(("settings.toml", merged.text.encode("utf-8")))
    return files
