"""The printed circuit board (hardware/pcb/): what the generator writes is what is committed, its
netlist is the schematic model's, its parts sit where the plate and the section put them, and
KiCad's own DRC passes it (where KiCad is installed)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.hardware import footprints as fp
from pegboard.hardware import kicad_pcb, pcb, pcb_files
from pegboard.hardware.pcb_silk import courtyard
from pegboard.hardware.box import box_window
from pegboard.hardware.router import Grid, Rect, RouteError, Router
from pegboard.hardware.stack import PIXEL_PCB_T, PIXEL_T
from pegboard.hardware.triangle import inside_triangle

# routing the board is a minute or two of one core's work (once a process: pcb.route), several on a
# busy machine: past pytest's usual backstop
pytestmark = pytest.mark.timeout(1800)
ROOT = Path(__file__).resolve().parent.parent
PCB = ROOT / "hardware" / "pcb"
BOARD = PCB / (kicad_pcb.NAME + ".kicad_pcb")


@pytest.fixture(scope="module")
def design():
    return pcb_files.design_files()


@pytest.fixture(scope="module")
def kicad():
    exe = pcb_files.kicad_python()
    if exe is None:
        pytest.skip("KiCad's Python module (pcbnew) is not installed: install " + pcb_files.INSTALL)
    return exe


def test_the_committed_design_files_are_what_the_generator_writes(design):
    for name, text in design.items():
        assert (PCB / name).read_text() == text, "%s differs: run pegboard hardware pcb" % name


def footprints_in(text):
    """{ref: (layer, {pad number: net})} read back from a .kicad_pcb."""
    out = {}
    for block in text.split("  (footprint ")[1:]:
        ref = re.search(r'\(fp_text reference "([^"]+)"', block).group(1)
        layer = re.match(r'"[^"]+" \(layer "(.)\.Cu"\)', block).group(1)
        pads = {m.group(1): (m.group(2) or "") for m in
                re.finditer(r'\(pad "([^"]*)" [^\n]*?(?:\(net \d+ "([^"]+)"\))?\)\n', block)}
        out[ref] = (layer, pads)
    return out


def test_the_boards_netlist_equals_the_schematic_model():
    s = pcb.schematic()
    board = footprints_in(BOARD.read_text())
    want = {}
    for pin in s.pins:
        want.setdefault(pin.part, {})[pcb.pad_number(pin)] = "" if pin.net == "NC" else pin.net
    assert set(want) == {ref for ref in board if not ref.startswith("H")}  # H: the mounting holes
    assert board["S1"][1] == {"1": "3V3", "2": "HOLE1", "3": "GND"}  # SOT-23 (TI SLVSDC7): VCC, OUT, GND
    for ref, pins in want.items():
        pads = board[ref][1]
        for number, net in pins.items():
            assert pads[number] == net, "%s pad %s: %r on the board, %r in the schematic" % (ref, number,
                                                                                         pads[number], net)
        # and no pad of it joins a net the schematic does not give it
        assert all(net == "" for number, net in pads.items() if number not in pins), ref


def test_each_holes_pixel_and_sensor_sit_on_its_axis_pixel_up_sensor_down():
    centres = pcb.holes()
    parts = {p.ref: p for p in pcb.placement()}
    assert len(centres) == 15
    for h, (x, y) in enumerate(centres, 1):
        d, sensor = parts["D%d" % h], parts["S%d" % h]
        assert (d.x, d.y, d.side) == (x, y, "F") and (sensor.x, sensor.y, sensor.side) == (x, y, "B")


def test_nothing_on_the_top_is_taller_than_the_pixels_that_rest_on_the_plate():
    for p in pcb.placement():
        if p.side == "F":
            assert p.footprint.height <= pcb.TALLEST_TOP, p.ref


def test_the_board_and_its_parts_fit_inside_the_box():
    inner = box_window(5, pcb.PITCH, pcb.PLATE_MARGIN)
    edge = pcb.outline()
    cx, cy = sum(x for x, _ in inner) / 3, sum(y for _, y in inner) / 3
    for (x, y), (ix, iy) in zip(edge, inner, strict=True):
        assert (x - cx) ** 2 + (y - cy) ** 2 < (ix - cx) ** 2 + (iy - cy) ** 2  # every corner inside the walls
    for p in pcb.placement():
        c = courtyard(p)
        for x in (c.x0, c.x1):
            for y in (c.y0, c.y1):
                assert inside_triangle([(x, y)], edge) >= 0, p.ref


def test_the_board_keeps_the_section_drawings_stack():
    # the field and light figures assume a 1.6 mm board under a 1.6 mm pixel (stack.py)
    assert kicad_pcb.THICKNESS == PIXEL_PCB_T and fp.WS2812B.height == PIXEL_T == pcb.TALLEST_TOP


def test_the_readme_gives_the_usb_reach_the_geometry_gives():
    # a plug meets its socket within 1.9 mm of the wall's outside: the Pico's socket is further in,
    # so the build takes a panel-mount extension, and the README says how far
    text = (PCB / "README.md").read_text()
    assert "USB end %.1f mm from the box's" % pcb.usb_to_wall() in text and pcb.usb_to_wall() > 1.9
    assert "Adafruit 3258" in text


def test_the_bom_and_the_placement_file_name_every_part_once(design):
    parts = {p.ref for p in pcb.placement()}
    bom = design[kicad_pcb.NAME + "-bom.csv"].splitlines()[1:]
    named = []
    for line in bom:
        refs = re.match(r'[^,]+,("[^"]+"|[^,]+),', line).group(1).strip('"').split(",")
        named += refs
        assert "not chosen" not in line and line.split(",")[-1].strip()  # every line says what to buy
    assert sorted(named) == sorted(parts)
    placed = [line.split(",")[0] for line in design[kicad_pcb.NAME + "-positions.csv"].splitlines()[1:]]
    assert sorted(placed) == sorted(parts)


def test_the_router_keeps_two_nets_apart_and_names_a_net_it_cannot_route():
    grid = Grid(0, 0, 10, 10, lambda x, y, m: 0 + m <= x <= 10 - m and m <= y <= 10 - m)
    a1, a2 = Rect(2, 5, 0.5, 0.5, "F", "A"), Rect(8, 5, 0.5, 0.5, "F", "A")
    wall = [Rect(5, y, 0.3, 0.3, "F", "W") for y in range(1, 10)]
    router = Router(grid, [a1, a2] + wall)
    router.route("A", [a1, a2], 0.25)  # over the wall of another net: through a via, on the other layer
    assert router.vias and all(s.layer == "B" for s in router.segments if min(s.x1, s.x2) < 5 < max(s.x1, s.x2))
    boxed = Rect(5, 5, 0.3, 0.3, "F", "B")
    ring = [Rect(5 + dx, 5 + dy, 0.3, 0.3, "FB", "C", True) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    router = Router(Grid(0, 0, 10, 10, lambda x, y, m: True), [boxed, Rect(1, 1, 0.3, 0.3, "F", "B")] + ring)
    with pytest.raises(RouteError) as e:
        router.route("B", [boxed, Rect(1, 1, 0.3, 0.3, "F", "B")], 0.25)
    assert e.value.net == "B"


def test_kicad_drc_finds_no_error_and_nothing_unconnected(kicad):
    verdict = pcb_files.check(BOARD, python=kicad)
    assert verdict["min_clearance_mm"] == 0.2  # the project's rules were read, not KiCad's defaults
    assert (verdict["violations"], verdict["unconnected"]) == (0, 0), verdict["report"]


def _content(path):
    """A fab file without the lines that carry the date or the tool's version."""
    skip = ("G04 Created by", "%TF.CreationDate", "%TF.GenerationSoftware", "; DRILL file", "; #@! TF.CreationDate",
            "; #@! TF.GenerationSoftware")
    return [line for line in path.read_text().splitlines() if not line.startswith(skip)]


def test_the_committed_gerbers_and_drill_files_are_kicads_export_of_the_committed_board(kicad, tmp_path):
    verdict = pcb_files.check(BOARD, tmp_path, python=kicad)
    made_by = re.search(r"GenerationSoftware,KiCad,Pcbnew,([^*]+)\*", (PCB / pcb_files.FAB / (
        kicad_pcb.NAME + "-F_Cu.gtl")).read_text()).group(1)
    if made_by != verdict["kicad"]:
        pytest.skip("the committed fab files are KiCad %s's export, this is KiCad %s: `pegboard hardware pcb` "
                    "rewrites them" % (made_by, verdict["kicad"]))
    made = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".svg"))
    kept = sorted(p.name for p in (PCB / pcb_files.FAB).iterdir())
    assert made == kept
    for name in ("F_Cu.gtl", "B_Cu.gbl", "F_Mask.gts", "B_Mask.gbs", "F_SilkS.gto", "B_SilkS.gbo", "Edge_Cuts.gm1",
                 "PTH.drl", "NPTH.drl"):
        assert "%s-%s" % (kicad_pcb.NAME, name) in kept
    for name in kept:
        assert _content(tmp_path / name) == _content(PCB / pcb_files.FAB / name), name


def test_the_pcb_command_writes_the_design_files_and_says_what_it_did_not_check(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    run = subprocess.run([sys.executable, "-m", "pegboard", "hardware", "pcb", "--out", str(tmp_path / "b"),
                          "--no-kicad"], capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "not checked: --no-kicad" in run.stderr
    assert (tmp_path / "b" / BOARD.name).read_text() == BOARD.read_text()
    (tmp_path / "f").write_text("")
    run = subprocess.run([sys.executable, "-m", "pegboard", "hardware", "pcb", "--out", str(tmp_path / "f")],
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode != 0 and "is a file, not a folder" in run.stderr


def test_a_sides_picture_is_in_micrometres_every_coordinate_and_colour_kept():
    # browsers clamp lengths as large as a board's in nanometres: every coordinate is scaled, a path's
    # first one glued to its command letter as much as the rest; colours and small widths stay
    from pegboard.hardware.pcb_picture import compose

    plot = ('<svg width="29.7cm" viewBox="0 0 297002200 210007200"><title>x</title>'
            '<g style="fill:#000000; stroke-width:180000;"><path d="M85983857 45642900\nL85298142 45642900\n" />'
            '<circle cx="64051000.000000" cy="73476000.000000" r="800000.000000" /></g></svg>')
    edge = '<svg viewBox="0 0 1 1"><path d="M13124300 15000000\nL158157600 140603100\n" /></svg>'
    out = compose({"SilkS": plot, "Edge_Cuts": edge}, "t")
    assert 'd="M85983.9 45642.9\nL85298.1 45642.9' in out and 'cx="64051" cy="73476" r="800"' in out
    assert "stroke-width:180;" in out and "#f4f4f4" in out and "#000000" not in out
    assert 'viewBox="11124 13000 149033 129603"' in out  # the edge's extent, 2 mm round it


def test_the_spacer_puts_each_pixel_against_its_stop_disc_and_the_field_is_the_sections():
    from pegboard.hardware import plate
    from pegboard.hardware.margins import own_field
    from pegboard.hardware.stack import SENSOR, STACK_TOL

    base = next(layer for layer in plate.LAYERS if layer.key == "base")
    # the board's top face `spacer` under the base plate: the pixel's top meets the disc's underside
    pixel_top_into_bore = fp.WS2812B.height - pcb.spacer()
    assert pixel_top_into_bore == pytest.approx(base.thickness - plate.DISC_T)
    want = 2 * SENSOR.bop_max
    assert own_field() >= want  # the section's stack: twice the sensor's BOP max
    # the 1.6 mm washers the guide once gave leave a 1.0 mm gap: under the design's target
    assert own_field(extra=STACK_TOL + (1.6 - pcb.spacer())) < want
    text = (PCB / "README.md").read_text()
    assert "%.1f mm spacer" % pcb.spacer() in text and "%.1f mm" % pcb.tail_trim() in text
    assert "%.1f mT" % own_field() in text


def test_the_plate_has_a_pilot_hole_over_each_of_the_boards_mounting_holes():
    import xml.etree.ElementTree as ET

    from pegboard.hardware.plate import plate_svg

    root = ET.fromstring(plate_svg(5, 25, screws=pcb.plate_screws()))
    ns = "{http://www.w3.org/2000/svg}"
    for g in root.iter(ns + "g"):
        key = g.get("data-layer")
        if key not in ("top", "guide", "base"):
            continue
        screws = [c for c in g.iter(ns + "circle") if c.get("class") == "screw"]
        assert len(screws) == (0 if key == "top" else 3), key
        width = max(float(p.split(",")[0]) for p in g.find(ns + "polygon").get("points").split()) + 1
        got = sorted((round(width - float(c.get("cx")) if g.get("data-view") == "below" else float(c.get("cx")), 2),
                      round(float(c.get("cy")), 2)) for c in screws)
        if screws:
            assert got == sorted((round(x, 2), round(y, 2)) for x, y in pcb.mounting_holes())


def test_every_top_part_taller_than_the_spacer_stands_inside_its_holes_bore():
    from pegboard.hardware.plate import BORE_D
    from pegboard.hardware.pcb_silk import courtyard

    centres = pcb.holes()
    for p in pcb.placement():
        if p.side != "F" or p.footprint.height <= pcb.spacer():
            continue
        c = courtyard(p)
        hx, hy = min(centres, key=lambda h: (h[0] - p.x) ** 2 + (h[1] - p.y) ** 2)
        for x in (c.x0, c.x1):
            for y in (c.y0, c.y1):
                assert (x - hx) ** 2 + (y - hy) ** 2 < (BORE_D / 2) ** 2, p.ref


def test_the_interactive_bom_is_interactivehtmlboms_page_of_this_board():
    page = (PCB / (kicad_pcb.NAME + "-ibom.html")).read_text()
    assert "InteractiveHtmlBom" in page and "pcbdata" in page
    assert "(%s-ibom.html)" % kicad_pcb.NAME in (PCB / "README.md").read_text()


def test_interactivehtmlbom_makes_the_page_where_it_is_installed(tmp_path):
    if pcb_files.ibom_tool() is None:
        pytest.skip("no interactive BOM tool: install " + pcb_files.IBOM_INSTALL)
    page = pcb_files.interactive_bom(BOARD, tmp_path)
    text = page.read_text()
    assert "InteractiveHtmlBom" in text and len(text) > 100_000
