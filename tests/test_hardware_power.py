"""Power, as hardware/README.md and the schematics give it: what USB and CircuitPython allow, the
bulk capacitor behind a soft start, an external supply that cannot feed the USB host, every pin
numbered (per package where packages differ), and the current limiter on every frame the firmware
sends, the blink codes and the first light included."""

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from support import console_line, red_blink

from pegboard.hardware import boards
from pegboard.hardware.schematic import DESCRIPTION_CHARS, SUPPLIES, build
from pegboard.sim.simulator import Simulator
from pegboard.sim.settings import read_settings
from pegfw import colors, config
from pegfw.lights import (CURRENT_MA_DEFAULT, CURRENT_MA_MAX, CURRENT_MA_MIN, MA_PER_CHANNEL, Limiter,
                          budget_before_settings, estimate_ma)
from pegfw.startup import ErrorBlink

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "hardware/README.md").read_text(encoding="utf-8")
BOARD_FILES = sorted((ROOT / "hardware" / "boards").glob("*.toml"))
SVG = "{http://www.w3.org/2000/svg}"
STRICT_MA = 50  # hardware/README.md, "Power budget": the LED budget for a host that gives 100 mA


def section(title):
    """The text of hardware/README.md's section `title` (a heading line), up to the next heading of
    its level or above."""
    start = DOC.index(title + "\n")
    level = title.split()[0]
    rest = DOC[start + len(title):]
    ends = [m.start() for m in re.finditer(r"^#{1,%d} " % len(level), rest, re.M)]
    return DOC[start:start + len(title) + (ends[0] if ends else len(rest))]


BUDGET = section("## Power budget")
CHAIN = section("### Power and the LED chain (every option)")


def svg_name(path, supply):
    return "schematic-%s%s.svg" % (path.stem, "" if supply == "usb" else "-external")


def svg_pins(name):
    """Every pin drawn in hardware/NAME: its data- attributes."""
    root = ET.fromstring((ROOT / "hardware" / name).read_text(encoding="utf-8"))
    return [{k[5:]: v for k, v in t.attrib.items() if k.startswith("data-")}
            for t in root.iter(SVG + "text") if t.get("class") == "pin"]


def netlist(path, supply):
    return build(read_settings(path), "t", "feather" not in path.name, supply)


def uf(description):
    return float(re.match(r"([\d.]+) uF", description).group(1))


# -- what USB gives, and what the docs say of it ---------------------------------------------------

def test_the_docs_state_what_circuitpython_asks_usb_for():
    assert boards.CIRCUITPYTHON_MAX_POWER_MA == 100  # bMaxPower 0x32, in units of 2 mA
    assert "`bMaxPower` is `0x32`, in units of 2 mA" in " ".join(BUDGET.split())
    assert "supervisor/shared/usb/usb_desc.c" in BUDGET
    assert "CircuitPython asks for 100 mA" in BUDGET
    flat = " ".join(DOC.split())
    assert "USB 2.0 gives 500 mA" not in flat and "under USB's 500 mA" not in flat
    assert "never 500 mA" in " ".join(BUDGET.split())
    top = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "CircuitPython asks the host for 100 mA" in top and "`PEGBOARD_CURRENT_MA = 50`" in top


def _rest_of_board():
    """The budget's microcontroller, dark pixels, level shifter and sensor pull-ups, as the docs
    give them."""
    flat = " ".join(BUDGET.split())
    mcu = int(re.search(r"microcontroller (\d+) mA", flat).group(1))
    n, dark, idle = map(int, re.search(r"pixels dark (\d+) × (\d+) mA = (\d+) mA", flat).groups())
    shifter = int(re.search(r"level shifter (\d+) mA", flat).group(1))
    assert n * dark == idle
    # the open-drain sensors' pull-ups (10 k on the 74HC165 option), every hole full
    pullups = int(re.search(r"sensor pull-ups (\d+) mA", flat).group(1))
    assert "3.3 V / 10 kΩ" in flat and pullups >= n * 3.3 / 10
    return mcu, idle, shifter, pullups


def test_the_strict_host_budget_adds_up_to_at_most_100_ma():
    mcu, idle, shifter, pullups = _rest_of_board()
    flat = " ".join(BUDGET.split())
    a, b, c, d, e, total = map(int, re.search(
        r"Total on a strict host: (\d+) \+ (\d+) \+ (\d+) \+ (\d+) \+ (\d+) = (\d+) mA", flat).groups())
    assert (a, b, c, d, e) == (STRICT_MA, mcu, idle, shifter, pullups) and a + b + c + d + e == total
    assert total <= boards.CIRCUITPYTHON_MAX_POWER_MA
    assert STRICT_MA == CURRENT_MA_MIN  # the lowest budget the firmware accepts
    assert "`PEGBOARD_CURRENT_MA = 50`" in flat
    # the default budget's total is for a host that gives 500 mA
    a, b, c, d, e, total = map(int, re.search(
        r"Total at the default cap: (\d+) \+ (\d+) \+ (\d+) \+ (\d+) \+ (\d+) = (\d+) mA", flat).groups())
    assert a == CURRENT_MA_DEFAULT == read_settings(ROOT / "firmware/settings.toml")["PEGBOARD_CURRENT_MA"]
    assert (b, c, d, e) == (mcu, idle, shifter, pullups) and a + b + c + d + e == total < 500


# -- the limiter at 50 mA: the worst frames, and the board's look as the docs give it --------------

@pytest.mark.parametrize("holes", [10, 15, 21, 28])
@pytest.mark.parametrize("brightness", [1, 40, 100])
def test_at_the_strict_budget_no_frame_goes_over_it(holes, brightness):
    limiter = Limiter(STRICT_MA, brightness)
    palette = [getattr(colors, n) for n in dir(colors) if n.isupper() and isinstance(getattr(colors, n), int)]
    frames = [[0xFFFFFF] * holes, [colors.ERROR] * holes, [colors.PEG] * holes]
    frames += [[c] * holes for c in palette]
    rnd = random.Random(holes * 100 + brightness)
    frames += [[rnd.randrange(1 << 24) for _ in range(holes)] for _ in range(200)]
    frames += [[rnd.choice(palette) for _ in range(holes)] for _ in range(200)]
    for frame in frames:
        assert estimate_ma(limiter.limit(frame)) <= STRICT_MA, frame


def test_the_board_at_50_ma_looks_as_the_docs_say():
    flat = " ".join(BUDGET.split())
    steps = STRICT_MA * 255 // MA_PER_CHANNEL
    assert "50 mA is %d channel steps in all (50 × 255 / 20)" % steps in flat
    limiter = Limiter(STRICT_MA, 40)
    usual = Limiter(CURRENT_MA_DEFAULT, 40)
    start = [colors.PEG] * 14 + [colors.EMPTY]
    unlimited = estimate_ma(usual.limit(start))
    limited = limiter.limit(start)
    total = sum(colors.channel_sum(c) for c in usual.limit(start))
    assert ("would draw %d mA at 40 %%; limited it draws %d mA: the limiter scales it by %d/%d (%d %%), so "
            "each peg shows 0x%06X instead of 0x%06X" % (unlimited, estimate_ma(limited), steps, total,
                                                         round(100 * steps / total), limited[0],
                                                         usual.limit(start)[0])) in flat
    assert "falls to %d step of 255" % colors.channel_sum(limited[-1]) in flat
    one = colors.channel_sum(colors.scale(colors.PEG, 40, 100))
    assert "%d pegs at their usual light fit in it (%.1f mA each at 40 %%)" % (
        steps // one, one * MA_PER_CHANNEL / 255) in flat
    white = Limiter(STRICT_MA, 100).limit([0xFFFFFF] * 15)
    assert "is cut to %d mA (0x%06X each)" % (estimate_ma(white), white[0]) in flat
    blink = Limiter(STRICT_MA).limit(ErrorBlink(15, 3, 0).frame(0, None))
    from_hw = [0x0C0818] * 15  # hardware.FIRST_LIGHT (checked against the module below)
    first = Limiter(STRICT_MA).limit(from_hw)
    assert ("A blink code (full red) shows at 0x%06X on every pixel, %d mA; the first light (dim violet, "
            "%d mA unlimited) at 0x%06X, %d mA" % (blink[0], estimate_ma(blink), estimate_ma(from_hw), first[0],
                                                  estimate_ma(first))) in flat
    blink28 = Limiter(STRICT_MA).limit(ErrorBlink(28, 3, 0).frame(0, None))
    first28 = Limiter(STRICT_MA).limit([0x0C0818] * 28)
    assert "blink %d mA, first light %d mA" % (estimate_ma(blink28), estimate_ma(first28)) in flat


# -- bulk capacitance on VBUS, and the soft start ----------------------------------------------------

@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_usb_alone_puts_at_most_10_uf_on_vbus_and_the_bulk_capacitor_behind_the_soft_start(path):
    s = netlist(path, "usb")
    on_vbus = {p.part for p in s.pins if p.net == "VBUS"}
    assert on_vbus == {"U1", "U5", "C2"}  # the socket, the load switch, its input capacitor: nothing else
    caps = [ref for ref in on_vbus if ref.startswith("C")]
    assert sum(uf(s.parts[ref]) for ref in caps) <= boards.USB_ATTACH_MAX_UF
    assert uf(s.parts["C2"]) == boards.VBUS_CIN_UF
    # the load switch: VIN and ON on VBUS, VOUT the pixels' 5 V, CT to its capacitor
    assert s.parts["U5"].startswith("TPS22918")
    for label, net in (("VIN", "VBUS"), ("ON", "VBUS"), ("VOUT", "5V"), ("GND", "GND"), ("CT", "CT")):
        assert s.net_of("U5", label) == net
    assert {s.net_of("C3", "1"), s.net_of("C3", "2")} == {"CT", "GND"}
    # the bulk capacitor, the pixels and the level shifter are on the switched 5 V, and nothing of
    # the microcontroller is
    assert {s.net_of("C1", "+"), s.net_of("C1", "-")} == {"5V", "GND"}
    assert uf(s.parts["C1"]) == boards.BULK_USB_UF
    assert s.net_of("U2", "VCC") == "5V" and s.net_of("D1", "VDD") == "5V"
    assert not [p for p in s.pins if p.part == "U1" and p.net == "5V"]
    # every board file's schematic on disk is this netlist drawn
    drawn = {(p["part"], p["pin"], p["number"], p["net"]) for p in svg_pins(svg_name(path, "usb"))}
    assert drawn == {(p.part, p.label, p.number, p.net) for p in s.pins}


def test_the_soft_start_figures_agree_with_the_parts():
    flat = " ".join(BUDGET.split())
    tr = boards.soft_start_ms()
    assert tr == boards.BULK_USB_UF * boards.VBUS_V / boards.SOFT_START_MA  # µF × V / mA = ms
    assert "tR ≥ %g µF × %g V / %d mA = %g ms" % (boards.BULK_USB_UF, boards.VBUS_V, boards.SOFT_START_MA, tr) in flat
    assert "C2 (the data sheet's \"Input Capacitor (CIN)\"): %g µF of the %g µF" % (
        boards.VBUS_CIN_UF, boards.USB_ATTACH_MAX_UF) in flat
    mcu, idle, shifter, pullups = _rest_of_board()
    total = boards.SOFT_START_MA + mcu + idle + shifter + pullups
    assert "While C1 charges the board draws %d + %d + %d + %d + %d = %d mA at most" % (
        boards.SOFT_START_MA, mcu, idle, shifter, pullups, total) in flat
    assert total <= boards.CIRCUITPYTHON_MAX_POWER_MA
    s = netlist(BOARD_FILES[0], "usb")
    assert "%d ms" % round(tr) in s.parts["C3"]


# -- the external supply cannot feed the USB host ------------------------------------------------------

@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_the_external_supply_schematic_exists_and_never_reaches_vbus(path):
    from pegboard.commands.hardware import schematic_of

    name = svg_name(path, "external")
    assert (ROOT / "hardware" / name).read_text(encoding="utf-8") == schematic_of(
        "hardware/boards/%s" % path.name, "external")
    assert "(%s)" % name in DOC  # linked from the README
    s = netlist(path, "external")
    pico = "feather" not in path.name
    vbus = "VBUS" if pico else "USB"
    assert s.net_of("U1", vbus) == "NC"  # USB's 5 V pin: left unconnected
    assert not [p for p in s.pins if p.net == "VBUS"] and "U5" not in s.parts
    five = {(p.part, p.label) for p in s.pins if p.net == "5V"}
    assert not [x for x in five if x[0] == "U1"]  # the supply meets no microcontroller pin directly
    assert ("J1", "+5V") in five and ("C1", "+") in five and uf(s.parts["C1"]) == boards.BULK_EXTERNAL_UF
    if pico:
        # through the Schottky diode only, anode on the supply, cathode on VSYS (Pico data sheet,
        # "Powering Pico")
        assert ("DX1", "A") in five and s.net_of("DX1", "K") == "VSYS"
        assert {(p.part, p.label) for p in s.pins if p.net == "VSYS"} == {("U1", "VSYS"), ("DX1", "K")}
        assert s.net_of("U1", "VSYS") == "VSYS" and dict((p.label, p.number) for p in s.pins if p.part == "U1")[
            "VSYS"] == str(boards.PICO_PINS["VSYS"])
    else:
        assert "DX1" not in s.parts  # the Feather stays on USB; the supply powers the pixels only
    drawn = {(p["part"], p["pin"], p["number"], p["net"]) for p in svg_pins(name)}
    assert drawn == {(p.part, p.label, p.number, p.net) for p in s.pins}


def test_a_supply_the_schematic_does_not_know_is_refused():
    with pytest.raises(ValueError):
        build(read_settings(BOARD_FILES[0]), "t", True, "battery")
    assert SUPPLIES == ("usb", "external")


# -- every pin numbered, and the tables agree with the schematics -------------------------------------

def all_svgs():
    return sorted(p.name for p in (ROOT / "hardware").glob("schematic-*.svg"))


def test_every_board_file_has_both_schematics_and_no_other_is_there():
    assert all_svgs() == sorted(svg_name(p, s) for p in BOARD_FILES for s in SUPPLIES)


@pytest.mark.parametrize("name", all_svgs())
def test_every_pin_in_every_schematic_has_its_number(name):
    text = (ROOT / "hardware" / name).read_text(encoding="utf-8")
    assert 'data-number=""' not in text
    pins = svg_pins(name)
    assert pins and all(p.get("number") for p in pins)
    pico = "feather" not in name
    grounds = set()
    for p in pins:
        part, label, number = p["part"], p["pin"], p["number"]
        if part == "U1":
            if pico and label == "GND":
                grounds.add(int(number))
            elif pico:
                assert int(number) == boards.PICO_PINS[label], p
            else:
                assert number == label  # a Feather's pins are known by their silkscreen names
        elif re.fullmatch(r"S\d+", part):
            assert number == "/".join(str(boards.DRV5032_PINS[pkg][label]) for pkg in boards.DRV5032_PACKAGES)
            assert p["package"] == "SOT-23/TO-92"
        elif re.fullmatch(r"D\d+", part):
            assert int(number) == boards.WS2812B_PINS[label] and p["pad"] == boards.PIXEL_PADS[label]
        elif part == "U2":
            assert int(number) == boards.AHCT125_PINS[label]
        elif part in ("U3", "U4"):
            assert int(number) == boards.HC165_PINS[{"CLK INH": "CLK_INH", "/QH": "QH_INV"}.get(label, label)]
        elif part == "U5":
            assert int(number) == boards.TPS22918_PINS[label]
        else:
            assert number in ("1", "2"), p  # two-lead parts and the supply terminal
    if pico:
        assert grounds <= set(boards.PICO_GROUNDS) and boards.PICO_AGND not in grounds


def _table(text, header):
    """The rows of the markdown table whose header row starts with `header`: lists of cells."""
    lines = text[text.index(header):].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def test_the_sensor_pin_table_is_the_schematics():
    rows = _table(CHAIN, "| DRV5032 pin | SOT-23 (DBZ) | TO-92 (LPG) |")
    got = {r[0]: {"SOT-23": int(r[1]), "TO-92": int(r[2])} for r in rows}
    want = {label: {pkg: boards.DRV5032_PINS[pkg][label] for pkg in boards.DRV5032_PACKAGES}
            for label in ("VCC", "OUT", "GND")}
    assert got == want
    assert boards.DRV5032_PINS["SOT-23"]["OUT"] != boards.DRV5032_PINS["TO-92"]["OUT"]  # why both are given
    for name in all_svgs():
        for p in svg_pins(name):
            if re.fullmatch(r"S\d+", p["part"]):
                assert p["number"] == "%d/%d" % (got[p["pin"]]["SOT-23"], got[p["pin"]]["TO-92"])


def test_the_pixel_pin_table_is_the_schematics():
    rows = _table(CHAIN, "| WS2812B pin (Worldsemi data sheet")
    got = {r[0].split()[1]: (int(r[0].split()[0]), r[1]) for r in rows}
    assert got == {label: (n, boards.PIXEL_PADS[label]) for label, n in boards.WS2812B_PINS.items()}
    assert "SparkFun's WS2812B breakout (BOB-13282), pads 5V, GND, DI, DO" in " ".join(CHAIN.split())


def test_the_supply_table_is_the_schematic():
    flat = " ".join(CHAIN.split())
    pins = boards.TPS22918_PINS
    assert "TPS22918 (U5) pin %d (VIN) and pin %d (ON)" % (pins["VIN"], pins["ON"]) in flat
    assert "TPS22918 pin %d (CT)" % pins["CT"] in flat and "TPS22918 pin %d (QOD)" % pins["QOD"] in flat
    assert "TPS22918 pin %d (VOUT)" % pins["VOUT"] in flat and "TPS22918 pin %d," % pins["GND"] in flat
    assert "Pico pin %d (VBUS" % boards.PICO_PINS["VBUS"] in flat
    grounds = ", ".join(str(g) for g in boards.PICO_GROUNDS)
    assert "Pico GND (pins %s: any)" % grounds in flat
    assert "Pico pin %d is AGND" % boards.PICO_AGND in flat
    assert "%g µF (C1)" % boards.BULK_USB_UF in flat


def test_the_level_shifter_is_explained_by_the_pixels_vih():
    flat = " ".join(CHAIN.split())
    assert "0.7 × VDD" in flat and "3.5 V at VDD = 5 V" in flat and "marginal for" not in flat


def test_part_descriptions_fit_their_boxes():
    for path in BOARD_FILES:
        for supply in SUPPLIES:
            assert all(len(what) <= DESCRIPTION_CHARS for what in netlist(path, supply).parts.values())


# -- the firmware: the blink codes and the first light through the limiter ----------------------------

@pytest.mark.parametrize("holes", [1, 10, 15, 28])
@pytest.mark.parametrize("budget", [CURRENT_MA_MIN, 100, CURRENT_MA_DEFAULT, CURRENT_MA_MAX])
def test_every_blink_frame_stays_within_the_budget(holes, budget):
    limiter = Limiter(budget)
    for code in (config.BLINK_MISSING, config.BLINK_PIN, config.BLINK_TABLE, config.BLINK_CRASH, config.BLINK_VALUE):
        blink = ErrorBlink(holes, code, 0)
        lit = 0
        for now in range(0, 400 * code + 1600, 50):
            sent = limiter.limit(blink.frame(now, None))
            assert estimate_ma(sent) <= budget
            assert all(c & 0xFFFF == 0 for c in sent)  # red or dark: nothing but the code
            lit += any(sent)
        assert lit  # and it still shows


@pytest.mark.parametrize("value, budget", [
    (None, CURRENT_MA_DEFAULT), (50, 50), ("50", 50), (400, 400), (5000, 5000), ("", CURRENT_MA_MIN),
    ("lots", CURRENT_MA_MIN), (49, CURRENT_MA_MIN), (5001, CURRENT_MA_MIN), (-1, CURRENT_MA_MIN), ("0x190", CURRENT_MA_MIN)])
def test_the_budget_before_the_settings_are_read(value, budget):
    assert budget_before_settings(value) == budget


@pytest.mark.parametrize("value", [50, 77, 400, 5000, "120"])
def test_a_valid_budget_is_the_games_own(value):
    def getenv(key):
        return {"PEGBOARD_CURRENT_MA": value, "PEGBOARD_SENSOR_PINS": ",".join("GP%d" % i for i in range(15)),
                "PEGBOARD_PIXEL_PIN": "GP16", "PEGBOARD_BUTTON_PIN": "GP15"}.get(key)

    assert config.load(getenv).current_ma == budget_before_settings(value)




@pytest.mark.parametrize("rows, budget_setting, budget", [(5, 50, 50), (7, 50, 50), (7, None, 400), (5, "bad", 50)])
def test_the_first_light_goes_through_the_limiter(hardware, monkeypatch, rows, budget_setting, budget):
    shown = []

    class RawPixels:
        def __init__(self, pin, n, order):
            self.buf = [0] * n

        def __len__(self):
            return len(self.buf)

        def __setitem__(self, i, c):
            self.buf[i] = c

        def show(self):
            shown.append(list(self.buf))

    def setting(key):
        if key == "PEGBOARD_CURRENT_MA" and budget_setting == "bad":
            raise ValueError("malformed")
        return {"PEGBOARD_ROWS": rows, "PEGBOARD_PIXEL_PIN": "GP16", "PEGBOARD_CURRENT_MA": budget_setting}.get(key)

    monkeypatch.setattr(hardware, "RawPixels", RawPixels)
    monkeypatch.setattr(hardware, "setting", setting)
    assert hardware.early_limiter().budget_ma == budget
    hardware.first_light()
    assert len(shown) == 1 and len(shown[0]) == rows * (rows + 1) // 2
    assert estimate_ma(shown[0]) <= budget
    assert hardware.FIRST_LIGHT == 0x0C0818  # the colour the docs' figures are for
    assert all(c == shown[0][0] and c for c in shown[0])  # one colour, still lit


def _board_with(tmp_path, **changes):
    text = (ROOT / "hardware/boards/pico-gpio.toml").read_text(encoding="utf-8")
    for key, value in changes.items():
        text = re.sub(r"^PEGBOARD_%s = .*$" % key, "" if value is None else "PEGBOARD_%s = %s" % (key, value),
                      text, flags=re.M)
    path = tmp_path / "settings.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("runtime, changes, budget, says", [
    ("cpython", {"CURRENT_MA": "50", "PIXEL_PIN": '"GP99"'}, 50, "no pin GP99"),  # blinks on the default pin
    ("cpython", {"CURRENT_MA": "50", "BUTTON_PIN": '"GP99"'}, 50, "no pin GP99"),
    ("cpython", {"CURRENT_MA": '"lots"'}, CURRENT_MA_MIN, "PEGBOARD_CURRENT_MA"),  # not a number: the lowest
    ("cpython", {"CURRENT_MA": "20"}, CURRENT_MA_MIN, "PEGBOARD_CURRENT_MA"),  # out of range: the lowest
    ("chip", {"CURRENT_MA": "lots"}, CURRENT_MA_MIN, "PEGBOARD_CURRENT_MA"),  # a bare word, as the chip reads it
    ("cpython", {"CURRENT_MA": "50", "ROWS": "7"}, 50, "7 rows need 28"),  # 28 pixels
    ("cpython", {"CURRENT_MA": None, "ROWS": "7"}, CURRENT_MA_DEFAULT, "7 rows need 28"),  # absent: the default
])
def test_the_blink_code_on_the_simulated_board_stays_within_the_budget(tmp_path, runtime, changes, budget, says):
    with Simulator(settings=_board_with(tmp_path, **changes), runtime=runtime) as sim:
        console_line(sim, says)
        red_blink(sim)
        reading = sim.control("pixels")
        # every frame since power-on: the first light and the blink code
        assert 0 < reading["max_ma"] <= budget, reading
        assert sim.control("status")["running"]
