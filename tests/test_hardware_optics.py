"""The hole's optics, the peg's stand and the magnet at the sensors (issue "seethelight"): the field
formulas against independent numerical integrations, the three margins met by the chosen parts, the
section drawn with the plate generator's layers, the light path and both views, and every layer of
the plate and the box drawn with the engraved numbers never mirrored. Nothing here is a
measurement: every figure is computed from the dimensions and data-sheet values in
pegboard.hardware.stack (optics.py, margins.py) and printed in hardware/README.md."""

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pegboard.hardware import field, plate
from pegboard.hardware.box import BOTTOM_T, BUTTON_NOTCH, RINGS, RING_T, USB_NOTCH, box_svg
from pegboard.hardware.margins import field_from_hole, lying_field, sensor_margins
from pegboard.hardware.optics import (ELEVATIONS, bottom_seen_above, core_fraction, deepest_seen, disc_spread,
                                      rim_seen, tube_wall_fraction)
from pegboard.hardware.stack import (LEAN_LIMIT, MAGNET, PEG_D, PITCH, SENSITIVE, SENSOR, STACK_TOL, lean_deg,
                                     magnet_to_sensor, peg_above_board, plate_thickness, sensor_depth)
from pegcore.geometry import Board

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
DOC = (ROOT / "hardware/README.md").read_text(encoding="utf-8")


def section(title):
    """The text of hardware/README.md's section `title` (a heading line), up to the next heading
    of the same or a higher level, its line breaks and indents as single spaces."""
    level = title.split()[0]
    start = DOC.index(title + "\n")
    m = re.compile(r"^#{1,%d} " % len(level), re.M).search(DOC, start + len(title) + 1)
    return " ".join(DOC[start:m.start() if m else len(DOC)].split())


MY_SECTIONS = ["## Top plate", "## One hole, in section", "### Light you can see, peg in or out",
               "### Pegs that stand", "### The magnet at the sensors", "## Assembly, tested as it goes", "## Box",
               "### Choosing the sensor"]


# -- the field: formulas against independent integrations ----------------------------------------

def _simpson(f, a, b, n=2000):
    h = (b - a) / n
    return h / 3 * (f(a) + f(b) + sum((4 if i % 2 else 2) * f(a + i * h) for i in range(1, n)))


def _on_axis_by_loops(z, radius, length, br):
    """On the axis, z from the near face: the surface current Br/mu0 per unit length, loop by loop
    (a loop's on-axis field mu0*I*a^2 / (2 (a^2 + s^2)^1.5)), integrated by Simpson's rule."""
    return _simpson(lambda s: br * radius ** 2 / (2 * (radius ** 2 + s ** 2) ** 1.5), z, z + length)


@pytest.mark.parametrize("z", [0.2, 1.0, 3.0, 5.85, 10.0, 25.0])
def test_disc_on_axis_closed_form_matches_a_numerical_integration(z):
    br = 1300.0
    closed = field.disc_on_axis(z, 3.0, 3.0, br)
    assert closed == pytest.approx(_on_axis_by_loops(z, 3.0, 3.0, br), rel=1e-9)
    # the loop sum with elliptic integrals, just off the axis, agrees too
    m = field.Magnet(6.0, 0.0, 3.0, "N42", br, br)
    assert m.local_field(1e-6, z + 1.5, br)[1] == pytest.approx(closed, rel=1e-6)


def test_ring_is_outer_cylinder_less_core_and_changes_sign_near_its_face():
    m = MAGNET
    assert m.d_in > 0
    ro, ri, length, br = m.d_out / 2, m.d_in / 2, m.length, m.br_min
    for z in (0.1, 0.5, 2.0, 5.85):
        expect = _on_axis_by_loops(z, ro, length, br) - _on_axis_by_loops(z, ri, length, br)
        assert m.on_axis(z, br) == pytest.approx(expect, rel=1e-9, abs=1e-9)
        assert m.local_field(1e-6, z + length / 2, br)[1] == pytest.approx(expect, rel=1e-6, abs=1e-6)
    z0 = field.ring_zero_crossing(ro, ri, length)
    assert abs(m.on_axis(z0, br)) < 1e-6 * br
    assert m.on_axis(0.0, br) < 0 and m.on_axis(z0 / 2, br) < 0 < m.on_axis(2 * z0, br)
    # the sensor sits well past the crossing, where the field is large and the right way
    assert magnet_to_sensor() > 5 * z0 and m.on_axis(magnet_to_sensor(), br) > 20
    assert "%.2f mm from the face" % z0 in section("### The magnet at the sensors")
    # a disc has no such crossing: its field is largest at its face
    assert field.disc_on_axis(0.0, 3.0, 3.0, br) > field.disc_on_axis(0.5, 3.0, 3.0, br) > 0


@pytest.mark.parametrize("point", [(4.0, 1.0), (3.5, -2.0), (25.0, -7.35), (1.0, 6.0)])
def test_current_loop_off_axis_matches_biot_savart(point):
    """The elliptic-integral loop against the Biot-Savart law summed over 20000 straight pieces."""
    rho, z = point
    a, n = 3.0, 20000
    bx = bz = 0.0
    for k in range(n):
        t0, t1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
        tm = (t0 + t1) / 2
        dl = (a * (math.cos(t1) - math.cos(t0)), a * (math.sin(t1) - math.sin(t0)), 0.0)
        r = (rho - a * math.cos(tm), -a * math.sin(tm), z)
        d3 = (r[0] ** 2 + r[1] ** 2 + r[2] ** 2) ** 1.5
        cross = (dl[1] * r[2] - dl[2] * r[1], dl[2] * r[0] - dl[0] * r[2], dl[0] * r[1] - dl[1] * r[0])
        bx += cross[0] / (4 * math.pi * d3)
        bz += cross[2] / (4 * math.pi * d3)
    brho, bz_loop = field.loop_field(a, rho, z)
    assert brho == pytest.approx(bx, rel=1e-6, abs=1e-12)
    assert bz_loop == pytest.approx(bz, rel=1e-6, abs=1e-12)


def test_loop_sum_tends_to_the_dipole_far_away():
    m = MAGNET
    for point in [(60.0, 0.0, -10.0), (0.0, 0.0, 80.0), (40.0, 30.0, 20.0)]:
        a = m.field((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), point, m.br_max)
        b = m.dipole((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), point, m.br_max)
        assert math.dist(a, b) < 0.01 * math.hypot(*b)
    # a magnet turned on its side is the same field, turned
    a = m.field((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (5.0, 2.0, -3.0), m.br_max)
    b = m.field((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (3.0, 2.0, 5.0), m.br_max)  # x -> z, z -> -x
    assert a == pytest.approx((b[2], b[1], -b[0]), rel=1e-9, abs=1e-12)


# -- the three margins ---------------------------------------------------------------------------

def test_chosen_parts_meet_the_three_margins():
    m = sensor_margins()
    s = SENSOR
    assert m.sensor.name == "DRV5032AJ" and (s.bop_max, s.brp_min) == (9.5, 3.0)
    assert m.own_net >= 2 * s.bop_max                    # at the sensor: >= 2 x BOP max, the others subtracted
    assert m.next_hole < s.brp_min                        # the next hole: under BRP min
    assert m.neighbours < s.brp_min                       # every other peg at once, too
    assert m.lying < s.brp_min                            # a peg lying on the board is not read as one
    assert m.lying + m.neighbours < s.brp_min             # nor with a full board around it
    assert m.met()
    # the own peg's worst case is under the on-axis closed form (off the axis, further away, lowest Br)
    gap = magnet_to_sensor()
    assert m.own < MAGNET.on_axis(gap, MAGNET.br_min)
    assert m.own == pytest.approx(MAGNET.on_axis(gap + STACK_TOL, MAGNET.br_min), rel=0.01)


def test_the_most_sensitive_version_would_not_do():
    """The FA's 0.5 mT release point: two neighbours, or a lying peg, exceed it."""
    m = sensor_margins(MAGNET, SENSITIVE)
    assert m.operate >= 2 and m.release_next > 1      # the first two conditions alone pass ...
    assert 2 * m.next_hole > SENSITIVE.brp_min and m.lying > SENSITIVE.brp_min  # ... not these
    assert not m.met()


def test_lying_peg_scan_finds_the_worst_place():
    """The scan's maximum is at least the field at the place a dipole's theory puts it (half the
    height along the peg's axis) and over every other place tried."""
    m = MAGNET
    h = sensor_depth() + PEG_D / 2
    at = abs(m.field((h / 2, 0.0, h), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0), m.br_max)[2])
    worst = lying_field()
    assert worst >= at * 0.999
    assert worst < 1.05 * at
    # straight over the sensor the field is across it: nothing vertical
    assert abs(m.field((0.0, 0.0, h), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0), m.br_max)[2]) < 1e-9


def test_worst_holes_are_the_inner_ones():
    centres = plate.hole_centres(Board(5), PITCH, 0.0)
    sums = {}
    for h, (x, y) in enumerate(centres, 1):
        sums[h] = sum(field_from_hole(x2 - x, y2 - y) for x2, y2 in centres if (x2, y2) != (x, y))
    worst = max(sums.values())
    assert {h for h, v in sums.items() if v > worst - 1e-3} == {5, 8, 9}  # six neighbours each
    assert worst == pytest.approx(sensor_margins().neighbours)


# -- the plate's layers, the guide and the lean --------------------------------------------------

def test_guide_is_deep_and_the_peg_leans_little():
    g = plate.guide_depth()
    assert g >= 9
    lean = lean_deg()
    assert lean == pytest.approx(math.degrees(math.atan((plate.HOLE_D - PEG_D) / g)))
    assert lean <= LEAN_LIMIT == 3.0
    assert peg_above_board() >= 20  # a peg still stands well clear to be picked up
    doc = section("### Pegs that stand")
    assert "atan(%g / %g) = %.1f°" % (plate.HOLE_D - PEG_D, g, lean) in doc
    assert "limit is %g°" % LEAN_LIMIT in doc


def _views():
    root = ET.fromstring((ROOT / "hardware/hole-section.svg").read_text())
    return {g.get("data-view"): g for g in root.iter(SVG + "g") if g.get("class") == "view"}


def test_section_layers_are_the_plate_generators():
    views = _views()
    assert set(views) == {"peg-in", "peg-out"}
    for view in views.values():
        rects = list(view.iter(SVG + "rect"))
        tops = {}
        for r in rects:
            key = r.get("data-layer")
            if key:
                layer = next(la for la in plate.LAYERS if la.key == key)
                assert float(r.get("height")) == pytest.approx(layer.thickness)
                assert float(r.get("data-thickness")) == layer.thickness
                tops.setdefault(key, float(r.get("y")))
        assert list(tops) == [la.key for la in plate.LAYERS]
        ys = [tops[la.key] for la in plate.LAYERS]
        for a, b, la in zip(ys[:-1], ys[1:], plate.LAYERS[:-1], strict=True):
            assert b - a == pytest.approx(la.thickness)  # stacked, each as thick as the plate's layer
        rings = [r for r in rects if r.get("data-part") == "light tube ring"]
        assert len(rings) == 2 * plate.tube_rings_per_hole()  # both halves of each ring
        assert all(float(r.get("height")) == plate.TUBE_T for r in rings)
        assert sum(float(r.get("height")) for r in rings) / 2 == pytest.approx(plate.guide_depth())
        disc = next(r for r in rects if r.get("data-part") == "stop disc")
        assert float(disc.get("height")) == plate.DISC_T and float(disc.get("width")) == plate.BORE_D
        assert float(disc.get("y")) == pytest.approx(ys[0] + plate.guide_depth())


def test_section_shows_the_light_path_and_both_views_with_dimensions():
    views = _views()
    for name, view in views.items():
        lights = [p for p in view.iter(SVG + "polyline") if p.get("class") == "light"]
        assert len(lights) >= 2, name
        sights = {p.get("data-elevation") for p in view.iter(SVG + "polyline") if p.get("class") == "sight"}
        assert sights == {"30", "45"}, name
        dims = " ".join(t.text for t in view.iter(SVG + "text") if t.get("class") == "dimtext")
        for layer in plate.LAYERS:
            assert "%g %s" % (layer.thickness, layer.key) in dims
    parts_in = {r.get("data-part") for r in views["peg-in"].iter(SVG + "rect")}
    parts_out = {r.get("data-part") for r in views["peg-out"].iter(SVG + "rect")}
    assert {"peg", "ring magnet", "sanded top"} <= parts_in and not {"peg", "ring magnet"} & parts_out
    dims_in = " ".join(t.text for t in views["peg-in"].iter(SVG + "text"))
    dims_out = " ".join(t.text for t in views["peg-out"].iter(SVG + "text"))
    assert "%.2f magnet to Hall element" % magnet_to_sensor() in dims_in
    assert "%g above the board" % peg_above_board() in dims_in and "Ø%g peg" % PEG_D in dims_in
    assert "Ø%g hole" % plate.HOLE_D in dims_out and "Ø%g light tube" % plate.BORE_D in dims_out
    assert "%g guide" % plate.guide_depth() in dims_out
    # peg out: the sight lines stop on the far wall as deep as a player can see, short of the bottom
    for e in ELEVATIONS:
        assert "%g°: rim, %.2f down" % (e, deepest_seen(e)) in dims_out
        assert deepest_seen(e) < plate.guide_depth()


def test_optics_figures():
    # with a peg in, the light leaving the disc is all under the peg's foot ...
    assert disc_spread() < PEG_D / 2
    # ... so the peg carries it: a tenth of it goes straight up the magnet's core
    assert 0.05 < core_fraction() < 0.2
    # peg out: most of it meets the tube, and the bottom is out of a seated player's sight
    assert tube_wall_fraction() > 0.9
    assert bottom_seen_above() > max(ELEVATIONS)
    # the rim: all of it with nothing in front, most of it behind a peg one hole nearer
    for e in ELEVATIONS:
        assert rim_seen(e, False, False) == 1.0
        assert rim_seen(e, False, True) > 0.5
        assert rim_seen(e, True, False) > 0.5
    doc = section("### Light you can see, peg in or out")
    assert "%.2f mm of the axis" % disc_spread() in doc
    assert "%.1f %% of the pixel's light" % (100 * core_fraction()) in doc
    assert "%.0f %% of the pixel's light" % (100 * tube_wall_fraction()) in doc
    assert "below %.1f°" % bottom_seen_above() in doc
    assert "at least %.0f %% of it (30°) and %.0f %% (45°)" % (
        100 * rim_seen(30, False, True), 100 * rim_seen(45, False, True)) in doc
    # every light role the firmware shows is in the table, with the peg in or out
    for role in ("HINT_FROM", "HINT_OVER", "HINT_TO", "LANDING", "PENDING", "ERROR", "PEG", "EMPTY"):
        assert "(%s" % role in doc or "%s)" % role in doc or " %s," % role in doc, role


def test_readme_prints_the_computed_margins():
    m = sensor_margins()
    doc = section("### The magnet at the sensors")
    assert "%.1f − %.2f = %.1f mT" % (m.own, m.neighbours, m.own_net) in doc
    assert "%.2f × BOP max" % m.operate in doc
    assert "| %.2f mT | < BRP min = %.1f mT | %.1f × |" % (m.next_hole, m.sensor.brp_min, m.release_next) in doc
    assert "| %.2f mT | < BRP min | %.2f × |" % (m.neighbours, m.release_all) in doc
    assert "| %.2f mT | < BRP min | %.1f × |" % (m.lying, m.release_lying) in doc
    assert "| %.2f mT | < BRP min | %.2f × |" % (m.lying + m.neighbours, m.release_lying_all) in doc
    assert "gives %.1f mT" % MAGNET.on_axis(magnet_to_sensor(), MAGNET.br_min) in doc
    assert "Magnet to Hall element: %.2f mm" % magnet_to_sensor() in section("## One hole, in section")
    sensor_doc = section("### Choosing the sensor")
    assert "**%s**" % SENSOR.name in sensor_doc
    assert "%.2f mT" % (m.lying + m.neighbours) in sensor_doc and "%.1f mT" % (m.own_net / 2) in sensor_doc


def test_readme_sections_never_claim_a_measurement():
    for title in MY_SECTIONS:
        assert "measured" not in section(title).lower(), title
        assert "measurement" not in section(title).lower(), title


# -- every layer drawn; engraved numbers never mirrored ------------------------------------------

def _layers(svg_text):
    root = ET.fromstring(svg_text)
    return root, {g.get("data-layer"): g for g in root.iter(SVG + "g") if g.get("class") == "layer"}


@pytest.mark.parametrize("rows", [5, 6])
def test_plate_draws_every_layer(rows):
    root, layers = _layers(plate.plate_svg(rows, 25))
    b = Board(rows)
    assert list(layers) == [la.key for la in plate.LAYERS] + ["tube", "disc"]
    for la in plate.LAYERS:
        g = layers[la.key]
        assert float(g.get("data-thickness")) == la.thickness
        bores = [c for c in g.iter(SVG + "circle") if c.get("class") == "bore"]
        assert sorted(int(c.get("data-hole")) for c in bores) == list(range(1, b.holes + 1))
        assert all(float(c.get("r")) == plate.BORE_D / 2 for c in bores)
        numbers = [t for t in g.iter(SVG + "text") if t.get("class") == "number"]
        assert len(numbers) == (b.holes if la.engrave else 0)
    rings = [c for c in layers["tube"].iter(SVG + "circle") if c.get("class") == "tube-ring"]
    ring_bores = [c for c in layers["tube"].iter(SVG + "circle") if c.get("class") == "tube-ring-bore"]
    discs = [c for c in layers["disc"].iter(SVG + "circle") if c.get("class") == "stop-disc"]
    assert len(rings) == len(ring_bores) == plate.tube_rings_per_hole() * b.holes and len(discs) == b.holes
    assert all(float(c.get("r")) == plate.HOLE_D / 2 for c in ring_bores)
    # every cut goes through: nothing drawn for an engraving to depth (no pocket)
    assert "pocket" not in plate.plate_svg(rows, 25)


def test_engraved_numbers_are_never_mirrored():
    text = plate.plate_svg(5, 25)
    assert "scale(" not in text and "matrix(" not in text and "rotate(" not in text
    root, layers = _layers(text)
    for t in root.iter(SVG + "text"):
        assert t.get("transform") is None
    for g in root.iter(SVG + "g"):
        assert (g.get("transform") or "translate").startswith("translate")
    top, base = layers["top"], layers["base"]
    assert top.get("data-view") == "above" and base.get("data-view") == "below"
    width = max(float(p.split(",")[0]) for p in top.find(SVG + "polygon").get("points").split()) + 1
    pos = {}
    for name, g in (("top", top), ("base", base)):
        pos[name] = {int(t.text): (float(t.get("x")), float(t.get("y")))
                     for t in g.iter(SVG + "text") if t.get("class") == "number"}
    assert set(pos["top"]) == set(pos["base"]) == set(range(1, 16))
    for h in range(1, 16):
        (xt, yt), (xb, yb) = pos["top"][h], pos["base"][h]
        assert xb == pytest.approx(width - xt, abs=1e-3) and yb == pytest.approx(yt)  # the place mirrored ...
    # ... read from above, hole 2 is left of hole 3; read from below, right of it: the digits upright both ways
    assert pos["top"][2][0] < pos["top"][3][0] and pos["base"][2][0] > pos["base"][3][0]
    from pegboard.hardware import pcb

    assert (ROOT / "hardware/plate-t5.svg").read_text() == plate.plate_svg(5, 25, screws=pcb.plate_screws())


def test_box_draws_every_layer():
    root, layers = _layers(box_svg())
    assert list(layers) == ["bottom"] + ["ring-%d" % n for n in range(1, RINGS + 1)]
    assert float(layers["bottom"].get("data-thickness")) == BOTTOM_T
    assert all(float(layers["ring-%d" % n].get("data-thickness")) == RING_T
               for n in range(1, RINGS + 1))
    notches = {k: g.find(SVG + "polygon").get("data-notch-width") for k, g in layers.items()}
    assert notches["ring-1"] == notches["ring-2"] == "%g" % USB_NOTCH[0]
    assert notches["ring-5"] == notches["ring-6"] == "%g" % BUTTON_NOTCH[0]
    assert notches["ring-3"] is None and notches["ring-4"] is None
    assert "%g mm plate" % plate_thickness() in (ROOT / "hardware/box-t5.svg").read_text()


@pytest.mark.parametrize("argv", [["--hole", "11"], ["--pitch", "17"], ["--margin", "11"]])
def test_plate_refuses_what_the_bores_do_not_fit(argv):
    kw = {"--hole": "hole", "--pitch": "pitch", "--margin": "margin"}
    with pytest.raises(ValueError):
        plate.plate_svg(**{kw[argv[0]]: float(argv[1])})
