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
from pegboard.deploy.mpycross import MpyCross, MpyCrossError
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
