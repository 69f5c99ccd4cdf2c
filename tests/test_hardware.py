"""hardware/: board files that the firmware accepts and that play in the simulator, drawings that
match the geometry, and a power budget that matches the firmware's numbers."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pegboard.plate import plate_svg
from pegboard.sim import Simulator
from pegboard.sim.device.pinnames import BOARDS
from pegboard.sim.settings import read_settings
from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver
from pegfw import config
from pegfw.lights import MA_PER_CHANNEL

ROOT = Path(__file__).resolve().parent.parent
BOARD_FILES = sorted((ROOT / "hardware" / "boards").glob("*.toml"))
SVG = "{http://www.w3.org/2000/svg}"


def board_id(path):
    return "adafruit_feather_rp2040" if "feather" in path.name else "raspberry_pi_pico"


def test_default_settings_is_the_pico_board_file():
    assert (ROOT / "firmware" / "settings.toml").read_text() == (ROOT / "hardware/boards/pico-gpio.toml").read_text()


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_board_file_is_valid_and_uses_real_distinct_pins(path):
    s = read_settings(path)
    cfg = config.load(s.get)  # the firmware's own validation
    names = set(BOARDS[board_id(path)])
    used = cfg.sensor_pins + [cfg.pixel_pin, cfg.button_pin]
    if cfg.sensors == "shift":
        used += [cfg.sr_clock, cfg.sr_data, cfg.sr_latch]
    assert set(used) <= names, set(used) - names
    assert len(used) == len(set(used))
    documented = set(re.findall(r"`(PEGBOARD_[A-Z_]+)`", (ROOT / "docs/architecture.md").read_text()))
    documented |= {"PEGBOARD_SR_DATA", "PEGBOARD_SR_LATCH"}
    assert set(s) <= documented


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_board_file_plays_a_full_game_in_the_simulator(path):
    b = Board(5)
    with Simulator(settings=path, board=board_id(path)) as sim:
        from pegboard.client import Board as Client

        with Client(sim.data_path) as c:
            assert c.request("info")["sensors"] == read_settings(path)["PEGBOARD_SENSORS"]
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            for j in Solver(b).solution(start_mask(b, 1)):
                f, o, t = b.move_of(j)
                sim.control("lift", hole=f)
                sim.control("place", hole=t)
                sim.control("lift", hole=o)
                sim.control("wait_idle")  # a person's pace: the sensors see each move
            st = c.request("state")
            assert st["mode"] == "over" and len(st["pegs"]) == 1 and len(st["moves"]) == 13


def test_wrong_pin_name_gives_a_blink_code_not_a_crash(tmp_path):
    bad = tmp_path / "settings.toml"
    bad.write_text((ROOT / "hardware/boards/pico-gpio.toml").read_text().replace('"GP16"', '"GP99"'))
    with Simulator(settings=bad) as sim:
        import time

        time.sleep(1.0)
        st = sim.control("status")
        assert any("no pin GP99" in line for line in st["console"])
        assert st["running"]
        px = sim.control("pixels")
        assert px["frames"] == 0 or all(p[1] == 0 and p[2] == 0 for p in px["pixels"])


@pytest.mark.parametrize("rows", [4, 5, 6, 8])
def test_plate_has_exactly_the_geometrys_holes(rows):
    root = ET.fromstring(plate_svg(rows=rows, pitch=25))
    holes = [c for c in root.iter(SVG + "circle") if c.get("class") == "peg-hole"]
    b = Board(rows)
    assert sorted(int(c.get("data-hole")) for c in holes) == list(range(1, b.holes + 1))
    numbers = sorted(int(t.text) for t in root.iter(SVG + "text"))
    assert numbers == list(range(1, b.holes + 1))
    xs = {h: float(c.get("cx")) for h, c in ((int(c.get("data-hole")), c) for c in holes)}
    ys = {h: float(c.get("cy")) for h, c in ((int(c.get("data-hole")), c) for c in holes)}
    assert abs(xs[2] - xs[3] - -25) < 1e-6 or abs(xs[3] - xs[2] - 25) < 1e-6
    assert ys[1] < ys[2] == ys[3]
    # every hole lies inside the outline
    pts = [tuple(map(float, p.split(","))) for p in root.find(SVG + "polygon").get("points").split()]
    top, left, right = pts
    for h in xs:
        assert top[1] < ys[h] < left[1]


def test_preview_is_current():
    assert (ROOT / "hardware/plate-t5.svg").read_text() == plate_svg(5, 25)


@pytest.mark.parametrize("argv", [["--rows", "9"], ["--pitch", "2"], ["--margin", "1"], ["--rows", "x"]])
def test_plate_bad_options_exit_2(argv):
    p = subprocess.run([sys.executable, "-m", "pegboard", "hardware", "plate", *argv], capture_output=True, text=True)
    assert p.returncode == 2 and "error" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_wiring_diagrams_match_their_board_files(path):
    svg = (ROOT / "hardware" / ("wiring-%s.svg" % path.stem)).read_text()
    root = ET.fromstring(svg)
    s = read_settings(path)
    text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert str(s["PEGBOARD_PIXEL_PIN"]) in text and str(s["PEGBOARD_BUTTON_PIN"]) in text
    if s["PEGBOARD_SENSORS"] == "gpio":
        for pin in str(s["PEGBOARD_SENSOR_PINS"]).split(","):
            assert pin in text


def test_power_budget_in_the_docs_matches_the_firmware():
    doc = (ROOT / "hardware/README.md").read_text()
    settings = read_settings(ROOT / "firmware/settings.toml")
    cap = int(re.search(r"Default LED current cap: (\d+) mA", doc).group(1))
    assert cap == settings["PEGBOARD_CURRENT_MA"]
    n, per, total = map(int, re.search(r"Pixels at full white: (\d+) × (\d+) mA = (\d+) mA", doc).groups())
    assert per == 3 * MA_PER_CHANNEL and n == 15 and total == n * per
    parts = re.search(r"Total at the cap: (\d+) \+ (\d+) \+ (\d+) = (\d+) mA", doc).groups()
    a, mcu, idle, tot = map(int, parts)
    assert a == cap and a + mcu + idle == tot < 500


@pytest.mark.parametrize("runtime", ["cpython", "micropython", "chip"])
def test_damaged_hint_table_gives_its_blink_code_at_start_up(tmp_path, runtime):
    import shutil
    import time

    fw = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", fw, ignore=shutil.ignore_patterns("__pycache__"))
    table = fw / "pegcore" / "t5_hints.bin"
    table.write_bytes(table.read_bytes()[:100])  # truncated
    with Simulator(firmware=fw, runtime=runtime) as sim:
        deadline = time.time() + 10
        st = sim.control("status")
        while not any("hint table" in line for line in st["console"]) and time.time() < deadline:
            time.sleep(0.2)
            st = sim.control("status")
        assert any("hint table is truncated" in line for line in st["console"]), st["console"]
        assert not any("ready" in line for line in st["console"])
        assert st["running"]  # blinking, not crashed
