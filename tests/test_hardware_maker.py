"""The maker findings: the controller fits the box, C3 has a value from TI's table, nothing goes
into a live jig, the sensor's glue gap is gauged, the materials keep the light path clear, and
every parts-list source is an order code or says it is not one."""

import re
from pathlib import Path

import pytest

from pegboard.hardware import bom, boards
from pegboard.hardware.box import box_svg, box_window, usb_opening
from pegboard.hardware.margins import gauged_net
from pegboard.hardware.perfboards import (PERFBOARD_ROWS, PERFBOARD_W, SHIFT_BOARD_ROWS, SHIFT_BOARD_W, STANDOFF,
                                          TALLEST_PART, controller_rect, perfboard_rows, shift_board_rect, stack_room,
                                          stacked_rows)
from pegboard.hardware.stack import GAUGE_TOL, SENSOR
from pegboard.hardware.triangle import inside_triangle

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
LINES = bom.read()
BOARDS = [p.stem for p in boards.board_files()]


def section(title):
    m = re.search(r"^(#+) %s\n" % re.escape(title), DOC, re.M)
    assert m, title
    rest = DOC[m.end():]
    end = re.search(r"^#{1,%d} " % len(m.group(1)), rest, re.M)
    return rest[:end.start()] if end else rest


def steps():
    return [s.strip() for s in re.split(r"^\d+\. ", section("Assembly, tested as it goes"), flags=re.M)[1:]]


# -- 1. the controller fits the box ------------------------------------------------------------------
@pytest.mark.parametrize("supply", ["usb", "external"])
@pytest.mark.parametrize("board", BOARDS)
def test_the_controller_perfboard_fits_inside_the_box_with_its_usb_end_at_the_opening(board, supply):
    assert perfboard_rows(board, supply) <= PERFBOARD_ROWS
    rect = controller_rect()
    window = box_window()  # the rings' inner outline, as box_svg cuts it
    assert inside_triangle(rect, window) >= -1e-9
    # its short edge (the USB end) is centred on the opening, on the wall's inner face
    mid = ((rect[0][0] + rect[1][0]) / 2, (rect[0][1] + rect[1][1]) / 2)
    assert abs(mid[0] - usb_opening()[0]) < 1e-9 and abs(mid[1] - usb_opening()[1]) < 1e-9
    assert abs(((rect[0][0] - rect[1][0]) ** 2 + (rect[0][1] - rect[1][1]) ** 2) ** 0.5 - PERFBOARD_W) < 1e-9


def test_the_box_drawing_cuts_the_window_the_fit_uses():
    svg = box_svg()
    pts = " ".join("%.3f,%.3f" % p for p in box_window())
    assert 'class="ring-window" points="%s"' % pts in svg


def test_the_74hc165s_fit_on_the_stacked_board_over_the_controller_and_under_the_pixels():
    assert stacked_rows("shift-74hc165") <= SHIFT_BOARD_ROWS
    assert stacked_rows("pico-gpio") == 0
    stacked = shift_board_rect()
    assert inside_triangle(stacked, box_window()) >= -1e-9  # in the box
    under = controller_rect()  # and over the controller board: each corner inside its rectangle
    for x, y in stacked:
        sides = [(b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) for a, b in zip(under, under[1:] + under[:1],
                                                                                        strict=True)]
        assert all(s >= -1e-6 for s in sides) or all(s <= 1e-6 for s in sides)
    assert abs(((stacked[0][0] - stacked[1][0]) ** 2 + (stacked[0][1] - stacked[1][1]) ** 2) ** 0.5
               - SHIFT_BOARD_W) < 1e-9
    assert TALLEST_PART < STANDOFF  # the controller board's parts stand under it
    assert stack_room() > 0  # and its own under the pixel modules
    box = " ".join(section("Box").split())
    assert "%g mm standoffs" % STANDOFF in box and "quarter-sized Perma-Proto" in box
    assert "none stands %g mm or more" % TALLEST_PART in box
    assert "leaves %.1f mm under the pixel modules" % stack_room() in box


# -- 2. C3 -----------------------------------------------------------------------------------------
def test_c3_gives_the_soft_start_by_tis_table_and_is_rated_for_the_ct_pin():
    assert boards.C3_PF == boards.smallest_ct_pf()
    assert boards.c3_rise_ms() >= boards.RISE_MARGIN * boards.soft_start_ms()
    assert boards.C3_RATING_V >= boards.CT_MIN_RATING_V >= 20
    assert "Table 2" in boards.CT_SOURCE and "SLVSD76" in boards.CT_SOURCE
    line = next(x for x in LINES if x.item.startswith("Rise-time capacitor (C3)"))
    assert "10 nF" in line.part and "50 V" in line.part and "not chosen" not in line.check
    assert re.search(r"C320C103K5R5TA", line.part + line.source)
    flat = " ".join(section("Power budget").split())
    assert "%.1f ms" % boards.c3_rise_ms() in flat and "%.1f mA" % boards.c1_charge_ma() in flat
    assert "Never leave CT open" in flat


# -- 3. nothing into a live jig ----------------------------------------------------------------------
INSERTS = re.compile(r"into the breadboard|plug it into the jig|wire module k|into its socket")


def test_every_step_that_plugs_a_part_into_the_jig_says_usb_out_first():
    hits = [" ".join(s.split()) for s in steps() if INSERTS.search(" ".join(s.split()))]
    assert len(hits) >= 4
    for s in hits:
        assert "USB out" in s, s[:80]
    assert "GND first" in " ".join(steps())


def test_wires_into_the_breadboard_are_solid_core():
    wire = next(x for x in LINES if x.item == "Module wire")
    assert "Solid Core" in wire.part and "Stranded" not in wire.part
    assert "solid-core" in " ".join(section("Assembly, tested as it goes").split())


# -- 4. the glue gap ---------------------------------------------------------------------------------
def test_the_gauged_sensor_keeps_twice_bop_max():
    net = gauged_net()
    assert net >= 2 * SENSOR.bop_max
    flat = " ".join(section("One hole, in section").split())
    assert "%.1f mT, %.2f × BOP max" % (net, net / SENSOR.bop_max) in flat
    assert "%.2f mm leaf" % GAUGE_TOL in flat
    assert any(x.item == "Feeler gauge" for x in LINES)


# -- 5. materials ------------------------------------------------------------------------------------
def test_no_step_glues_acrylic_or_magnets_with_ca_and_the_safety_note_is_there():
    for s in steps():
        flat = " ".join(s.split())
        assert not re.search(r"(with|drop of|film of|epoxy or) CA\b|\bCA (at|on)\b", flat), flat[:80]
        if re.search(r"\bCA\b", flat):  # named only to say no
            assert re.search(r"never CA|no CA|or CA, which", flat), flat[:80]
    assert not any(x.part.lower().startswith("cyanoacrylate") or "(cyanoacrylate" in x.part.lower() for x in LINES)
    flat = " ".join(section("Assembly, tested as it goes").split())
    assert "seek medical help at once" in flat and "small children" in flat
    assert re.search(r"wet-sand it flat to 1000 grit", flat)


# -- 6. order codes ----------------------------------------------------------------------------------
ORDER = re.compile(r"^(Digi-Key [\w-]+-ND|Mouser \d{2,3}-[\w-]+|Adafruit \d+|SparkFun (\d+|[A-Z]{3}-\d{5})|"
                   r"LCSC C\d+|manufacturer number only: .+)$")


@pytest.mark.parametrize("line", LINES, ids=lambda x: x.item)
def test_every_source_is_an_order_code_or_says_it_is_not_one(line):
    assert "product page" not in line.source and not re.search(r"Digi-Key:", line.source)
    for entry in line.source.split("; "):
        stock = line.manufacturer == "any" or line.unit != "pcs"  # a shop's product name is all there is
        assert ORDER.match(entry) or (stock and re.match(r"[a-z]", entry)), entry
        assert not re.fullmatch(r"Digi-Key %s" % re.escape(line.part.split()[0]), entry)


SYMPTOMS = ("resets or USB disconnects at plug-in", "A sensor flickers", "Pixel 1 dead")


def test_the_troubleshooting_table_has_the_plug_in_rows():
    rows = [r for r in section("Troubleshooting").splitlines() if r.startswith("| ")]
    for s, cause in zip(SYMPTOMS, ("C3", "gauge", "USB out"), strict=True):
        row = next(r for r in rows if s in r)
        assert cause in row, s
