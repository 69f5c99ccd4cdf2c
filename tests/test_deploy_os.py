"""`pegboard deploy` on Windows, macOS and Linux (issue everyos): the CIRCUITPY drive found through
each system's own lookup (drive letters and volume labels, /Volumes, the mount table), fed here
with fakes so every branch runs on any machine; every file flushed to the device before its rename,
the folders after, and a pause before the board is told to reset; nothing POSIX-only imported at
module level."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from test_deploy import deploy

from pegboard.deploy import find, write
from pegboard.deploy import system as host_system

BOOT_OUT = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
            "Board ID:raspberry_pi_pico\nUID:E6616407E3646B2F\n")


def board_drive(where: Path, boot_out: bool = True) -> Path:
    """A folder as CircuitPython leaves a new drive (boot_out.txt unless told otherwise)."""
    where.mkdir(parents=True)
    if boot_out:
        (where / "boot_out.txt").write_text(BOOT_OUT)
    (where / "settings.toml").write_text("")
    return where


def one_line(text: str) -> str:
    return " ".join(text.split())


# -- Windows: drive letters, volume labels -------------------------------------------------------------

class FakeKernel32:
    """kernel32's GetLogicalDrives, GetDriveTypeW, GetVolumeInformationW and SetErrorMode over
    letters standing for folders: {letter: (drive type, volume label or None)}."""

    def __init__(self, drives: dict[str, tuple[int, str | None]], root_of) -> None:
        self.drives = drives
        self.letter_of = {root_of(letter): letter for letter in drives}
        self.labels_asked: list[str] = []
        self.error_modes: list[int] = []

    def GetLogicalDrives(self) -> int:
        return sum(1 << (ord(letter) - ord("A")) for letter in self.drives)

    def GetDriveTypeW(self, root: str) -> int:
        return self.drives[self.letter_of[root]][0]

    def GetVolumeInformationW(self, root: Any, buf: Any, size: int, *rest: Any) -> int:
        root = getattr(root, "value", root)  # a c_wchar_p from volume_label
        assert size == len(buf) and len(rest) == 5
        self.labels_asked.append(self.letter_of[root])
        label = self.drives[self.letter_of[root]][1]
        if label is None:
            return 0  # no disk in the drive
        buf.value = label
        return 1

    def SetErrorMode(self, mode: int) -> int:
        self.error_modes.append(mode)
        return 0


def windows_machine(tmp_path: Path) -> tuple[FakeKernel32, Any]:
    """C: the system disk, E: a board, F: labelled CIRCUITPY without boot_out.txt, G: a network
    drive labelled CIRCUITPY, A: a floppy drive without a disk: each letter a folder in tmp_path."""
    def root_of(letter: str) -> str:
        return str(tmp_path / letter)

    (tmp_path / "C").mkdir()
    board_drive(tmp_path / "E")
    board_drive(tmp_path / "F", boot_out=False)
    board_drive(tmp_path / "G")
    (tmp_path / "A").mkdir()
    k = FakeKernel32({"A": (find.DRIVE_REMOVABLE, None), "C": (find.DRIVE_FIXED, "Windows"),
                      "E": (find.DRIVE_REMOVABLE, "CIRCUITPY"), "F": (find.DRIVE_REMOVABLE, "CIRCUITPY"),
                      "G": (4, "CIRCUITPY")}, root_of)
    return k, root_of


def test_a_windows_drive_is_found_by_its_label_and_boot_out_txt(tmp_path):
    k, root_of = windows_machine(tmp_path)
    search = find.windows_roots(kernel32=k, root_of=root_of)
    assert search.named == [tmp_path / "E", tmp_path / "F"]
    assert k.labels_asked == ["A", "C", "E", "F"]  # never the network drive
    assert k.error_modes[0] & find.SEM_FAILCRITICALERRORS and k.error_modes[-1] == 0  # no "insert a disk" box
    assert "the drive letters labelled CIRCUITPY (A:\\, C:\\, E:\\, F:\\, G:\\)" in search.looked_at
    found = find.look_for_drives(search)
    assert found.drives == [tmp_path / "E"]
    assert [p for p, _ in found.refused] == [tmp_path / "F"] and "has no boot_out.txt" in found.refused[0][1]


def test_the_windows_label_reader_can_be_given():
    k = FakeKernel32({"D": (find.DRIVE_REMOVABLE, None), "E": (find.DRIVE_REMOVABLE, None)}, lambda x: x + ":\\")
    asked = []

    def label_of(root: str) -> str | None:
        asked.append(root)
        return "circuitpy" if root == "E:\\" else "DATA"

    assert find.windows_roots(kernel32=k, label_of=label_of).named == [Path("E:\\")]
    assert asked == ["D:\\", "E:\\"] and k.labels_asked == []


def test_pegboard_deploy_finds_the_windows_drive(capsys, tmp_path, monkeypatch):
    k, root_of = windows_machine(tmp_path)
    monkeypatch.setattr(host_system, "name", lambda: "win32")
    monkeypatch.setattr(find, "_kernel32", lambda: k)
    monkeypatch.setattr(find, "_letter_root", root_of)
    monkeypatch.delattr(os, "sync", raising=False)  # Windows has none
    folders_opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **kw: folders_opened.append(path) or real_open(path, *a, **kw))
    code, out, err = deploy(capsys, "--no-restart", "--py")
    assert code == 0, out + err
    assert "deploying to %s (CircuitPython 9.2.1)" % (tmp_path / "E") in out
    assert (tmp_path / "E" / "pegfw" / "app.py").exists() and not (tmp_path / "F" / "pegfw").exists()
    assert not [p for p in folders_opened if os.path.isdir(p)]  # no folder fsync where Windows forbids it


def test_a_drive_letter_alone_means_its_root_on_windows():
    assert host_system.drive_path("E:", system="win32") == Path("E:\\")
    assert host_system.drive_path("E:\\", system="win32") == Path("E:\\")
    assert host_system.drive_path("E:", system="linux") == Path("E:")


def test_nothing_found_on_windows_says_which_letters_and_how_to_give_one(capsys, tmp_path, monkeypatch):
    (tmp_path / "C").mkdir()
    k = FakeKernel32({"C": (find.DRIVE_FIXED, "Windows")}, lambda x: str(tmp_path / x))
    monkeypatch.setattr(host_system, "name", lambda: "win32")
    monkeypatch.setattr(find, "_kernel32", lambda: k)
    monkeypatch.setattr(find, "_letter_root", lambda x: str(tmp_path / x))
    code, out, err = deploy(capsys, "--no-restart", "--py")
    assert code == 1 and out == ""
    assert "no CIRCUITPY drive found" in err and "drive letters labelled CIRCUITPY (C:\\)" in err
    assert "pegboard deploy --drive E:\\" in err


# -- macOS: /Volumes ---------------------------------------------------------------------------------

def test_macos_volumes_with_a_second_board_as_circuitpy_1(capsys, tmp_path, monkeypatch):
    vol = tmp_path / "Volumes"
    board_drive(vol / "CIRCUITPY")
    board_drive(vol / "CIRCUITPY 1")
    board_drive(vol / "PEGBOARD")  # a renamed drive: known by its boot_out.txt
    (vol / "Macintosh HD").mkdir()
    found = find.look_for_drives(find.mac_roots(str(vol)))
    assert found.drives == [vol / "CIRCUITPY", vol / "CIRCUITPY 1", vol / "PEGBOARD"] and not found.refused
    monkeypatch.setattr(host_system, "name", lambda: "darwin")
    monkeypatch.setattr(find, "VOLUMES", str(vol))
    code, _, err = deploy(capsys, "--no-restart", "--py")
    assert code == 2 and "several CIRCUITPY drives" in err and str(vol / "CIRCUITPY 1") in err
    assert "--drive" in err
    code, out, err = deploy(capsys, "--drive", str(vol / "CIRCUITPY 1"), "--no-restart", "--py")
    assert code == 0, out + err
    assert (vol / "CIRCUITPY 1" / "pegfw" / "app.py").exists() and not (vol / "CIRCUITPY" / "pegfw").exists()


# -- Linux: the mount table --------------------------------------------------------------------------

def test_linux_mounts_are_read_from_the_mount_table(tmp_path):
    one = board_drive(tmp_path / "media" / "me" / "CIRCUITPY")
    two = board_drive(tmp_path / "run" / "media" / "me" / "CIRCUITPY 1")
    board_drive(tmp_path / "mnt" / "USBSTICK", boot_out=False)
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda2 / ext4 rw,relatime 0 0\n"
                      "proc /proc proc rw,nosuid 0 0\n"
                      "/dev/sdb1 %s vfat rw,nosuid,nodev,uid=1000 0 0\n"
                      "/dev/sdc1 %s vfat rw,nosuid,nodev 0 0\n"
                      "/dev/sdd1 %s vfat rw 0 0\n"
                      % (one, str(two).replace(" ", "\\040"), tmp_path / "mnt" / "USBSTICK"))
    search = find.linux_roots(mounts_files=[str(tmp_path / "no-such-table"), str(mounts)], globs=[])
    assert search.named == [one, two]
    assert search.looked_at == ["the mount points named CIRCUITPY* in %s" % mounts]
    assert find.look_for_drives(search).drives == [one, two]


def test_linux_keeps_the_usual_mount_folders_and_a_renamed_drive(tmp_path):
    board_drive(tmp_path / "media" / "me" / "PEGBOARD")  # renamed: known by its boot_out.txt
    (tmp_path / "media" / "me" / "PHOTOS").mkdir()
    pattern = str(tmp_path / "media" / "*" / "*")
    search = find.linux_roots(mounts_files=[str(tmp_path / "none")], globs=[pattern])
    assert search.looked_at == ["no mount table (%s could not be read)" % (tmp_path / "none"), pattern]
    assert find.look_for_drives(search).drives == [tmp_path / "media" / "me" / "PEGBOARD"]


def test_nothing_found_goes_to_stderr_naming_what_was_searched(capsys, tmp_path, monkeypatch):
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda2 / ext4 rw 0 0\n")
    monkeypatch.setattr(host_system, "name", lambda: "linux")
    monkeypatch.setattr(find, "MOUNTS_FILES", (str(mounts),))
    monkeypatch.setattr(find, "LINUX_GLOBS", (str(tmp_path / "media" / "*"),))
    code, out, err = deploy(capsys, "--no-restart", "--py")
    assert code == 1 and out == ""
    err = one_line(err)
    assert "no CIRCUITPY drive found" in err
    assert "the mount points named CIRCUITPY* in %s" % mounts in err and str(tmp_path / "media" / "*") in err
    assert "plug the board in" in err and "pegboard deploy --drive /media/$USER/CIRCUITPY" in err


def test_a_circuitpy_drive_without_boot_out_txt_is_refused_on_stderr(capsys, tmp_path, monkeypatch):
    bare = board_drive(tmp_path / "media" / "me" / "CIRCUITPY", boot_out=False)
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sdb1 %s vfat rw 0 0\n" % bare)
    monkeypatch.setattr(host_system, "name", lambda: "linux")
    monkeypatch.setattr(find, "MOUNTS_FILES", (str(mounts),))
    monkeypatch.setattr(find, "LINUX_GLOBS", ())
    code, out, err = deploy(capsys, "--no-restart", "--py")
    assert code == 1 and out == "", out
    err = one_line(err)
    assert "%s looks like a CIRCUITPY drive but is refused: %s has no boot_out.txt" % (bare, bare) in err
    assert "no CIRCUITPY drive CircuitPython wrote a boot_out.txt on" in err and "--drive" in err
    code, out, err = deploy(capsys, "--drive", str(bare), "--no-restart", "--py")  # given by hand
    err = one_line(err)
    assert code == 2 and "has no boot_out.txt" in err and "not a CIRCUITPY drive" in err
    assert "pegboard deploy --drive /media/$USER/CIRCUITPY" in err
    assert sorted(p.name for p in bare.iterdir()) == ["settings.toml"]  # nothing written


# -- flushed before the reset ------------------------------------------------------------------------

def _fd_path(fd: int) -> str:
    return os.path.realpath(os.readlink("/proc/self/fd/%d" % fd))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names open files through /proc")
@pytest.mark.parametrize("system", ["linux", "darwin"])
def test_every_file_is_on_the_device_before_its_rename_and_the_reset_comes_last(capsys, tmp_path, monkeypatch,
                                                                                  system):
    import fcntl
    import time

    import pegboard.commands.deploy as command

    d = board_drive(tmp_path / "CIRCUITPY")
    log: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(host_system, "name", lambda: system)
    monkeypatch.setattr(fcntl, "F_FULLFSYNC", 51, raising=False)  # macOS's value; Linux has none

    def fsync(fd: int) -> None:
        log.append(("fsync", _fd_path(fd)))
        real_fsync(fd)

    def fcntl_call(fd: int, cmd: int, *a: Any) -> Any:
        assert cmd == 51
        log.append(("fullfsync", _fd_path(fd)))
        return 0

    def replace(src: Any, dst: Any) -> None:
        log.append(("replace", os.path.realpath(src)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(fcntl, "fcntl", fcntl_call)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "sync", lambda: log.append(("sync", "")))
    monkeypatch.setattr(time, "sleep", lambda s: log.append(("sleep", str(s))))
    monkeypatch.setattr(command, "quiet", lambda port: log.append(("quiet", "")))
    monkeypatch.setattr(command, "restart", lambda port: log.append(("reset", "")))
    code, out, err = deploy(capsys, "--drive", str(d), "--py")
    assert code == 0, out + err
    flush = "fullfsync" if system == "darwin" else "fsync"
    other = "fsync" if system == "darwin" else "fullfsync"
    assert not [e for e in log if e[0] == other]  # macOS: F_FULLFSYNC for files and folders alike
    assert log[0] == ("quiet", "")
    replaces = [i for i, e in enumerate(log) if e[0] == "replace"]
    written = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert len(replaces) == len(written) and "settings.toml" in written
    for i in replaces:
        tmp = log[i][1]
        assert tmp.endswith(".tmp")
        assert (flush, tmp) in log[:i], "%s renamed before it was flushed" % tmp
    last_replace = replaces[-1]
    for folder in {os.path.realpath((d / rel).parent) for rel in written}:
        assert (flush, folder) in log[last_replace:], "%s not flushed after the renames" % folder
    last_flush = max(i for i, e in enumerate(log) if e[0] == flush)
    sleep = log.index(("sleep", str(write.SETTLE_SECONDS)))
    assert write.SETTLE_SECONDS >= 0.5  # the firmware resets 200 ms after `reset`: the FAT has time
    assert last_flush < log.index(("sync", "")) < sleep < log.index(("reset", "")) == len(log) - 1


def test_without_full_fsync_macos_falls_back_to_fsync(tmp_path, monkeypatch):
    import fcntl

    monkeypatch.setattr(host_system, "name", lambda: "darwin")
    monkeypatch.setattr(fcntl, "F_FULLFSYNC", 51, raising=False)

    def refuse(fd: int, cmd: int, *a: Any) -> Any:
        raise OSError(45, "Operation not supported")  # a file system without it

    monkeypatch.setattr(fcntl, "fcntl", refuse)
    synced = []
    monkeypatch.setattr(os, "fsync", synced.append)
    with open(tmp_path / "f", "wb") as f:
        write.flush_to_device(f.fileno())
        assert synced == [f.fileno()]
    monkeypatch.delattr(fcntl, "F_FULLFSYNC")
    with open(tmp_path / "g", "wb") as g:
        write.flush_to_device(g.fileno())
        assert len(synced) == 2 and synced[-1] == g.fileno()  # (the fd number may be f's again)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # no fcntl at all: `import fcntl` fails
    with open(tmp_path / "h", "wb") as h:
        write.flush_to_device(h.fileno())
        assert len(synced) == 3


def test_a_write_that_fails_says_what_to_do(capsys, tmp_path, monkeypatch):
    d = board_drive(tmp_path / "CIRCUITPY")

    def full(*a: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    code, _, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    err = one_line(err)
    assert code == 2 and "No space left on device" in err and "deploy again" in err


# -- imports on Windows --------------------------------------------------------------------------------

POSIX_ONLY = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "syslog", "crypt"}


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "host/pegboard/deploy").glob("*.py"))
                         + ["host/pegboard/commands/deploy.py"])
def test_no_posix_only_module_is_imported_at_module_level(path):
    tree = ast.parse((ROOT / path).read_text())
    names = set()
    for node in tree.body:  # module level only: a function may import fcntl where it is there
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    assert not names & POSIX_ONLY


def test_the_deploy_modules_import_and_flush_without_fcntl(tmp_path):
    code = ("import sys\n"
            "for name in %r: sys.modules[name] = None\n"
            "import pegboard.commands.deploy, pegboard.deploy.find, pegboard.deploy.install, pegboard.deploy.system as s\n"
            "import pegboard.deploy.write as d\n"
            "s.name = lambda: 'darwin'\n"
            "f = open(sys.argv[1], 'wb'); f.write(b'x'); f.flush(); d.flush_to_device(f.fileno()); f.close()\n"
            "print('ok')\n" % sorted(POSIX_ONLY - {"posix"}))
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path / "f")], capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "ok", p.stderr
