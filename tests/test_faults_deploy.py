"""Faults in `pegboard deploy` a maker would meet, each held by what the maker sees (tests/mutants.py
found them surviving the deploy tests): a settings file given on the command line wins over the
drive's, mpy-cross's own words reach the maker when it refuses a module, and a file of an older
firmware that cannot be removed is named with the system's reason."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import pytest
from test_deploy import deploy, fresh_drive

from pegboard.deploy.errors import DeployError
from pegboard.deploy.mpycross import MpyCross, MpyCrossError, find
from pegboard.deploy.write import write_files

STANDIN = Path(__file__).resolve().parent / "mpy_cross_standin.py"


def test_a_settings_file_given_wins_over_the_drives_own(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    (d / "settings.toml").write_text("PEGBOARD_BRIGHTNESS = 70\n")
    mine = tmp_path / "mine.toml"
    mine.write_text("PEGBOARD_BRIGHTNESS = 55\n")
    code, out, _ = deploy(capsys, "--drive", str(d), "--settings", str(mine), "--no-restart", "--py")
    assert code == 0, out
    text = (d / "settings.toml").read_text()
    assert "PEGBOARD_BRIGHTNESS = 55" in text and "70" not in text


def test_mpy_crosss_own_reason_reaches_the_maker(tmp_path):
    tool = tmp_path / "mpy-cross"
    tool.write_text("#!%s\nimport runpy, sys\nsys.argv[0] = %r\nrunpy.run_path(%r, run_name='__main__')\n"
                    % (sys.executable, str(STANDIN), str(STANDIN)))
    tool.chmod(0o755)
    src = tmp_path / "bad.py"
    src.write_text("def broken(:\n")
    with pytest.raises(MpyCrossError) as e:
        MpyCross(str(tool), "9.2.1").compile(src, "pegfw/bad.py")
    assert "pegfw/bad.py" in str(e.value) and "SyntaxError: invalid syntax" in str(e.value)


def test_an_old_file_that_cannot_be_removed_is_named_with_the_systems_reason(tmp_path, monkeypatch):
    d = tmp_path / "CIRCUITPY"
    (d / "pegfw").mkdir(parents=True)
    (d / "pegfw" / "old.py").write_text("# an older firmware's\n")

    def refuse(self, missing_ok=False):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(DeployError) as e:
        write_files(d, [("pegfw/new.py", b"# new\n")], ["pegfw/old.py"])
    assert "old.py failed (Permission denied)" in str(e.value)
    assert (d / "pegfw" / "new.py").read_bytes() == b"# new\n"


def _tool(tmp_path, version_line: str, writes: bytes = b"C\x06\x01\x1f") -> Path:
    """A program answering `--version` with `version_line` and writing `writes` as its .mpy."""
    tool = tmp_path / "mpy-cross"
    tool.write_text("#!%s\nimport sys\nif sys.argv[1:] == ['--version']:\n    print(%r)\nelse:\n"
                    "    open(sys.argv[sys.argv.index('-o') + 1], 'wb').write(%r)\n"
                    % (sys.executable, version_line, writes))
    tool.chmod(0o755)
    return tool


def test_an_mpy_cross_of_the_boards_major_version_is_taken_and_its_file_kept(tmp_path):
    tool = _tool(tmp_path, "CircuitPython 9.2.8 on 2025-01-01; mpy-cross emitting mpy v6.1")
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    found = find(str(tool), "9.2.1")
    assert found.version == "9.2.8"
    assert found.compile(src, "pegfw/m.py") == b"C\x06\x01\x1f"


def test_an_mpy_cross_of_another_major_version_or_implementation_is_refused_by_name(tmp_path):
    with pytest.raises(MpyCrossError, match="CircuitPython 10.2.1's mpy-cross; the board runs CircuitPython 9.2.1"):
        find(str(_tool(tmp_path, "CircuitPython 10.2.1 on 2025-06-01; mpy-cross emitting mpy v6.3")), "9.2.1")
    with pytest.raises(MpyCrossError, match="MicroPython's mpy-cross"):
        find(str(_tool(tmp_path, "MicroPython v1.22.0 on 2024-01-01; mpy-cross emitting mpy v6.2")), "9.2.1")
    with pytest.raises(MpyCrossError, match="does not say which mpy-cross it is"):
        find(str(_tool(tmp_path, "mpy-cross, some build")), "9.2.1")


def test_an_mpy_cross_that_writes_micropythons_format_is_refused(tmp_path):
    tool = _tool(tmp_path, "CircuitPython 9.2.1 on 2025-01-01; mpy-cross emitting mpy v6.1", writes=b"M\x06\x00\x1f")
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    with pytest.raises(MpyCrossError, match="CircuitPython would refuse"):
        find(str(tool), "9.2.1").compile(src, "pegfw/m.py")


def test_an_mpy_cross_path_given_that_is_not_a_file_is_named(tmp_path):
    with pytest.raises(MpyCrossError, match="--mpy-cross %s: no such file" % (tmp_path / "nope")):
        find(str(tmp_path / "nope"), "9.2.1")
    with pytest.raises(MpyCrossError, match="no such file"):
        find(str(tmp_path), "9.2.1")  # a folder is no program either


def test_a_boot_out_txt_that_is_a_link_is_not_read_through(tmp_path):
    from pegboard.deploy.bootout import read_boot_out

    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n")
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").symlink_to(elsewhere)
    assert read_boot_out(d) is None
    (d / "boot_out.txt").unlink()
    (d / "boot_out.txt").write_text(elsewhere.read_text())
    assert read_boot_out(d).startswith("Adafruit CircuitPython 9.2.1")


def test_prepare_compiles_the_modules_unless_told_not_to(tmp_path):
    from pegboard.deploy.install import prepare

    tool = _tool(tmp_path, "CircuitPython 9.2.1 on 2025-01-01; mpy-cross emitting mpy v6.1")
    staged = prepare(fresh_drive(tmp_path), mpy_cross=str(tool))  # what `pegboard deploy` does by default
    names = [rel for rel, _ in staged.files]
    assert staged.report.compiled and "pegfw/app.mpy" in names and "pegfw/app.py" not in names
    staged = prepare(tmp_path / "CIRCUITPY", mpy_cross=str(tool), compile_modules=False)  # --py
    assert not staged.report.compiled and "pegfw/app.py" in [rel for rel, _ in staged.files]


def test_a_file_deeper_than_the_drives_folders_gets_its_folders_made(tmp_path):
    from pegboard.deploy.write import write_file

    d = fresh_drive(tmp_path)
    write_file(d, "lib/extra/more/deep.py", b"x = 1\n")
    assert (d / "lib" / "extra" / "more" / "deep.py").read_bytes() == b"x = 1\n"


@pytest.mark.skipif(sys.platform == "win32", reason="statvfs is POSIX's")
def test_the_drives_cluster_is_its_fragment_size_else_its_block_size(tmp_path, monkeypatch):
    import os

    from pegboard.deploy import space

    class Stat:
        f_frsize, f_bsize, f_blocks, f_bfree, f_bavail = 1024, 4096, 1000, 500, 500

    monkeypatch.setattr(os, "statvfs", lambda p: Stat())
    assert space.room(tmp_path).cluster == 1024  # what a file's size is rounded up to
    Stat.f_frsize = 0  # a file system that leaves it out
    assert space.room(tmp_path).cluster == 4096
