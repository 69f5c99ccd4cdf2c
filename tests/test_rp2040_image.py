"""The rp2040 runtime's flash image: CircuitPython's UF2 read into the 2 MiB flash (refused, with why, when
it is not CircuitPython for a plain Pico), and the CIRCUITPY drive built as a FAT12 volume holding what
`pegboard deploy --py` writes, read back by pyfatfs (an independent reader) and by mtools when installed.
The UF2s here are made by the tests from bytes: no official binary, no Node."""

from __future__ import annotations

import os
import shutil
import stat
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.deploy.errors import DeployError
from pegboard.deploy.plan import plan
from pegboard.sim.rp2040.drive_image import DriveError, build_drive, deploy_files, geometry, lfn_checksum, short_name
from pegboard.sim.rp2040.layout import FLASH_BASE, FLASH_SIZE, FS_OFFSET, FS_SIZE, NVM_OFFSET, NVM_SIZE
from pegboard.sim.rp2040.uf2 import Uf2Error, read_uf2
from pegboard.web.page import DRIVE_NAME, single_file

RP2040, RP2350 = 0xE48BFF56, 0xE48BFF59
BANNER = b"Adafruit CircuitPython %s on 2025-05-28; %s\x00"
PICO = b"Raspberry Pi Pico with rp2040"


# -- a tiny UF2 writer ---------------------------------------------------------------------------
def uf2_blocks(image: bytes, base: int = FLASH_BASE, family: int = RP2040, chunk: int = 256) -> list[bytearray]:
    """`image` as UF2 blocks of `chunk` bytes from address `base`, numbered 0..n-1."""
    parts = [image[i:i + chunk] for i in range(0, len(image), chunk)]
    out = []
    for n, part in enumerate(parts):
        block = bytearray(512)
        struct.pack_into("<8I", block, 0, 0x0A324655, 0x9E5D5157, 0x2000, base + n * chunk, len(part), n,
                         len(parts), family)
        block[32:32 + len(part)] = part
        struct.pack_into("<I", block, 508, 0x0AB16F30)
        out.append(block)
    return out


def firmware_bytes(version: bytes = b"9.2.8", board: bytes = PICO) -> bytes:
    """A made-up firmware whose banner straddles a block boundary (the reader must join blocks)."""
    return bytes(range(256)) * 2 + b"\x00" * 200 + BANNER % (version, board) + b"\x01\x02\x03"


def write(tmp_path: Path, blocks: list[bytearray], name: str = "fw.uf2") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(blocks))
    return path


# -- UF2 -----------------------------------------------------------------------------------------
def test_uf2_reads_into_the_flash_image(tmp_path: Path) -> None:
    fw = firmware_bytes()
    got = read_uf2(write(tmp_path, uf2_blocks(fw)))
    assert (got.version, got.board, got.end) == ("9.2.8", "Raspberry Pi Pico with rp2040", len(fw))
    assert len(got.image) == FLASH_SIZE
    assert got.image[:len(fw)] == fw
    assert set(got.image[len(fw):]) == {0xFF}  # erased where nothing was written


def test_uf2_at_an_offset_and_a_prerelease(tmp_path: Path) -> None:
    fw = firmware_bytes(b"10.3.0-alpha.4")
    got = read_uf2(write(tmp_path, uf2_blocks(fw, base=FLASH_BASE + 0x1000)))
    assert got.version == "10.3.0-alpha.4"
    assert got.end == 0x1000 + len(fw)
    assert set(got.image[:0x1000]) == {0xFF} and got.image[0x1000:got.end] == fw


def _bad_magic(b: list[bytearray]) -> list[bytearray]:
    b[1][0] ^= 1
    return b


def _bad_end_magic(b: list[bytearray]) -> list[bytearray]:
    b[2][511] ^= 1
    return b


def _missing(b: list[bytearray]) -> list[bytearray]:
    return b[:1] + b[2:]


def _twice(b: list[bytearray]) -> list[bytearray]:
    return b[:1] + [b[0]] + b[2:]


def _no_family(b: list[bytearray]) -> list[bytearray]:
    struct.pack_into("<I", b[0], 8, 0)
    return b


BAD = {
    "empty": (lambda b: [], r"is empty"),
    "truncated": (lambda b: b[:-1] + [b[-1][:300]], r"not a whole number of 512-byte UF2 blocks"),
    "bad magic": (_bad_magic, r"not a UF2 file: bad magic at block 1"),
    "bad end magic": (_bad_end_magic, r"not a UF2 file: bad magic at block 2"),
    "missing block": (_missing, r"truncated: 1 of its 4 blocks are missing \(the first: block 1\)"),
    "block twice": (_twice, r"block 1 is numbered 0 of 4 \(twice\)"),
    "no family": (_no_family, r"block 0 names no family"),
    "RP2350": (lambda b: uf2_blocks(firmware_bytes(), family=RP2350),
               r"is for RP2350-ARM-S \(0xE48BFF59\), not the RP2040 RP2040 \(0xE48BFF56\)"),
    "below the flash": (lambda b: uf2_blocks(firmware_bytes(), base=0x0FFFFF00), r"block 0 writes 0x0FFFFF00"),
    "past the flash": (lambda b: uf2_blocks(firmware_bytes(), base=FLASH_BASE + FLASH_SIZE - 256),
                       r"block 1 writes 0x10200000\.\.0x10200100, outside the flash"),
    "into the drive": (lambda b: uf2_blocks(firmware_bytes(), base=FLASH_BASE + FS_OFFSET - 512),
                       r"into the CIRCUITPY drive \(from 0x100000\)"),
    "into the NVM": (lambda b: uf2_blocks(firmware_bytes(), base=FLASH_BASE + NVM_OFFSET - 512),
                     r"into microcontroller.nvm \(0x0FF000\.\.0x100000\)"),
    "not CircuitPython": (lambda b: uf2_blocks(bytes(range(256)) * 4), r"is not CircuitPython"),
    "another board": (lambda b: uf2_blocks(firmware_bytes(board=b"Adafruit Feather RP2040 with rp2040")),
                      r'CircuitPython 9.2.8 for "Adafruit Feather RP2040 with rp2040": not supported'),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_uf2_refusals_name_the_file_and_the_fault(tmp_path: Path, case: str) -> None:
    spoil, message = BAD[case]
    path = write(tmp_path, spoil(uf2_blocks(firmware_bytes())))
    with pytest.raises(Uf2Error, match=message) as e:
        read_uf2(path)
    assert str(e.value).startswith(str(path))
    assert isinstance(e.value, ValueError)


def test_the_good_firmware_of_the_refusals_reads(tmp_path: Path) -> None:
    """The refusals above spoil this one; unspoilt, it has four blocks and reads."""
    blocks = uf2_blocks(firmware_bytes())
    assert len(blocks) == 4
    assert read_uf2(write(tmp_path, blocks)).version == "9.2.8"


# -- the layout ----------------------------------------------------------------------------------
def test_layout_is_circuitpythons_for_a_2mb_pico() -> None:
    # ports/raspberrypi/mpconfigport.h: firmware 1020K, then 4K of NVM, then the drive to the end
    assert (NVM_OFFSET, NVM_SIZE, FS_OFFSET, FS_SIZE, FLASH_SIZE) == (0xFF000, 4096, 0x100000, 0x100000, 0x200000)


# -- the drive -----------------------------------------------------------------------------------
BIG = bytes((i * 7 + i // 251) & 0xFF for i in range(100 * 1024 + 17))  # ~100 KB, no repeating 512-byte block
SAMPLE = [
    ("boot.py", b"print('boot')\n"),
    ("code.py", b"import pegfw.app\n"),
    ("pegfw/board_requests.py", b"# board\n" * 100),
    ("pegfw/board_replies.py", b"# a second BOARD_~ name\n"),
    ("pegfw/app.py", b"x = 1\n"),
    ("pegcore/t5_hints.bin", BIG),
    ("pegcore/empty.bin", b""),
    ("pegcore/a very long name, with spaces and more than 26 characters.txt", b"long\n"),
    ("pegcore/thirteen12.py", b"13 characters: one long-name entry, no terminator\n"),
    ("lib/deep/er/neopixel.py", b"# nested\n"),
    ("README.TXT", b"an 8.3 name in capitals needs no long name\n"),
    ("settings.toml", b'PEGBOARD_ROWS = 5\n'),
]


def pyfatfs_read(path: Path) -> tuple[dict[str, bytes], str]:
    """Every file and the label, as pyfatfs (an independent FAT implementation) reads them."""
    from pyfatfs.PyFatFS import PyFatFS  # type: ignore[import-untyped]

    fat = PyFatFS(str(path), read_only=True)
    try:
        files = {p.lstrip("/"): fat.readbytes(p) for p in fat.walk.files()}
        return files, fat.fs.bpb_header["BS_VolLab"].decode("ascii").rstrip()
    finally:
        fat.close()


def test_drive_reads_back_in_pyfatfs(tmp_path: Path) -> None:
    image = build_drive(SAMPLE)
    assert len(image) == FS_SIZE
    (tmp_path / "drive.img").write_bytes(image)
    files, label = pyfatfs_read(tmp_path / "drive.img")
    assert files == dict(SAMPLE)
    assert label == "CIRCUITPY"


def read_drive(image: bytes, tmp_path: Path) -> dict[str, bytes]:
    """Every file of a drive image, as pyfatfs reads them."""
    (tmp_path / "drive.img").write_bytes(image)
    return pyfatfs_read(tmp_path / "drive.img")[0]


def test_drive_reads_back_in_mtools(tmp_path: Path) -> None:
    if shutil.which("mdir") is None or shutil.which("mcopy") is None:
        pytest.skip("mtools is not installed (apt-get install mtools): pyfatfs alone checked the image")
    img = tmp_path / "drive.img"
    img.write_bytes(build_drive(SAMPLE, label="PEGDRIVE"))
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    listing = subprocess.run(["mdir", "-/", "-b", "-i", str(img), "::"], capture_output=True, text=True, env=env,
                             check=True).stdout.splitlines()
    assert {line[3:] for line in listing if not line.endswith("/")} == {p for p, _ in SAMPLE}
    for path, data in SAMPLE:
        got = subprocess.run(["mcopy", "-n", "-i", str(img), "::" + path, "-"], capture_output=True, env=env,
                             check=True).stdout
        assert got == data, path
    label = subprocess.run(["mlabel", "-s", "-i", str(img), "::"], capture_output=True, text=True, env=env,
                           check=True).stdout
    assert "PEGDRIVE" in label


def test_drive_passes_fsck_fat(tmp_path: Path) -> None:
    """dosfstools' checker looks where the readers do not: "." and "..", lost clusters, chain lengths."""
    fsck = shutil.which("fsck.fat") or shutil.which("fsck.vfat")
    if fsck is None:
        pytest.skip("dosfstools is not installed (apt-get install dosfstools): no fsck.fat check")
    img = tmp_path / "drive.img"
    img.write_bytes(build_drive(SAMPLE))
    p = subprocess.run([fsck, "-n", str(img)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    # the label and 5 folders (pegfw pegcore lib lib/deep lib/deep/er) count as files, each folder one cluster
    clusters = sum(-(-len(data) // 512) for _, data in SAMPLE) + 5
    assert "%d files, %d/2008 clusters" % (len(SAMPLE) + 6, clusters) in p.stdout


def test_drive_is_formatted_as_circuitpython_formats_it() -> None:
    """lib/oofatfs/ff.c f_mkfs for 1 MiB: FAT12, 1 FAT of 7 sectors, 512 root entries, clusters of one
    sector, the volume one block into CircuitPython's disk (its fake MBR is block 0)."""
    image = build_drive([])
    bps, per, reserved, nfats, nroot, total, media, fatsz, _, _, hidden, _ = struct.unpack_from(
        "<HBHBHHBHHHII", image, 11)
    assert (bps, per, reserved, nfats, nroot, total, media, fatsz, hidden) == (512, 1, 1, 1, 512, 2048, 0xF8, 7, 1)
    assert image[510:512] == b"\x55\xaa" and image[0] == 0xEB
    assert image[43:54] == b"CIRCUITPY  " and image[54:62] == b"FAT12   "
    root = 8 * 512
    assert image[root:root + 11] == b"CIRCUITPY  " and image[root + 11] == 0x08  # the label entry f_setlabel makes
    assert image[512:515] == b"\xf8\xff\xff"  # FAT entries 0 and 1
    assert geometry().clusters == 2008


def test_short_names_and_their_long_name_checksum() -> None:
    taken: set[bytes] = set()
    first = short_name("board_requests.py", taken)
    taken.add(first[0])
    assert first == (b"BOARD_~1PY ", True)
    assert short_name("board_replies.py", taken) == (b"BOARD_~2PY ", True)
    assert short_name("boot.py", set()) == (b"BOOT    PY ", True)  # lower case: a long name keeps it
    assert short_name("BOOT.PY", set()) == (b"BOOT    PY ", False)
    assert short_name("t5_hints.bin", set()) == (b"T5_HINTSBIN", True)
    assert short_name(".Trashes", set()) == (b"TRASHE~1   ", True)
    # the long-name checksum: rotate right, add each byte (the FAT specification's worked rule)
    s = 0
    for b in b"BOARD_~1PY ":
        s = ((s >> 1) | (s << 7)) + b & 0xFF
    assert lfn_checksum(b"BOARD_~1PY ") == s


def test_a_full_drive_is_refused_with_the_sizes(tmp_path: Path) -> None:
    clusters = geometry().clusters
    fits = build_drive([("big.bin", b"\x00" * clusters * 512)])  # every cluster: it fits exactly
    assert len(read_drive(fits, tmp_path)["big.bin"]) == clusters * 512
    with pytest.raises(DriveError, match=r"need 1004 KiB .*2009 clusters.* holds 1004 KiB \(2008 clusters\)"):
        build_drive([("big.bin", b"\x00" * (clusters * 512 + 1))])


def test_the_root_folder_limit_is_refused(tmp_path: Path) -> None:
    # 8.3 names in capitals take one entry each; the label takes one of the 512
    assert len(read_drive(build_drive([("F%03d.PY" % i, b"") for i in range(511)]), tmp_path)) == 511
    with pytest.raises(DriveError, match=r"root folder holds 512 entries and these files need 513"):
        build_drive([("F%03d.PY" % i, b"") for i in range(512)])
    with pytest.raises(DriveError, match=r"root folder holds 512 entries"):
        build_drive([("file%03d.py" % i, b"") for i in range(300)])  # each a long name: 2 entries


def test_a_folder_over_one_cluster(tmp_path: Path) -> None:
    """16 entries fill a cluster: "." and ".." and 14 files; the 15th file's entry starts a second cluster."""
    files = [("many/F%02d.BIN" % i, bytes([i]) * 600) for i in range(15)]
    assert read_drive(build_drive(files), tmp_path) == dict(files)


@pytest.mark.parametrize("files, message", [
    ([("a:b.py", b"")], r"FAT names cannot hold ':'"),
    ([("pegfw/../x.py", b"")], r"'\.' or '\.\.'"),
    ([("x.py", b""), ("X.PY", b"")], r"given twice"),
    ([("lib", b""), ("lib/neopixel.py", b"")], r"'lib' is a file, not a folder"),
    ([("name.", b"")], r"cannot end in a dot"),
])
def test_unnameable_files_are_refused(files: list[tuple[str, bytes]], message: str) -> None:
    with pytest.raises(DriveError, match=message):
        build_drive(files)


# -- what deploy writes --------------------------------------------------------------------------
def test_deploy_files_are_what_deploy_py_writes(tmp_path: Path) -> None:
    files = dict(deploy_files())
    for path in ("boot.py", "code.py", "pegfw/app.py", "pegcore/t5_hints.bin", "lib/neopixel.py", "settings.toml"):
        assert path in files
    assert {p: files[p] for _, p in plan()} == {p: src.read_bytes() for src, p in plan()}
    assert files[DRIVE_NAME] == single_file().encode("utf-8")
    settings = files["settings.toml"].decode()
    assert settings.startswith("# pegboard: added by `pegboard deploy` from firmware/settings.toml\n")
    assert 'PEGBOARD_SENSORS = "gpio"' in settings
    # and they fit the drive, read back whole by pyfatfs
    (tmp_path / "drive.img").write_bytes(build_drive(deploy_files()))
    assert pyfatfs_read(tmp_path / "drive.img")[0] == files


def test_deploy_files_take_a_settings_file(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('PEGBOARD_ROWS = 6\nPEGBOARD_SENSORS = "shift"\n')
    settings = dict(deploy_files(mine))["settings.toml"].decode()
    assert "PEGBOARD_ROWS = 6" in settings and "from %s" % mine in settings
    with pytest.raises(DeployError, match="not found"):
        deploy_files(tmp_path / "none.toml")


def test_deploy_files_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """compile=True: the firmware's modules as .mpy from the mpy-cross deploy would pick (here a stand-in
    that names itself CircuitPython's), boot.py, code.py and lib/ as they are."""
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!%s\nimport sys\nif sys.argv[1] == '--version':\n    print('CircuitPython 9.2.8 mpy-cross')\n"
                    "else:\n    a = sys.argv\n    open(a[a.index('-o') + 1], 'wb').write(b'C' + open(a[-1], 'rb')"
                    ".read()[:8])\n" % sys.executable)
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PEGBOARD_MPY_CROSS", str(fake))
    files = dict(deploy_files(compile=True, version="9.2.8"))
    assert files["pegfw/app.mpy"][:1] == b"C" and "pegfw/app.py" not in files
    assert "boot.py" in files and "lib/neopixel.py" in files and "pegcore/t5_hints.bin" in files
    with pytest.raises(DeployError, match="9.2.8's mpy-cross"):
        deploy_files(compile=True, version="10.0.0")


def test_a_pico_w_uf2_is_read_in_its_own_layout(tmp_path: Path) -> None:
    # the Pico W's CircuitPython is larger than the Pico's firmware area: it keeps 1536 KB, its NVM and
    # drive after that; the same bytes for a plain Pico are refused as running into its drive
    from pegboard.sim.rp2040.layout import LAYOUTS

    base = FLASH_BASE + 0x165600 - 1024
    w = read_uf2(write(tmp_path, uf2_blocks(firmware_bytes(board=b"Raspberry Pi Pico W with rp2040"), base=base)))
    assert w.board == "Raspberry Pi Pico W with rp2040" and w.layout is LAYOUTS[w.board]
    assert (w.layout.nvm_offset, w.layout.fs_offset, w.layout.fs_size) == (0x180000, 0x181000, 0x7F000)
    with pytest.raises(Uf2Error, match="into the CIRCUITPY drive"):
        read_uf2(write(tmp_path, uf2_blocks(firmware_bytes(), base=base)))
