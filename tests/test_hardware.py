"""hardware/: board files that the firmware accepts and that play in the simulator, drawings that
match the geometry, and a power budget that matches the firmware's numbers."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from support import console_line, play_a_solution, red_blink

from pegboard.hardware.plate import plate_svg
from pegboard.sim.simulator import Simulator
from pegboard.sim.device.pinnames import BOARDS
from pegboard.sim.settings import read_settings
from pegcore.geometry import Board
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
    with Simulator(settings=path, board=board_id(path)) as sim:
        from pegboard.link.client import BoardClient

        with BoardClient(sim.data_path) as c:
            assert c.request("info")["sensors"] == read_settings(path)["PEGBOARD_SENSORS"]
            st = play_a_solution(sim, c)
            assert st["mode"] == "over" and len(st["pegs"]) == 1 and len(st["moves"]) == 13


def test_wrong_pin_name_gives_a_blink_code_not_a_crash(tmp_path):
    bad = tmp_path / "settings.toml"
    bad.write_text((ROOT / "hardware/boards/pico-gpio.toml").read_text().replace('"GP16"', '"GP99"'))
    with Simulator(settings=bad) as sim:
        console_line(sim, "no pin GP99")
        # the pixel pin named does not exist: the code blinks on the default pixel pin, GP16
        px = red_blink(sim)
        assert all(p[1] == 0 and p[2] == 0 for p in px), px  # red or dark: nothing but the code
        assert sim.control("status")["running"]


@pytest.mark.parametrize("rows", [4, 5, 6, 8])
def test_plate_has_exactly_the_geometrys_holes(rows):
    root = ET.fromstring(plate_svg(rows=rows, pitch=25))
    top = next(g for g in root.iter(SVG + "g") if g.get("data-layer") == "top")
    holes = [c for c in top.iter(SVG + "circle") if c.get("class") == "bore"]
    b = Board(rows)
    assert sorted(int(c.get("data-hole")) for c in holes) == list(range(1, b.holes + 1))
    numbers = sorted(int(t.text) for t in top.iter(SVG + "text") if t.get("class") == "number")
    assert numbers == list(range(1, b.holes + 1))
    xs = {h: float(c.get("cx")) for h, c in ((int(c.get("data-hole")), c) for c in holes)}
    ys = {h: float(c.get("cy")) for h, c in ((int(c.get("data-hole")), c) for c in holes)}
    assert abs(xs[2] - xs[3] - -25) < 1e-6 or abs(xs[3] - xs[2] - 25) < 1e-6
    assert ys[1] < ys[2] == ys[3]
    # every hole lies inside the outline
    pts = [tuple(map(float, p.split(","))) for p in top.find(SVG + "polygon").get("points").split()]
    top_corner, left, right = pts
    for h in xs:
        assert top_corner[1] < ys[h] < left[1]


def test_preview_is_current():
    from pegboard.hardware import pcb

    assert (ROOT / "hardware/plate-t5.svg").read_text() == plate_svg(5, 25, screws=pcb.plate_screws())


@pytest.mark.parametrize("argv", [["--rows", "9"], ["--pitch", "2"], ["--margin", "1"], ["--rows", "x"]])
def test_plate_bad_options_exit_2(argv):
    p = subprocess.run([sys.executable, "-m", "pegboard", "hardware", "plate", *argv], capture_output=True, text=True)
    assert p.returncode == 2 and "error" in p.stderr and "Traceback" not in p.stderr


def _schematic_pins(path):
    """(part, pin label, number, net) of every pin drawn in hardware/schematic-NAME.svg."""
    root = ET.fromstring((ROOT / "hardware" / ("schematic-%s.svg" % path.stem)).read_text())
    return [(t.get("data-part"), t.get("data-pin"), t.get("data-number"), t.get("data-net"))
            for t in root.iter(SVG + "text") if t.get("class") == "pin"]


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_schematics_are_current(path):
    from pegboard.commands.hardware import schematic_of

    assert (ROOT / "hardware" / ("schematic-%s.svg" % path.stem)).read_text() == schematic_of(
        "hardware/boards/%s" % path.name)


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_schematic_wires_what_the_board_file_and_the_parts_need(path):
    from pegboard.hardware.boards import HC165_PINS, PICO_GROUNDS, PICO_PINS, SHIFT_WIRING

    pins = _schematic_pins(path)
    net = {(part, label): n for part, label, _, n in pins}
    number = {(part, label): num for part, label, num, _ in pins}
    s = read_settings(path)
    pico = "feather" not in path.name

    def mcu(name):  # the net of a microcontroller pin, checked against its physical number
        if pico:
            assert number[("U1", name)] == str(PICO_PINS[name]), name
        return net[("U1", name)]

    if pico:
        # USB's VBUS feeds the load switch, whose output is the pixels' 5 V (tests/test_hardware_power.py
        # has the supply's own checks)
        assert net[("U1", "VBUS")] == "VBUS" and number[("U1", "VBUS")] == "40"
        assert net[("U1", "3V3")] == "3V3" and number[("U1", "3V3")] == "36"
        assert sorted(int(num) for part, label, num, n in pins if part == "U1" and label == "GND") == \
            sorted(PICO_GROUNDS)
    # level shifter: enabled, 5 V, fed by the pixel pin, out through 470 ohm to pixel 1
    assert net[("U2", "1OE")] == "GND" and number[("U2", "1OE")] == "1"
    assert net[("U2", "VCC")] == "5V" and number[("U2", "VCC")] == "14"
    assert net[("U2", "1A")] == mcu(str(s["PEGBOARD_PIXEL_PIN"]))
    assert net[("U2", "1Y")] == net[("R1", "1")] and net[("R1", "2")] == net[("D1", "DIN")]
    for h in range(1, 15):
        assert net[("D%d" % h, "DOUT")] == net[("D%d" % (h + 1), "DIN")]
        assert net[("D%d" % h, "VDD")] == "5V" and net[("D%d" % h, "VSS")] == "GND"
    assert {net[("C1", "+")], net[("C1", "-")]} == {"5V", "GND"}
    # decoupling: a 0.1 uF capacitor across the supply of every sensor and chip
    chips = ["U2"] + (["U3", "U4"] if s["PEGBOARD_SENSORS"] == "shift" else [])
    for part in ["S%d" % h for h in range(1, 16)] + chips:
        cap = "C" + part
        assert {net[(cap, "1")], net[(cap, "2")]} == {net[(part, "VCC")], "GND"}, part
    assert net[("SW1", "1")] == mcu(str(s["PEGBOARD_BUTTON_PIN"])) and net[("SW1", "2")] == "GND"
    # every hole's sensor reaches the input the firmware reads for that hole
    if s["PEGBOARD_SENSORS"] == "gpio":
        for h, pin in enumerate(str(s["PEGBOARD_SENSOR_PINS"]).split(","), 1):
            assert net[("S%d" % h, "OUT")] == mcu(pin)
    else:
        assert net[("U3", "QH")] == mcu(str(s["PEGBOARD_SR_DATA"]))
        assert net[("U4", "QH")] == net[("U3", "SER")]  # chip 2 shifts into chip 1
        assert net[("U4", "SER")] in ("GND", "3V3")  # the chain's end is tied to a level
        for chip in ("U3", "U4"):
            assert net[(chip, "CLK INH")] == "GND" and number[(chip, "CLK INH")] == "15"
            assert net[(chip, "VCC")] == "3V3"  # at 3.3 V: QH into the RP2040 stays at 3.3 V
            assert net[(chip, "CLK")] == mcu(str(s["PEGBOARD_SR_CLOCK"]))
            assert net[(chip, "SH/LD")] == mcu(str(s["PEGBOARD_SR_LATCH"]))
            for letter in "ABCDEFGH":  # no input left floating
                assert net[(chip, letter)] != "NC" and number[(chip, letter)] == str(HC165_PINS[letter])
        for h, (chip, letter) in enumerate(SHIFT_WIRING, 1):
            assert net[("S%d" % h, "OUT")] == net[("U%d" % (chip + 2), letter)]


def test_readme_pin_tables_match_the_board_files():
    from pegboard.hardware.boards import PICO_PINS

    doc = (ROOT / "hardware/README.md").read_text()
    s = read_settings(ROOT / "hardware/boards/pico-gpio.toml")
    pins = str(s["PEGBOARD_SENSOR_PINS"]).split(",")
    assert "| sensor pin | %s |" % " | ".join(pins) in doc
    assert "| Pico pin | %s |" % " | ".join(str(PICO_PINS[p]) for p in pins) in doc
    f = read_settings(ROOT / "hardware/boards/feather-rp2040-gpio.toml")
    assert "| sensor pin | %s |" % " | ".join(str(f["PEGBOARD_SENSOR_PINS"]).split(",")) in doc


def test_bom_total_is_the_sum_of_its_lines():
    from pegboard.hardware import bom

    lines = bom.read()
    base = bom.totals(lines, 15, bom.BUILD)
    assert base["pcs"] == sum(x.qty(15) for x in lines if x.unit == "pcs" and x.option in ("",) + bom.BUILD)
    doc = (ROOT / "hardware/README.md").read_text()
    assert bom.totals_text(lines, 15) in doc  # the README's totals are the file's (no prices: none checked)
    assert "USD" not in doc and "35 USD" not in (ROOT / "README.md").read_text()
    assert any("DRV5032" in x.part for x in lines)
    # a 0.1 uF at every sensor and at the level shifter
    assert sum(x.qty(15) for x in lines if "0.1 uF" in x.part and not x.option) >= 16


@pytest.mark.parametrize("what, needle", [("bom", "total for 15 holes"), ("section", "<svg"), ("box", "<svg"),
                                          ("schematic", "74AHCT125")])
def test_hardware_commands(what, needle):
    argv = [what] + (["hardware/boards/pico-gpio.toml"] if what == "schematic" else [])
    p = subprocess.run([sys.executable, "-m", "pegboard", "hardware", *argv], capture_output=True, text=True,
                       cwd=ROOT)
    assert p.returncode == 0 and needle in p.stdout, p.stderr


def test_drawings_are_current_and_the_section_stops_the_peg():
    from pegboard.hardware import plate
    from pegboard.hardware.box import RINGS, RING_T, box_svg
    from pegboard.hardware.hole_section import hole_section_svg
    from pegboard.hardware.stack import MAGNET, PEG_D, magnet_to_sensor

    assert (ROOT / "hardware/hole-section.svg").read_text() == hole_section_svg()
    assert (ROOT / "hardware/box-t5.svg").read_text() == box_svg()
    # the peg alone would fall through the stop disc's layer: the disc, as wide as the bore, holds it
    assert PEG_D < plate.HOLE_D < plate.BORE_D and MAGNET.d_out <= PEG_D
    assert plate.DISC_T < plate.LAYERS[-1].thickness
    doc = (ROOT / "hardware/README.md").read_text()
    assert "Magnet to Hall element: %.2f mm" % magnet_to_sensor() in doc
    root = ET.fromstring(box_svg())
    layers = [g for g in root.iter(SVG + "g") if g.get("class") == "layer"]
    assert [g.get("data-layer") for g in layers] == ["bottom"] + ["ring-%d" % n for n in range(1, RINGS + 1)]
    notched = [p for p in root.iter(SVG + "polygon") if p.get("data-notch-width")]
    assert len(notched) == 4  # USB and button, two rings each
    for ring in notched:
        pts = [tuple(map(float, xy.split(","))) for xy in ring.get("points").split()]
        gap = ((pts[0][0] - pts[4][0]) ** 2 + (pts[0][1] - pts[4][1]) ** 2) ** 0.5
        assert abs(gap - float(ring.get("data-notch-width"))) < 0.01  # the opening is as wide as said
        assert float(ring.get("data-notch-height")) == 2 * RING_T  # two rings high


def test_power_budget_in_the_docs_matches_the_firmware():
    doc = (ROOT / "hardware/README.md").read_text()
    settings = read_settings(ROOT / "firmware/settings.toml")
    cap = int(re.search(r"Default LED current cap: (\d+) mA", doc).group(1))
    assert cap == settings["PEGBOARD_CURRENT_MA"]
    n, per, total = map(int, re.search(r"Pixels at full white: (\d+) × (\d+) mA = (\d+) mA", doc).groups())
    assert per == 3 * MA_PER_CHANNEL and n == 15 and total == n * per
    flat = " ".join(doc.split())
    parts = re.search(r"Total at the default cap: (\d+) \+ (\d+) \+ (\d+) \+ (\d+) \+ (\d+) = (\d+) mA", flat).groups()
    a, mcu, idle, shifter, pullups, tot = map(int, parts)
    assert a == cap and a + mcu + idle + shifter + pullups == tot < 500  # tests/test_hardware_power.py: 100 mA host


@pytest.mark.parametrize("runtime", ["cpython", "micropython", "chip"])
def test_damaged_hint_table_gives_its_blink_code_at_start_up(tmp_path, runtime):
    import shutil

    fw = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", fw, ignore=shutil.ignore_patterns("__pycache__"))
    table = fw / "pegcore" / "t5_hints.bin"
    table.write_bytes(table.read_bytes()[:100])  # truncated
    with Simulator(firmware=fw, runtime=runtime) as sim:
        console = console_line(sim, "hint table is truncated")
        assert not any("ready" in line for line in console)
        red_blink(sim)
        assert sim.control("status")["running"]  # blinking, not crashed
