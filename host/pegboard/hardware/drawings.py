"""Dimensioned drawings for makers, from one set of numbers: the cross-section of one hole (peg,
magnet, plate, stop disc, pixel, sensor) and the box under the plate (stacked laser-cut rings with
the USB and button openings). All sizes in mm."""

from __future__ import annotations

import math

from pegcore.geometry import Board

from pegboard.hardware.plate import plate_outline

PLATE_T = 6.0        # top plate: 6 mm birch plywood or cast acrylic
HOLE_D = 6.5         # peg hole, cut through
POCKET_D = 12.0      # underside pocket (engraved)
POCKET_DEPTH = 3.0
DISC_T = 3.0         # stop disc: 3 mm clear or white acrylic, fills the pocket: the peg stands on it
PEG_D = 6.0          # peg: 6 mm hardwood dowel ...
PEG_WOOD = 27.0      # ... this long,
MAGNET_D = 6.0       # ... with a 6 x 3 mm disc magnet glued to its bottom end (same diameter:
MAGNET_T = 3.0       #     it passes the hole)
PIXEL_T = 1.6        # WS2812B 5050 body on its breakout
PIXEL_PCB_T = 1.6
PIXEL_PCB_W = 10.0
SENSOR_T = 1.1       # SOT-23 body (or a TO-92 laid flat)
SENSOR_W = 3.0

RING_T = 6.0         # box walls: rings of 6 mm plywood stacked under the plate
RINGS = 6
RING_WALL = 10.0     # wall width of each ring
BOTTOM_T = 3.0
USB_NOTCH = (12.0, 12.0)     # width, height: rings 1-2 (the bottom two), left edge
BUTTON_NOTCH = (14.0, 12.0)  # rings 5-6 (just under the plate), front edge


def magnet_to_sensor() -> float:
    """From the magnet's face to the top of the sensor, on the hole's axis."""
    return DISC_T + PIXEL_T + PIXEL_PCB_T


def field_on_axis_mt(z: float, br_mt: float = 1200.0) -> float:
    """On-axis flux density of a cylindrical magnet at distance z from its face (the standard
    formula for an axially magnetised cylinder; Br 1.2 T for grade N35)."""
    r, t = MAGNET_D / 2, MAGNET_T
    return br_mt / 2 * ((z + t) / math.hypot(r, z + t) - z / math.hypot(r, z))


def _dim(out: list[str], x1: float, y1: float, x2: float, y2: float, text: str, off: float) -> None:
    """A dimension line with arrows-as-ticks and its text, offset sideways by `off`."""
    if abs(x1 - x2) < 1e-9:  # vertical
        x = x1 + off
        out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x, y1, x, y2))
        for y in (y1, y2):
            out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x - 1, y, x + 1, y))
        if off < 0:  # on the left of what it measures: the text ends at the line, at its lower end
            out.append('<text x="%.2f" y="%.2f" class="dimtext" text-anchor="end">%s</text>' % (x - 1.5, y2, text))
        else:
            out.append('<text x="%.2f" y="%.2f" class="dimtext">%s</text>' % (x + 1.5, (y1 + y2) / 2 + 1, text))
    else:
        y = y1 + off
        out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x1, y, x2, y))
        for x in (x1, x2):
            out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x, y - 1, x, y + 1))
        out.append('<text x="%.2f" y="%.2f" class="dimtext" text-anchor="middle">%s</text>'
                   % ((x1 + x2) / 2, y - 1.5, text))


def _rect(out: list[str], cls: str, x: float, y: float, w: float, h: float, label: str = "") -> None:
    out.append('<rect class="%s" data-part="%s" x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>'
               % (cls, label or cls, x, y, w, h))


def hole_section_svg() -> str:
    """The cross-section through one hole's axis, scale 4:1 (units: mm)."""
    cx = 40.0
    top = 40.0  # y of the plate's top face
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="360mm" height="360mm" viewBox="0 0 90 90">',
           '<title>pegboard: section through one hole (mm)</title>',
           '<style>.wood{fill:#e6c99a;stroke:#333;stroke-width:0.15}.acrylic{fill:#cde;stroke:#333;'
           'stroke-width:0.15}.magnet{fill:#999;stroke:#333;stroke-width:0.15}.pcb{fill:#3a6;stroke:#333;'
           'stroke-width:0.15}.chip{fill:#222}.led{fill:#fff;stroke:#333;stroke-width:0.15}.dim{stroke:#c00;'
           'stroke-width:0.12}.dimtext{font:2px sans-serif;fill:#c00}.note{font:2.2px sans-serif}</style>']
    # plate: two halves either side of the hole, the pocket cut from below
    half = 30.0
    hole_r, pocket_r = HOLE_D / 2, POCKET_D / 2
    upper = PLATE_T - POCKET_DEPTH
    _rect(out, "wood", cx - half, top, half - hole_r, upper, "plate")
    _rect(out, "wood", cx + hole_r, top, half - hole_r, upper, "plate")
    _rect(out, "wood", cx - half, top + upper, half - pocket_r, POCKET_DEPTH, "plate")
    _rect(out, "wood", cx + pocket_r, top + upper, half - pocket_r, POCKET_DEPTH, "plate")
    disc_y = top + upper
    _rect(out, "acrylic", cx - pocket_r, disc_y, POCKET_D, DISC_T, "stop disc")
    # the peg stands on the disc: its magnet in the hole
    mag_y = disc_y - MAGNET_T
    _rect(out, "magnet", cx - MAGNET_D / 2, mag_y, MAGNET_D, MAGNET_T, "magnet")
    _rect(out, "wood", cx - PEG_D / 2, mag_y - PEG_WOOD, PEG_D, PEG_WOOD, "peg")
    # under the disc: the pixel, LED up, then the sensor on the back of its board
    led_y = disc_y + DISC_T
    _rect(out, "led", cx - 2.5, led_y, 5.0, PIXEL_T, "pixel")
    pcb_y = led_y + PIXEL_T
    _rect(out, "pcb", cx - PIXEL_PCB_W / 2, pcb_y, PIXEL_PCB_W, PIXEL_PCB_T, "pixel board")
    sen_y = pcb_y + PIXEL_PCB_T
    _rect(out, "chip", cx - SENSOR_W / 2, sen_y, SENSOR_W, SENSOR_T, "sensor")
    # dimensions
    _dim(out, cx - half, top, cx - half, top + PLATE_T, "%g" % PLATE_T, -3)
    _dim(out, cx + half, top + upper, cx + half, top + PLATE_T, "%g pocket, %g disc" % (POCKET_DEPTH, DISC_T), 2)
    _dim(out, cx - hole_r, top, cx + hole_r, top, "Ø%g hole" % HOLE_D, -30)
    _dim(out, cx - pocket_r, top + PLATE_T, cx + pocket_r, top + PLATE_T, "Ø%g pocket" % POCKET_D, 14)
    _dim(out, cx + PEG_D / 2, mag_y - PEG_WOOD, cx + PEG_D / 2, mag_y, "%g peg" % PEG_WOOD, 8)
    _dim(out, cx + MAGNET_D / 2, mag_y, cx + MAGNET_D / 2, disc_y, "%g magnet" % MAGNET_T, 14)
    gap = magnet_to_sensor()
    _dim(out, cx - SENSOR_W / 2, disc_y, cx - SENSOR_W / 2, sen_y, "%.1f magnet to sensor" % gap, -8)
    notes = ["from the top: peg (wood), magnet (grey), plate (wood), stop disc (blue), pixel LED up (white),",
             "pixel board (green), hall sensor (black) on the hole's axis",
             "peg: Ø%g dowel %g long + Ø%gx%g magnet glued to its end" % (PEG_D, PEG_WOOD, MAGNET_D, MAGNET_T),
             "a plain Ø%g dowel would fall through the Ø%g hole: the disc stops it" % (PEG_D, HOLE_D),
             "field at the sensor ~%.0f mT (N35, on axis)" % field_on_axis_mt(gap)]
    for i, n in enumerate(notes):
        out.append('<text class="note" x="4" y="%.1f">%s</text>' % (72 + i * 3.2, n))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _inset(outline: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """An equilateral triangle moved in by d on every edge (vertices move 2d toward the centre)."""
    cx = sum(p[0] for p in outline) / 3
    cy = sum(p[1] for p in outline) / 3
    out = []
    for x, y in outline:
        r = math.hypot(x - cx, y - cy)
        out.append((x - (x - cx) / r * 2 * d, y - (y - cy) / r * 2 * d))
    return out


def ring_with_notch(outline: list[tuple[float, float]], window: list[tuple[float, float]], edge: int,
                    width: float) -> list[tuple[float, float]]:
    """One closed cut path: the ring between `outline` and `window` with a gap `width` wide in the
    middle of edge `edge` (from corner edge to corner edge+1): a C shape."""
    i, j, k = edge, (edge + 1) % 3, (edge + 2) % 3
    (ax, ay), (bx, by) = outline[i], outline[j]
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length * width / 2, (by - ay) / length * width / 2
    mx, my = (ax + bx) / 2, (ay + by) / 2
    nx, ny = (window[i][0] + window[j][0]) / 2, (window[i][1] + window[j][1]) / 2
    p1, p2 = (mx - ux, my - uy), (mx + ux, my + uy)
    q1, q2 = (nx - ux, ny - uy), (nx + ux, ny + uy)
    return [p2, outline[j], outline[k], outline[i], p1, q1, window[i], window[k], window[j], q2]


def box_svg(rows: int = 5, pitch: float = 25.0, margin: float = 20.0) -> str:
    """Laser-cut parts of the box under the plate: the bottom (the plate's outline) and the two
    kinds of ring (outline less a window leaving the wall): rings 1-2 have the USB notch in the
    left wall, rings 5-6 the button notch in the front wall, rings 3-4 none."""
    outline = plate_outline(Board(rows), pitch, margin)
    window = _inset(outline, RING_WALL)
    side = math.dist(outline[0], outline[1])
    h = max(p[1] for p in outline) + 2
    w = max(p[0] for p in outline) + 2
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="0 0 %.3f %.3f">'
           % (4 * w, h + 30, 4 * w, h + 30),
           '<title>pegboard box: bottom and rings (mm), cut lines red</title>']

    def poly(pts: list[tuple[float, float]], ox: float, attrs: str) -> str:
        return '<polygon %s points="%s" fill="none" stroke="red" stroke-width="0.1"/>' % (
            attrs, " ".join("%.3f,%.3f" % (x + ox, y) for x, y in pts))

    out.append(poly(outline, 0, 'class="bottom"'))
    out.append('<text x="%.1f" y="%.1f" font-size="5" text-anchor="middle">bottom, %g mm plywood, x1</text>'
               % (w / 2, h + 8, BOTTOM_T))
    parts = (("rings 1-2: USB notch", USB_NOTCH, 0), ("rings 3-4", None, None), ("rings 5-6: button notch",
                                                                                   BUTTON_NOTCH, 1))
    for n, (name, notch, edge) in enumerate(parts, 1):
        ox = w * n
        if notch is None or edge is None:
            out.append(poly(outline, ox, 'class="ring"') + poly(window, ox, 'class="ring-window"'))
        else:
            out.append(poly(ring_with_notch(outline, window, edge, notch[0]), ox,
                            'class="ring" data-notch-width="%g" data-notch-height="%g"' % notch))
        out.append('<text x="%.1f" y="%.1f" font-size="5" text-anchor="middle">%s, %g mm plywood, x2</text>'
                   % (ox + w / 2, h + 8, name, RING_T))
    out.append('<text x="4" y="%.1f" font-size="4">%d rings (walls %g mm) stacked and glued under the plate: '
               'a box %g mm deep inside; plate side %.1f mm. The notches of two rings make openings %gx%g mm '
               '(USB, bottom of the left wall) and %gx%g mm (button, top of the front wall).</text>'
               % (h + 20, RINGS, RING_WALL, RINGS * RING_T, side, USB_NOTCH[0], USB_NOTCH[1],
                  BUTTON_NOTCH[0], BUTTON_NOTCH[1]))
    out.append("</svg>")
    return "\n".join(out) + "\n"
