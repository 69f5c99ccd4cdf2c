"""`pegboard deploy` reads and checks everything before it writes the first byte (issue honest,
item 6): a settings.toml that is not UTF-8 (on the drive or given), an mpy-cross that fails on a
module, or a drive without room for the files stops it with exit 2 and the drive byte for byte
as it was, before the board is told to keep quiet. The room it asks for is what a FAT drive
takes: never less than CircuitPython's own format of the files needs, and a fresh Pico has it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_deploy import BOOT_OUT, deploy, fresh_drive

import pegboard.commands.deploy as command

LATIN1 = '# mine\nPEGBOARD_THEME = "café"\n'.encode("latin-1")  # as an old editor saves it: 0xe9 on line 2


def snapshot(d: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) on the drive."""
    return {p.relative_to(d).as_posix(): p.read_bytes() if p.is_file() else None for p in sorted(d.rglob("*"))}


def deployed_drive(capsys, tmp_path: Path) -> Path:
    """A drive an earlier deploy wrote, changed since: a deploy would replace pegfw/app.py, remove
    pegfw/gone.py and merge settings.toml, so a failed one must have done none of these."""
    d = fresh_drive(tmp_path)
    assert deploy(capsys, "--drive", str(d), "--no-restart", "--py")[0] == 0
    (d / "pegfw" / "app.py").write_text("# an older firmware's app\n")
    (d / "pegfw" / "gone.py").write_text("# an older firmware's module\n")
    with open(d / ".pegboard-files", "a") as f:  # as the older firmware's deploy listed it
        f.write("pegfw/gone.py\n")
    (d / "settings.toml").write_text("# mine\n")
    return d


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("where", ["on the drive", "given with --settings"])
def test_a_settings_file_that_is_not_utf8_stops_deploy_before_anything_is_written(capsys, tmp_path, monkeypatch,
                                                                                     where):
    d = deployed_drive(capsys, tmp_path)
    args = ["--drive", str(d), "--py", "--port", str(tmp_path / "no-such-port")]
    if where == "on the drive":
        (d / "settings.toml").write_bytes(LATIN1)
    else:
        (tmp_path / "mine.toml").write_bytes(LATIN1)
        args += ["--settings", str(tmp_path / "mine.toml")]
    asked = []
    monkeypatch.setattr(command, "quiet", asked.append)
    before = snapshot(d)
    code, out, err = deploy(capsys, *args)
    err = one_line(err)
    assert code == 2, out + err
    assert "is not UTF-8 text (byte 0xe9 on line 2)" in err and "save it as UTF-8" in err
    assert "Nothing on %s was changed" % d in err
    assert snapshot(d) == before
    assert asked == [] and "deploying" not in out  # the board was not told to keep quiet for nothing


def fake_mpy_cross(tmp_path: Path, fails_on: str = "") -> str:
    """A CircuitPython 9.2.1 mpy-cross that writes "C" and the source, and fails on `fails_on`."""
    exe = tmp_path / "mpy-cross"
    exe.write_text('#!/bin/sh\n'
                   'if [ "$1" = --version ]; then echo "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3"; '
                   'exit 0; fi\n'
                   '[ "$4" = "%s" ] && { echo "SyntaxError in $4" >&2; exit 1; }\n'  # -o OUT -s REL SRC
                   'printf C > "$2" && cat "$5" >> "$2"\n' % fails_on)
    exe.chmod(0o755)
    return str(exe)


def test_a_module_mpy_cross_fails_on_stops_deploy_before_anything_is_written(capsys, tmp_path):
    d = deployed_drive(capsys, tmp_path)
    before = snapshot(d)
    exe = fake_mpy_cross(tmp_path, fails_on="pegfw/startup.py")  # late in the copy: boot.py, pegcore/ come first
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", exe)
    err = one_line(err)
    assert code == 2 and "could not compile pegfw/startup.py" in err and "Nothing on %s was changed" % d in err
    assert snapshot(d) == before
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", fake_mpy_cross(tmp_path))
    assert code == 0 and "modules compiled to .mpy for CircuitPython 9.2.1" in out, out + err
    assert (d / "pegfw" / "app.mpy").read_bytes()[:1] == b"C" and not list((d / "pegfw").glob("*.py"))


def test_a_drive_too_small_is_refused_before_anything_is_written(capsys, tmp_path, monkeypatch):
    from pegboard.deploy import install, space

    d = deployed_drive(capsys, tmp_path)
    staged = install.prepare(d, compile_modules=False)
    need = space.needed(d, staged.files, space.room(d).cluster)
    real = shutil.disk_usage(d)
    free = {"bytes": need - 1}
    monkeypatch.setattr(shutil, "disk_usage", lambda p: real._replace(free=free["bytes"]))
    before = snapshot(d)
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    err = one_line(err)
    assert code == 2, out + err
    assert "has %d KB free and this deploy needs %d KB" % ((need - 1) // 1024, -(-need // 1024)) in err
    assert "make room on the drive" in err and "Nothing on %s was changed" % d in err
    assert snapshot(d) == before
    free["bytes"] = need  # exactly enough
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0 and "removed pegfw/gone.py" in out, out + err


# -- the room a deploy needs (pegboard.deploy.space) ------------------------------------------------

def test_a_replaced_file_needs_room_for_its_new_copy_while_the_old_one_is_there(tmp_path):
    from pegboard.deploy.space import needed

    (tmp_path / "big.bin").write_bytes(bytes(4096))  # 8 clusters of 512
    # the same size again: the new copy is written whole before the old one goes, in a folder
    # whose temporary name takes 2 entries of 32 bytes (1 cluster)
    assert needed(tmp_path, [("big.bin", bytes(4096))], 512) == (8 + 1) * 512
    # a new 513-byte file in a new folder: 2 clusters; the folder's ".", "..", the file's name and
    # its temporary name, 6 entries (1 cluster); the folder's name in the drive's root (1 cluster)
    assert needed(tmp_path, [("new/a.py", bytes(513))], 512) == (2 + 1 + 1) * 512
    # a file shrunk first frees 7 clusters the next one's 8 then take: 1 more at the peak, and the
    # root's 2 names (1 cluster); counting the growth alone would ask for 1 + 8 + 1
    assert needed(tmp_path, [("big.bin", b"x"), ("b.bin", bytes(4096))], 512) == (1 + 1) * 512


def _fat12_clusters_used(image: bytes) -> int:
    """Clusters a FAT12 volume of pegboard.sim.rp2040.drive_image has given out (FAT entries not 0)."""
    from pegboard.sim.rp2040.drive_image import RESERVED_SECTORS, geometry
    from pegboard.sim.rp2040.layout import SECTOR_SIZE

    geo = geometry()
    fat = image[RESERVED_SECTORS * SECTOR_SIZE:(RESERVED_SECTORS + geo.fat_sectors) * SECTOR_SIZE]
    used = 0
    for c in range(2, geo.clusters + 2):
        pair = int.from_bytes(fat[c * 3 // 2:c * 3 // 2 + 2], "little")
        used += (pair >> 4 if c & 1 else pair & 0xFFF) != 0
    return used


def test_the_room_asked_for_covers_circuitpythons_own_format_and_a_fresh_pico_has_it(tmp_path):
    from pegboard.deploy.space import needed
    from pegboard.sim.rp2040.drive_image import build_drive, deploy_files, geometry

    d = fresh_drive(tmp_path)
    there = [(p.name, p.read_bytes()) for p in sorted(d.iterdir())]  # boot_out.txt, code.py, settings.toml
    files = deploy_files()  # what `pegboard deploy --py` writes onto it
    boot_out = ("boot_out.txt", BOOT_OUT.format(v="9.2.1", board="raspberry_pi_pico").encode())
    before = _fat12_clusters_used(build_drive(there))
    after = _fat12_clusters_used(build_drive([boot_out] + files))
    need = needed(d, files, 512) // 512
    assert need >= after - before  # CircuitPython's 1 MiB drive (512-byte clusters) grows by this much
    assert need <= geometry().clusters - before  # and a fresh Pico's drive has the room


def test_on_windows_the_cluster_is_the_drives_own(tmp_path, monkeypatch):
    from pegboard.deploy import space
    from pegboard.deploy import system as host_system

    class Kernel32:  # GetDiskFreeSpaceW: sectors per cluster, bytes per sector, free and all clusters
        def __init__(self, ok: bool) -> None:
            self.ok, self.asked = ok, []

        def GetDiskFreeSpaceW(self, root, per, size, free, total) -> int:
            self.asked.append(root.value)
            per._obj.value, size._obj.value, free._obj.value, total._obj.value = 4, 512, 100, 2000
            return int(self.ok)

    k = Kernel32(ok=True)
    assert space._windows_cluster(tmp_path, k) == 2048 and k.asked and k.asked[0].endswith("\\")
    assert space._windows_cluster(tmp_path, Kernel32(ok=False)) is None
    monkeypatch.setattr(host_system, "name", lambda: "win32")  # no kernel32 here: CircuitPython's own cluster
    assert space.room(tmp_path).cluster == space.CIRCUITPY_CLUSTER == 512
