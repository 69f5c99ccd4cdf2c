"""`pegboard deploy` onto folders set up as CIRCUITPY drives: a fresh drive plays under the
simulator with no edits, a redeploy keeps the maker's settings and restarts the board, only the
chip's files are copied, and modules are compiled only by CircuitPython's own mpy-cross (the .mpy
path runs in every `make test` with a stand-in for it, tests/mpy_cross_standin.py; with the real one
when it is given)."""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from support import play_a_solution, state_when, until

from pegboard.commands.cli import main
from pegboard.deploy.bootout import drive_info, is_circuitpy
from pegboard.deploy.plan import chip_modules
from pegboard.deploy.settings_merge import merge_settings
from pegboard.sim.simulator import Simulator

BOOT_OUT = ("Adafruit CircuitPython {v} on 2024-11-20; Raspberry Pi Pico with rp2040\n"
            "Board ID:{board}\nUID:E6616407E3646B2F\n")


def fresh_drive(tmp_path: Path, version: str = "9.2.1", board: str = "raspberry_pi_pico",
                name: str = "CIRCUITPY") -> Path:
    """A folder as CircuitPython leaves a new drive: boot_out.txt and an empty settings.toml."""
    d = tmp_path / name
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT.format(v=version, board=board))
    (d / "settings.toml").write_text("")
    (d / "code.py").write_text('print("Hello World!")\n')
    return d


def deploy(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main(["deploy", *argv])
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_fresh_drive_plays_and_a_redeploy_keeps_settings_and_restarts(capsys, tmp_path):
    from pegboard.link.client import BoardClient

    d = fresh_drive(tmp_path)
    code, out, _ = deploy(capsys, "--drive", str(d), "--board", "pico", "--no-restart", "--py")
    assert code == 0, out
    assert "added PEGBOARD_ROWS" in out and "press its RESET button" in out
    with Simulator(firmware=d) as sim:
        with BoardClient(sim.data_path) as c:
            st = play_a_solution(sim, c)
            assert st["mode"] == "over" and len(st["pegs"]) == 1 and len(st["moves"]) == 13
            assert st["brightness"] == 40
        # the maker's own settings, then a second deploy while the board runs
        text = (d / "settings.toml").read_text().replace("PEGBOARD_BRIGHTNESS = 40", "PEGBOARD_BRIGHTNESS = 70")
        (d / "settings.toml").write_text(text + 'CIRCUITPY_WIFI_SSID = "home"\n[extra]\nx = 1\n')
        before = (d / "settings.toml").read_text()
        code, out, _ = deploy(capsys, "--drive", str(d), "--board", "pico", "--port", sim.data_path, "--py")
        assert code == 0 and "the board is restarting" in out, out
        assert (d / "settings.toml").read_text() == before  # nothing missing: not one byte changed
        until(lambda: sim.resets >= 1, 10, "the board to restart")
        assert sim.resets == 1
        with BoardClient(sim.data_path) as c:
            assert state_when(c)["brightness"] == 70  # the restarted board read them


def test_pegboard_sim_runs_a_deployed_drive(capsys, tmp_path):
    import signal
    import sys

    from pegboard.link.client import BoardClient

    d = fresh_drive(tmp_path)
    assert deploy(capsys, "--drive", str(d), "--board", "pico", "--no-restart", "--py")[0] == 0
    p = subprocess.Popen([sys.executable, "-m", "pegboard", "sim", "--firmware", str(d)], stdout=subprocess.PIPE,
                         text=True, env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)))  # announced to this test only
    try:
        line = p.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("data: "), line
        with BoardClient(line.split(": ", 1)[1].strip(), timeout=10) as c:
            assert c.request("info")["hint_table"] is True
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(10)


def test_a_board_that_cannot_be_reached_gets_a_plain_instruction(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    code, out, _ = deploy(capsys, "--drive", str(d), "--py", "--port", str(tmp_path / "no-such-port"))
    assert code == 0
    assert "could not restart the board" in out and "unplug and replug" in out


def test_only_the_chips_files_are_copied(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    (d / "pegfw").mkdir()
    (d / "pegfw" / "gone.py").write_text("# a module of an older firmware\n")
    (d / ".pegboard-files").write_text("pegfw/gone.py\n")  # the earlier deploy's list of what it wrote
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0
    on_drive = {p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file()}
    assert "lib/adafruit_pixelbuf.py" not in on_drive  # built into CircuitPython on RP2040
    assert "pegcore/symmetry.py" not in on_drive  # the host's table generator uses it, the chip never
    assert "pegfw/gone.py" not in on_drive and "removed pegfw/gone.py" in out
    fw = ROOT / "firmware"
    assert {p.relative_to(fw).as_posix() for p in (fw / "pegfw").glob("*.py")} <= on_drive
    assert {"pegfw.game_requests", "pegfw.board_requests", "pegfw.show_watch", "pegcore.solver", "pegcore.hintfile"} <= set(chip_modules())


def test_the_deployed_drive_answers_every_request_kind(capsys, tmp_path):
    # the on-demand modules (demo, watch, solve, info) load from what deploy copied
    from pegboard.link.client import BoardClient

    d = fresh_drive(tmp_path)
    assert deploy(capsys, "--drive", str(d), "--no-restart", "--py")[0] == 0
    with Simulator(firmware=d) as sim, BoardClient(sim.data_path) as c:
        sim.control("fill", empty=5)
        sim.control("wait_idle")
        assert c.request("info")["hint_table"] is True
        assert len(c.request("solve")["moves"]) == 13
        assert c.request("solve", finish=13)["moves"][-1][2] == 13  # the finish table is on the drive
        assert c.request("demo")["moves"]
        assert c.request("stop")["stopped"] == "demo"
        assert c.request("watch", speed=5)["speed"] == 5
        c.request("stop")
        assert c.request("selftest", seconds=1)["pixels"] == 15


def test_circuitpy_is_known_by_boot_out_txt_not_by_name(tmp_path):
    renamed = fresh_drive(tmp_path, name="PEGBOARD")
    assert is_circuitpy(renamed)
    fake = tmp_path / "CIRCUITPY"
    fake.mkdir()
    (fake / "boot_out.txt").write_text("made by hand\n")
    assert not is_circuitpy(fake)
    assert drive_info(renamed).version == "9.2.1" and drive_info(renamed).board_id == "raspberry_pi_pico"


def test_board_choice(capsys, tmp_path):
    d = fresh_drive(tmp_path, board="adafruit_feather_rp2040")
    assert deploy(capsys, "--drive", str(d), "--no-restart", "--py")[0] == 0
    assert '"D4,' in (d / "settings.toml").read_text()  # from boot_out.txt's board id
    code, _, err = deploy(capsys, "--drive", str(d), "--board", "nano", "--no-restart", "--py")
    assert code == 2 and "pico-gpio" in err and "shift-74hc165" in err


def test_merge_adds_only_whats_missing_where_circuitpython_reads_it():
    board = (ROOT / "hardware/boards/pico-gpio.toml").read_text()
    empty = merge_settings("", board, False, "pico")
    assert len(empty.added) == 11 and "PEGBOARD_SENSOR_PINS" in empty.text
    mine = '# my wifi\nCIRCUITPY_WIFI_SSID = "home"\nPEGBOARD_SENSORS = "shift"\nPEGBOARD_PIXEL_PIN = "GP22"\n\n[web]\na = 1\n'
    m = merge_settings(mine, board, False, "pico")
    assert m.text.startswith('# my wifi\nCIRCUITPY_WIFI_SSID = "home"\nPEGBOARD_SENSORS = "shift"\n'
                             'PEGBOARD_PIXEL_PIN = "GP22"\n')
    assert m.text.index("PEGBOARD_ROWS") < m.text.index("[web]")  # top level: os.getenv sees it
    assert m.text.endswith("[web]\na = 1\n")
    assert "PEGBOARD_SENSOR_PINS" not in m.added  # a shift-register board has no use for it
    assert m.kept == ["PEGBOARD_SENSORS", "PEGBOARD_PIXEL_PIN"]
    assert merge_settings(m.text, board, False, "pico").text == m.text  # a second deploy changes nothing
    forced = merge_settings(mine, board, True, "pico")
    assert 'PEGBOARD_PIXEL_PIN = "GP16"' in forced.text and 'CIRCUITPY_WIFI_SSID = "home"' in forced.text


def _fake_mpy_cross(tmp_path: Path, banner: str) -> str:
    exe = tmp_path / "mpy-cross"
    exe.write_text("#!/bin/sh\necho '%s'\n" % banner)
    exe.chmod(0o755)
    return str(exe)


def test_micropythons_mpy_cross_is_refused(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    mp = _fake_mpy_cross(tmp_path, "MicroPython v1.22.0 on 2023-12-27; mpy-cross emitting mpy v6.2")
    code, _, err = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", mp)
    assert code == 2 and "MicroPython's mpy-cross" in err
    assert not (d / "pegfw").exists()  # refused before anything was written


def test_another_major_versions_mpy_cross_is_refused(capsys, tmp_path):
    d = fresh_drive(tmp_path, version="10.1.4")
    cp = _fake_mpy_cross(tmp_path, "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3")
    code, _, err = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", cp)
    assert code == 2 and "runs CircuitPython 10.1.4" in err


# -- which CircuitPython the drive runs (pegboard.deploy.circuitpython) ---------------------------------

def _nothing_written(d: Path) -> bool:
    return not (d / "pegfw").exists() and not (d / "lib").exists() and (d / "settings.toml").read_text() == ""


@pytest.mark.parametrize("version, why", [
    ("9.0.5", "older than the firmware supports"),  # keypad.Keys has no debounce_threshold before 9.1.0
    ("8.2.10", "older than the firmware supports"),
    ("11.0.0", "newer version than the firmware was tested with"),
    ("10.3.0-alpha.4", "newer version than the firmware was tested with"),
])
def test_a_circuitpython_the_firmware_does_not_support_is_refused_naming_it(capsys, tmp_path, version, why):
    d = fresh_drive(tmp_path, version=version)
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 2, out + err
    assert "CircuitPython %s" % version in err and why in err
    assert "9.2.1 to 10.2.1 (run on the emulated chip: 9.2.1, 9.2.8, 10.2.1)" in err  # the supported range
    assert _nothing_written(d) and "deploying" not in out  # refused before the board was asked anything


def test_a_newer_major_version_deploys_when_asked_and_an_older_one_never(capsys, tmp_path):
    d = fresh_drive(tmp_path, version="11.0.0-alpha.1")
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py", "--any-version")
    assert code == 0 and "CircuitPython 11.0.0-alpha.1" in out, out + err
    assert (d / "pegfw" / "app.py").exists()
    old = fresh_drive(tmp_path, version="9.0.0", name="OLD")
    code, _, err = deploy(capsys, "--drive", str(old), "--no-restart", "--py", "--any-version")
    assert code == 2 and "CircuitPython 9.0.0" in err and _nothing_written(old)


@pytest.mark.parametrize("version", ["9.2.1", "9.2.9", "10.0.3", "10.2.1"])
def test_every_supported_version_deploys(capsys, tmp_path, version):
    d = fresh_drive(tmp_path, version=version)
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0, out + err
    assert "deploying to %s (CircuitPython %s)" % (d, version) in out and (d / "pegfw" / "app.py").exists()


def test_a_missing_or_unreadable_or_versionless_boot_out_txt_is_named(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    (d / "boot_out.txt").unlink()
    code, _, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 2 and "has no boot_out.txt" in err and _nothing_written(d)
    (d / "boot_out.txt").mkdir()  # there, but not a file that can be read
    code, _, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 2 and "cannot read" in err and "boot_out.txt" in err and _nothing_written(d)
    (d / "boot_out.txt").rmdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython on 2024-11-20; Raspberry Pi Pico with rp2040\n")
    code, _, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 2 and "names no CircuitPython version" in err and _nothing_written(d)


def test_deploy_help_names_the_supported_versions_and_any_version(capsys):
    with pytest.raises(SystemExit):
        main(["deploy", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--any-version" in out and "9.2.1 to 10.2.1" in out


def test_without_mpy_cross_the_modules_go_as_source_and_it_says_why(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("PEGBOARD_MPY_CROSS", raising=False)
    d = fresh_drive(tmp_path)
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart")
    assert code == 0 and "copied as .py source: no CircuitPython mpy-cross found" in out
    assert (d / "pegfw/app.py").exists()


def circuitpython_mpy_cross() -> str | None:
    """A CircuitPython mpy-cross: $PEGBOARD_MPY_CROSS or `mpy-cross` on PATH, if it is CircuitPython's."""
    exe = os.environ.get("PEGBOARD_MPY_CROSS") or shutil.which("mpy-cross")
    if not exe:
        return None
    p = subprocess.run([exe, "--version"], capture_output=True, text=True)
    return exe if p.stdout.startswith("CircuitPython") else None


def test_with_circuitpythons_mpy_cross_the_modules_are_mpy(capsys, tmp_path):
    exe = circuitpython_mpy_cross()
    if exe is None:
        pytest.skip("no CircuitPython mpy-cross (set PEGBOARD_MPY_CROSS or put it on PATH); MicroPython's will not do")
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.split()[1]
    d = fresh_drive(tmp_path, version=version)
    (d / "pegfw").mkdir()
    (d / "pegfw" / "app.py").write_text("# an older deploy's source, which would shadow app.mpy\n")
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", exe)
    assert code == 0 and "compiled to .mpy" in out
    assert not list((d / "pegfw").glob("*.py")) and not list((d / "pegcore").glob("*.py"))
    for mpy in list((d / "pegfw").glob("*.mpy")) + list((d / "pegcore").glob("*.mpy")):
        assert mpy.read_bytes()[:1] == b"C", mpy  # CircuitPython's format
    assert (d / "code.py").read_text() == (ROOT / "firmware/code.py").read_text()  # code.py stays source
    from pegboard.sim.errors import SimError

    with pytest.raises(SimError, match="deploy it with --py"):
        Simulator(firmware=d)


# -- the .mpy path with a stand-in mpy-cross (tests/mpy_cross_standin.py), in every `make test` ------------

STANDIN = Path(__file__).resolve().parent / "mpy_cross_standin.py"
posix_only = pytest.mark.skipif(os.name != "posix", reason="the stand-in is run through a #!/bin/sh wrapper")


def standin_mpy_cross(tmp_path: Path, version: str = "9.2.1") -> str:
    """The stand-in as a program deploy runs by its path, answering as CircuitPython `version`'s mpy-cross."""
    exe = tmp_path / "standin" / "mpy-cross"
    exe.parent.mkdir()
    exe.write_text('#!/bin/sh\nPEGBOARD_STANDIN_VERSION=%s exec %s %s "$@"\n'
                   % (version, shlex.quote(sys.executable), shlex.quote(str(STANDIN))))
    exe.chmod(0o755)
    return str(exe)


def mpy_source_name(data: bytes) -> str:
    """The source name a .mpy holds: its first qstr, after the 4-byte header and the two counts."""
    at = 4
    for _ in range(3):  # the qstr count, the object count, the first qstr's length (times 2)
        n = 0
        while True:
            n = n << 7 | data[at] & 0x7F
            at += 1
            if not data[at - 1] & 0x80:
                break
    return data[at:at + (n >> 1)].decode()


@posix_only
def test_the_mpy_path_compiles_every_chip_module_under_its_drive_name(capsys, tmp_path, monkeypatch):
    from pegboard.deploy.plan import PACKAGES, plan

    monkeypatch.setenv("PEGBOARD_MPY_CROSS", standin_mpy_cross(tmp_path))
    d = fresh_drive(tmp_path, version="9.2.1")
    (d / "pegfw").mkdir()
    (d / "pegfw" / "app.py").write_text("# an older deploy's source, which would shadow app.mpy\n")
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart")
    assert code == 0, out + err
    assert "modules compiled to .mpy for CircuitPython 9.2.1" in out and "removed pegfw/app.py" in out
    fw = ROOT / "firmware"
    modules = [rel for _, rel in plan() if rel.split("/")[0] in PACKAGES and rel.endswith(".py")]
    assert "pegfw/app.py" in modules and "pegcore/solver.py" in modules
    for rel in modules:  # each module compiled from its own source, named as the drive has it
        data = (d / (rel[:-3] + ".mpy")).read_bytes()
        assert data[:4] == b"C\x06\x01\x1f", rel  # CircuitPython 9's .mpy: 'C', v6.1, bytecode, 31-bit small ints
        assert mpy_source_name(data) == rel and data[-32:] == hashlib.sha256((fw / rel).read_bytes()).digest(), rel
        assert not (d / rel).exists(), rel
    on_drive = sorted(p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file())
    assert sorted(p for p in on_drive if p.endswith(".mpy")) == sorted(rel[:-3] + ".mpy" for rel in modules)
    for rel in ("code.py", "boot.py"):  # the files CircuitPython runs stay source
        assert (d / rel).read_bytes() == (fw / rel).read_bytes()
    assert (d / "lib" / "neopixel.py").exists()
    from pegboard.sim.errors import SimError

    with pytest.raises(SimError, match="deploy it with --py"):
        Simulator(firmware=d)


@posix_only
def test_circuitpython_10_gets_its_own_mpy_format(capsys, tmp_path):
    d = fresh_drive(tmp_path, version="10.2.1")
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", standin_mpy_cross(tmp_path, "10.2.1"))
    assert code == 0 and "modules compiled to .mpy for CircuitPython 10.2.1" in out, out + err
    assert (d / "pegfw" / "app.mpy").read_bytes()[:4] == b"C\x06\x03\x1f"  # mpy v6.3


def _with_a_broken_module(monkeypatch, tmp_path: Path) -> None:
    """deploy's plan with a module mpy-cross cannot compile (a syntax error on its line 2), after boot.py
    and code.py and before the firmware's modules."""
    from pegboard.deploy import plan, stage

    bad = tmp_path / "broken.py"
    bad.write_text("x = 1\ndef (:\n")
    files = plan.plan()
    monkeypatch.setattr(stage, "plan", lambda: files[:2] + [(bad, "pegfw/broken.py")] + files[2:])


@posix_only
def test_a_module_mpy_cross_cannot_compile_stops_the_deploy_naming_it(capsys, tmp_path, monkeypatch):
    _with_a_broken_module(monkeypatch, tmp_path)
    d = fresh_drive(tmp_path)
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", standin_mpy_cross(tmp_path))
    assert code == 2, out + err
    assert err.startswith("pegboard: error: mpy-cross could not compile pegfw/broken.py: ")
    assert 'File "pegfw/broken.py", line 2' in err and "SyntaxError: invalid syntax" in err
    assert not list(d.rglob("broken.*"))
    assert "files written" not in out


@posix_only
def test_a_module_mpy_cross_cannot_compile_leaves_the_drive_as_it_was(capsys, tmp_path, monkeypatch):
    d = fresh_drive(tmp_path)
    before = {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*") if p.is_file()}
    _with_a_broken_module(monkeypatch, tmp_path)
    assert deploy(capsys, "--drive", str(d), "--no-restart", "--mpy-cross", standin_mpy_cross(tmp_path))[0] == 2
    after = {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*") if p.is_file()}
    assert after == before


def _run(exe: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def _mpy_crosses():
    """The stand-in, and a real CircuitPython mpy-cross when one is given: both must answer alike."""
    real = circuitpython_mpy_cross()
    return ["stand-in"] + ([pytest.param(real, id="real")] if real else [])


@posix_only
@pytest.mark.parametrize("which", _mpy_crosses())
def test_the_stand_in_answers_as_mpy_cross_does(tmp_path, which):
    exe = standin_mpy_cross(tmp_path) if which == "stand-in" else which
    version = _run(exe, "--version", cwd=tmp_path).stdout
    assert re.match(r"CircuitPython \d+\.\d+\.\d+\S* on \S+; mpy-cross emitting mpy v6\.\d$", version.strip()), version
    (tmp_path / "good.py").write_text("def f(x):\n    return x + 1\n")
    p = _run(exe, "good.py", cwd=tmp_path)  # the output's default name: .py -> .mpy beside it
    assert p.returncode == 0 and p.stdout == p.stderr == ""
    data = (tmp_path / "good.mpy").read_bytes()
    assert data[:2] == b"C\x06" and data[2] & 3 == int(version.split("mpy v6.")[1][0]) and data[3] == 31
    (tmp_path / "out").mkdir()
    p = _run(exe, "-o", str(tmp_path / "out" / "x.mpy"), "-s", "pegfw/good.py", "good.py", cwd=tmp_path)
    assert p.returncode == 0 and mpy_source_name((tmp_path / "out" / "x.mpy").read_bytes()) == "pegfw/good.py"
    (tmp_path / "bad.py").write_text("x = 1\ndef (:\n")
    p = _run(exe, "-o", str(tmp_path / "bad.mpy"), "-s", "pegfw/bad.py", "bad.py", cwd=tmp_path)
    assert p.returncode == 1 and not (tmp_path / "bad.mpy").exists()
    assert p.stderr == 'Traceback (most recent call last):\n  File "pegfw/bad.py", line 2\nSyntaxError: invalid syntax\n'
    p = _run(exe, cwd=tmp_path)
    assert p.returncode == 1 and p.stderr == "no input file\n"
    p = _run(exe, "--no-such-option", "good.py", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout.startswith("usage: ")
