"""The printed circuit board: one triangle under the plate carrying each hole's pixel (top, against
the plate's underside, as the section drawing has it) and Hall sensor (bottom, on the pixel's
axis), with the Pico on two sockets underneath and the level shifter, the soft start, the
button's header and the piezo's (with its resistor) beside it. Its parts and nets are the
schematic model's (schematic.build, the printed variant): one source for the SVG schematics and
this board's netlist. Every position comes from the plate's own hole geometry; the tracks from the
grid router. Two layers; the spare copper of both is a ground pour that KiCad fills
(pegboard.hardware.kicad_check)."""

from __future__ import annotations

import math
import tomllib
from typing import NamedTuple

from pegcore.geometry import Board

from pegboard.hardware import footprints as fp
from pegboard.hardware.boards import board_file
from pegboard.hardware.box import RING_WALL, box_window
from pegboard.hardware.plate import DISC_T, LAYERS, holes_on_plate
from pegboard.hardware.router import PITCH as GRID, WIDTHS, Grid, Rect, RouteError, Router, Segment
from pegboard.hardware.schematic import Pin, Schematic, build
from pegboard.hardware.stack import PITCH, PIXEL_T
from pegboard.hardware.triangle import inside_triangle

BOARD_FILE = "pico-gpio"  # the firmware's settings this board is wired for
PLATE_MARGIN = 20.0  # the plate's margin round the holes (pegboard hardware plate)
BOX_GAP = 1.0  # the board's edge inside the box's walls
POWER_NETS = ("GND", "5V", "3V3", "VBUS")
SENSOR_PACKAGE = "SOT-23"
TALLEST_TOP = 1.6  # mm: nothing on the top side is taller than the pixels, which rest on the plate


class Placed(NamedTuple):
    ref: str
    footprint: fp.Footprint
    x: float
    y: float
    rot: int  # degrees, counter-clockwise seen from the top
    side: str  # "F" (top) or "B" (bottom)


def outline(rows: int = 5) -> list[tuple[float, float]]:
    """The board's edge: the box's inside, less BOX_GAP all round."""
    return box_window(rows, PITCH, PLATE_MARGIN, RING_WALL + BOX_GAP)


def holes(rows: int = 5) -> list[tuple[float, float]]:
    """Each hole's centre in the board's frame (the plate's: x right, y down, mm)."""
    return holes_on_plate(Board(rows), PITCH, PLATE_MARGIN)


def schematic() -> Schematic:
    with open(board_file(BOARD_FILE), "rb") as f:
        settings = tomllib.load(f)
    return build(settings, "pegboard printed board, %s, USB" % BOARD_FILE, pico=True, supply="usb", printed=True)


def placement(rows: int = 5) -> list[Placed]:
    """Where every part of the schematic goes."""
    centres = holes(rows)
    out: list[Placed] = []
    for h, (x, y) in enumerate(centres, 1):
        out.append(Placed("D%d" % h, fp.WS2812B, x, y, 180, "F"))
        out.append(Placed("CD%d" % h, fp.C0603, x, round(y - 3.7, 3), 180, "F"))
        out.append(Placed("S%d" % h, fp.SOT23, x, y, 180, "B"))
        out.append(Placed("CS%d" % h, fp.C0603, x, round(y + 3.0, 3), 180, "B"))
    # the Pico lies across the board between hole rows 2-3 and 3-4 (its sockets miss every hole's
    # parts), USB end towards the left wall
    x1 = (centres[3][0] + centres[5][0]) / 2
    y_rows = sorted({y for _, y in centres})
    mid = (y_rows[1] + y_rows[2]) / 2 + 8.89
    # the Pico on its two sockets: J2 carries its pins 1..20 (socket pin n: Pico pin n), J3 its
    # pins 21..40 (socket pin n: Pico pin 20 + n): J2's pin 1 by the USB end, J3's at the far end
    out.append(Placed("J2", fp.SOCKET_1X20, round(x1 - 24.13, 3), round(mid - 8.89, 3), 270, "B"))
    out.append(Placed("J3", fp.SOCKET_1X20, round(x1 + 24.13, 3), round(mid + 8.89, 3), 90, "B"))
    left, right = x1 - 24.13, x1 + 24.13
    low = mid + 8.89
    out.append(Placed("U5", fp.SOT23_6, round(left + 1.0, 3), round(low + 5.7, 3), 180, "B"))
    out.append(Placed("C2", fp.C0603, round(left + 6.0, 3), round(low + 5.2, 3), 270, "B"))
    out.append(Placed("C3", fp.C0603, round(left - 2.4, 3), round(low + 8.9, 3), 180, "B"))
    out.append(Placed("C1", fp.CP_6_3, round(left - 8.6, 3), round(low + 4.4, 3), 180, "B"))
    out.append(Placed("U2", fp.SOIC14, round(right + 8.5, 3), round(low + 4.5, 3), 180, "B"))
    out.append(Placed("CU2", fp.C0603, round(right + 3.0, 3), round(low + 6.5, 3), 270, "B"))
    out.append(Placed("R1", fp.R0603, round(right + 3.3, 3), round(low + 2.4, 3), 180, "B"))
    # the piezo's resistor beside its pin (GP17, the Pico's pin 22), and its wires' header
    out.append(Placed("R2", fp.R0603, round(x1 + 19.1, 3), round(low + 3.9, 3), 270, "B"))
    out.append(Placed("BZ1", fp.HEADER_1X2, round(x1 + 15.4, 3), round(low + 4.9, 3), 90, "B"))
    bottom = y_rows[-1]
    out.append(Placed("SW1", fp.HEADER_1X2, round((centres[-3][0] + centres[-4][0]) / 2 - 1.27, 3),
                      round(bottom + 5.7, 3), 90, "B"))
    return out


PICO_LENGTH = 51.0  # mm, the Pico's board (Raspberry Pi, Pico datasheet, "Mechanical specification")


def usb_to_wall(rows: int = 5) -> float:
    """How far the Pico's USB end is from the box's inner wall, along the Pico's axis (mm)."""
    left, right = (p for p in placement(rows) if p.ref in ("J2", "J3"))
    pico_x, pico_y = (left.x + right.x) / 2, (left.y + right.y) / 2
    x_end = pico_x - PICO_LENGTH / 2  # the USB end points left, along -x
    (ax, ay), (bx, by) = box_window(rows, PITCH, PLATE_MARGIN)[:2]  # the left wall
    x_wall = ax + (bx - ax) * (pico_y - ay) / (by - ay)
    return round(x_end - x_wall, 1)


def spacer() -> float:
    """The spacer between the board's top face and the base plate's underside that puts each
    pixel's top against its stop disc, as the section drawing (and so every field figure) has it:
    the stop disc fills the top of the base plate's bore, and the pixel rises into the rest."""
    base = next(layer for layer in LAYERS if layer.key == "base")
    return round(PIXEL_T - (base.thickness - DISC_T), 3)


TAIL_CLEARANCE = 0.2  # mm left between a trimmed pin tail (or its joint) and the base plate


def tail_trim() -> float:
    """How far the through-hole pins' tails (the sockets', the headers') may stand above the
    board's top face, soldered and trimmed: they stand under solid wood."""
    return round(spacer() - TAIL_CLEARANCE, 3)


SCREW_PILOT = 2.5  # mm: an M3 screw's pilot hole in plywood (the base plate and into the guide plate)


def mounting_holes(rows: int = 5) -> list[tuple[float, float]]:
    """One M3 hole in each corner, 9 mm from it."""
    pts = outline(rows)
    cx = sum(p[0] for p in pts) / 3
    cy = sum(p[1] for p in pts) / 3
    out = []
    for x, y in pts:
        r = math.hypot(x - cx, y - cy)
        out.append((round(x - (x - cx) / r * 9.0, 3), round(y - (y - cy) / r * 9.0, 3)))
    return out


def pad_at(p: Placed, pad: fp.Pad) -> tuple[float, float, float, float]:
    """A pad's centre and half sizes on the board. A bottom part is the library's footprint
    flipped as KiCad flips it (about its x axis: y negated), then turned by its rotation
    (counter-clockwise seen from the top)."""
    ly = -pad.y if p.side == "B" else pad.y
    a = math.radians(p.rot)
    c, s = round(math.cos(a)), round(math.sin(a))
    x = p.x + pad.x * c + ly * s
    y = p.y - pad.x * s + ly * c
    hw, hh = (pad.w / 2, pad.h / 2) if p.rot % 180 == 0 else (pad.h / 2, pad.w / 2)
    return round(x, 4), round(y, 4), hw, hh


def pad_number(pin: Pin) -> str:
    """The pin's pad number on this board: where the schematic numbers it per package
    ("1/1": SOT-23/TO-92), the SOT-23's (the sensors here are surface mount)."""
    if pin.package:
        return pin.number.split("/")[pin.package.split("/").index(SENSOR_PACKAGE)]
    return pin.number


def pads(parts: list[Placed], s: Schematic) -> list[tuple[Placed, fp.Pad, Rect]]:
    nets = {(pin.part, pad_number(pin)): pin.net for pin in s.pins}
    out = []
    for p in parts:
        for pad in p.footprint.pads:
            net = nets.get((p.ref, pad.number), "")
            x, y, hw, hh = pad_at(p, pad)
            out.append((p, pad, Rect(x, y, hw, hh, p.side, net if net != "NC" else "", pad.drill is not None,
                                    pad.shape in ("circle", "oval") and pad.w == pad.h)))
    return out


ROUTE_ORDER = ("DIN", "PIXEL", "HOLE", "BUTTON", "PIEZO", "CT", "VBUS", "GND", "3V3", "5V")


Routed = tuple[list[Placed], list[tuple[Placed, fp.Pad, Rect]], Router]
_routed: dict[tuple[int, int], Routed] = {}  # deterministic, so a second ask in one process is the first's answer


def route(rows: int = 5, attempts: int = 24) -> Routed:
    """Route every net; when a net finds no way through, the board is routed again from scratch
    with the nets that failed most often first (deterministic: the same parts give the same
    tracks, so the work, a minute or more, is done once a process)."""
    if (rows, attempts) not in _routed:
        _routed[rows, attempts] = _route(rows, attempts)
    return _routed[rows, attempts]


def _route(rows: int, attempts: int) -> Routed:
    s = schematic()
    parts = placement(rows)
    placed = pads(parts, s)
    by_net: dict[str, list[Rect]] = {}
    for _, _, r in placed:
        if r.net:
            by_net.setdefault(r.net, []).append(r)

    def rank(net: str) -> tuple[int, str]:
        for i, start in enumerate(ROUTE_ORDER):
            if net.startswith(start):
                return (i, net)
        return (len(ROUTE_ORDER), net)

    nets = [n for n in by_net if len(by_net[n]) > 1]
    fails: dict[str, int] = {}
    for _ in range(attempts):
        router = _router(rows, placed)
        try:
            for net in sorted(nets, key=lambda n: (-fails.get(n, 0), rank(n))):
                router.route(net, by_net[net], WIDTHS["power" if net in POWER_NETS else "signal"])
            return parts, placed, router
        except RouteError as e:
            fails[e.net] = fails.get(e.net, 0) + 1
            failed = e
    raise failed


def _router(rows: int, placed: list[tuple[Placed, fp.Pad, Rect]]) -> Router:
    edge = outline(rows)
    xs, ys = [p[0] for p in edge], [p[1] for p in edge]
    # the grid runs through the Pico's pins (and so through the gaps between them)
    px, py = next((r.x, r.y) for p, pad, r in placed if p.ref == "J2" and pad.number == "1")
    x0 = px - math.ceil((px - min(xs)) / GRID) * GRID
    y0 = py - math.ceil((py - min(ys)) / GRID) * GRID
    grid = Grid(x0, y0, max(xs), max(ys), lambda x, y, room: inside_triangle([(x, y)], edge) >= room)
    for x, y in mounting_holes(rows):
        r = fp.MOUNTING_HOLE_D / 2
        grid.claim("FB", "#hole", lambda px, py, x=x, y=y: math.hypot(px - x, py - y), r + 0.25 + 0.2, (x, y, x, y),
                   r + 0.25 + 0.3)
    router = Router(grid, [r for _, _, r in placed])
    for part, a, b in BRIDGES:
        router.bridge(*_bridge([p for p in placed if p[0].ref == part], a, b))
    return router


# Pins of one net on one side of a package with another net's pin between them (TPS22918: VIN and
# ON round GND): joined by a track under the package's body, between its two rows of pads.
BRIDGES = (("U5", "1", "3"),)


def _bridge(part_pads: list[tuple[Placed, fp.Pad, Rect]], a: str, b: str) -> tuple[list[Segment], list[Rect]]:
    (pa, ra), (pb, rb) = [(pad, r) for _, pad, r in part_pads if pad.number in (a, b)]
    placed = part_pads[0][0]
    cx, cy = placed.x, placed.y
    width = WIDTHS["power" if ra.net in POWER_NETS else "signal"]
    if placed.rot % 180:  # pads in rows along y: the track runs along the body's axis
        pts = [(ra.x, ra.y), (ra.x, cy), (rb.x, cy), (rb.x, rb.y)]
    else:
        pts = [(ra.x, ra.y), (cx, ra.y), (cx, rb.y), (rb.x, rb.y)]
    segs = [Segment(placed.side, x1, y1, x2, y2, width, ra.net)
            for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False)]
    return segs, [ra, rb]


def plate_screws(rows: int = 5) -> tuple[tuple[float, float, float], ...]:
    """The plate's pilot holes for the board's M3 screws, at its mounting holes (the plate's frame
    is the board's)."""
    return tuple((x, y, SCREW_PILOT) for x, y in mounting_holes(rows))
