"""The drawing of the section through one hole's axis, peg in and peg out, scale 4:1: the plate's
layers, the light tube, the stop disc and the pixel module under it, the light's path, a seated
player's sight lines and the figures the optics and the magnet's margins give (hardware/hole-section.svg)."""

from __future__ import annotations

import math

from pegboard.hardware.margins import sensor_margins
from pegboard.hardware.optics import ELEVATIONS, bottom_seen_above, deepest_seen, in_acrylic
from pegboard.hardware.plate import BORE_D, DISC_T, HOLE_D, LAYERS, TUBE_T, guide_depth
from pegboard.hardware.stack import (HALL_DEPTH, MAGNET, PEG_D, PEG_ROD, PIXEL_PCB_T, PIXEL_PCB_W, PIXEL_T, PIXEL_W,
                                     SENSOR, SENSOR_T, SENSOR_W, lean_deg, layer_tops, magnet_to_sensor,
                                     peg_above_board)
from pegboard.hardware.svg_draw import dim, pair, polyline, rect, sight

HALF = 22.0  # half a view's width: the plate's layers run this far either side of the axis

STYLE = ('<style>.wood{fill:#e6c99a;stroke:#333;stroke-width:0.15}.opal{fill:#f4f4ee;stroke:#333;stroke-width:0.15}'
         '.acrylic{fill:#cde;stroke:#333;stroke-width:0.15}.rod{fill:#dff0ff;stroke:#333;stroke-width:0.15}'
         '.frost{fill:#fff;stroke:#333;stroke-width:0.1}.magnet{fill:#999;stroke:#333;stroke-width:0.15}'
         '.pcb{fill:#3a6;stroke:#333;stroke-width:0.15}.chip{fill:#222}.led{fill:#fff;stroke:#333;'
         'stroke-width:0.15}.hall{stroke:#f00;stroke-width:0.3}.light{fill:none;stroke:#e8a000;stroke-width:0.3}'
         '.glow{stroke:#e8a000;stroke-width:0.3}.sight{fill:none;stroke:#06c;stroke-width:0.2;'
         'stroke-dasharray:1.2,0.8}.seen{fill:#06c}.sighttext{font:1.8px sans-serif;fill:#06c}'
         '.dim{stroke:#c00;stroke-width:0.12}.dimtext{font:1.8px sans-serif;fill:#c00}'
         '.title{font:bold 2.6px sans-serif}.note{font:2.2px sans-serif}</style>')


def _stack(out: list[str], cx: float, top: float) -> tuple[float, float]:
    """The parts every view cuts through: the plate's layers, the light tube's rings, the stop disc
    and the pixel module under it (pixel, its board, the sensor and its Hall element's line).
    Returns the pixel's top face (the light's source) and the Hall element's depth, as y."""
    r_hole, r_bore = HOLE_D / 2, BORE_D / 2
    g = guide_depth()
    for layer, y in zip(LAYERS, layer_tops().values(), strict=True):
        pair(out, "wood", cx, r_bore, HALF, top + y, layer.thickness, layer.name,
             ' data-layer="%s" data-thickness="%g"' % (layer.key, layer.thickness))
    for k in range(round(g / TUBE_T)):
        pair(out, "opal", cx, r_hole, r_bore, top + k * TUBE_T, TUBE_T, "light tube ring",
             ' data-thickness="%g"' % TUBE_T)
    rect(out, "acrylic", cx - r_bore, top + g, BORE_D, DISC_T, "stop disc", ' data-thickness="%g"' % DISC_T)
    led_y = top + g + DISC_T
    rect(out, "led", cx - PIXEL_W / 2, led_y, PIXEL_W, PIXEL_T, "pixel")
    pcb_y = led_y + PIXEL_T
    rect(out, "pcb", cx - PIXEL_PCB_W / 2, pcb_y, PIXEL_PCB_W, PIXEL_PCB_T, "pixel board")
    sen_y = pcb_y + PIXEL_PCB_T
    rect(out, "chip", cx - SENSOR_W / 2, sen_y, SENSOR_W, SENSOR_T, "sensor")
    hall_y = sen_y + HALL_DEPTH
    out.append('<line class="hall" x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>' % (cx - 0.6, hall_y, cx + 0.6, hall_y))
    return led_y, hall_y


def _rod_light(out: list[str], cx: float, top: float, src: tuple[float, float], mag_y: float, rod_y: float) -> None:
    """Peg in: the light up the disc and the magnet's core into the rod, guided to its sanded top,
    which glows."""
    r_peg = PEG_D / 2
    polyline(out, "light", [src, (cx, rod_y)])
    zig = [src, (cx + 0.5, top + guide_depth()), (cx + 1.2, mag_y), (cx + r_peg, mag_y - 8)]
    y, side = mag_y - 8, -1
    while y - 14 > rod_y:
        y -= 14
        zig.append((cx + side * r_peg, y))
        side = -side
    zig.append((cx + side * 1.0, rod_y))
    polyline(out, "light", zig)
    for a in (-60, -30, 0, 30, 60):
        dx, dy = math.sin(math.radians(a)), -math.cos(math.radians(a))
        polyline(out, "glow", [(cx + dx * 2.2, rod_y - 0.5 + dy * 0.5), (cx + dx * 4.5, rod_y - 0.5 + dy * 3)])


def _peg_in(out: list[str], cx: float, top: float, src: tuple[float, float], hall_y: float) -> None:
    """The peg standing in the hole: its magnet and rod, the light through them, the sight lines to
    its glowing top and its dimensions."""
    r_bore, r_peg = BORE_D / 2, PEG_D / 2
    g = guide_depth()
    far = cx - HALF - 2  # where the sight lines end, towards the player
    mag_y = top + g - MAGNET.length
    pair(out, "magnet", cx, MAGNET.d_in / 2, MAGNET.d_out / 2, mag_y, MAGNET.length, "ring magnet")
    rod_y = mag_y - PEG_ROD
    rect(out, "rod", cx - r_peg, rod_y, PEG_D, PEG_ROD, "peg")
    rect(out, "frost", cx - r_peg, rod_y, PEG_D, 1.0, "sanded top")
    _rod_light(out, cx, top, src, mag_y, rod_y)
    # what a player sees: the glowing top, over any peg in front
    for e in ELEVATIONS:
        sight(out, cx - r_peg, rod_y, e, far, "%g°: the glowing top" % e)
    dim(out, cx - r_peg, rod_y, cx + r_peg, rod_y, "Ø%g peg" % PEG_D, -5)
    dim(out, cx + r_peg, rod_y, cx + r_peg, top, "%g above the board" % peg_above_board(), 3)
    dim(out, cx + r_bore, mag_y, cx + r_bore, top + g, "%g ring magnet, Ø%g core"
        % (MAGNET.length, MAGNET.d_in), 2)
    dim(out, cx + HALF, top + g, cx + HALF, hall_y, "%.2f magnet to Hall element" % magnet_to_sensor(), 2)


def _peg_out(out: list[str], cx: float, top: float, src: tuple[float, float]) -> None:
    """The empty hole: the light up the bore and onto the tube's wall, the sight lines to the far
    wall's top and the tube's glowing rim, and the hole's dimensions."""
    r_hole, r_bore = HOLE_D / 2, BORE_D / 2
    g = guide_depth()
    far = cx - HALF - 2  # where the sight lines end, towards the player
    # light: up the empty bore; all but the steepest rays meet the tube's wall and light it
    polyline(out, "light", [src, (cx, top - 10)])
    for s in (-1, 1):
        th = math.radians(25)
        x0 = cx + s * DISC_T * math.tan(in_acrylic(th))
        yw = top + g - (r_hole - abs(x0 - cx)) / math.tan(th)
        polyline(out, "light", [src, (x0, top + g), (cx + s * r_hole, yw)])
        for k in range(3):
            polyline(out, "glow", [(cx + s * (r_hole + 0.8 + 1.2 * k), top - 0.5),
                                   (cx + s * (r_hole + 1.4 + 1.6 * k), top - 3)])
    # what a player sees: not the bottom, but the far wall's top and the tube's glowing rim
    for e in ELEVATIONS:
        d = deepest_seen(e)
        sight(out, cx + r_hole, top + d, e, far, "%g°: rim, %.2f down" % (e, d))
        out.append('<circle class="seen" cx="%.2f" cy="%.2f" r="0.5"/>' % (cx + r_hole, top + d))
    dim(out, cx - r_hole, top, cx + r_hole, top, "Ø%g hole" % HOLE_D, -5)
    dim(out, cx - r_bore, top, cx + r_bore, top, "Ø%g light tube" % BORE_D, -10)
    dim(out, cx + HALF, top, cx + HALF, top + g, "%g guide" % g, 2)
    dim(out, cx + r_bore, top + g, cx + r_bore, top + g + DISC_T, "%g disc" % DISC_T, 2)
    dim(out, cx - r_bore, top + g + DISC_T, cx + r_bore, top + g + DISC_T, "Ø%g stop disc" % BORE_D, 8)


def _view(out: list[str], cx: float, top: float, peg_in: bool) -> None:
    """One section through a hole's axis, its top face at y = top."""
    out.append('<g class="view" data-view="%s">' % ("peg-in" if peg_in else "peg-out"))
    out.append('<text class="title" x="%.2f" y="8" text-anchor="middle">%s</text>'
               % (cx, "PEG IN" if peg_in else "PEG OUT (an empty hole)"))
    led_y, hall_y = _stack(out, cx, top)
    src = (cx, led_y)
    if peg_in:
        _peg_in(out, cx, top, src, hall_y)
    else:
        _peg_out(out, cx, top, src)
    # the stack, on the left of each view
    for layer, y in zip(LAYERS, layer_tops().values(), strict=True):
        dim(out, cx - HALF, top + y, cx - HALF, top + y + layer.thickness, "%g %s" % (layer.thickness, layer.key), -1)
    out.append("</g>")


def _notes() -> list[str]:
    """The lines printed under the two views: the light, the sight lines, the peg and the field."""
    m = sensor_margins()
    return [
        "Light (orange): the pixel shines up through the clear stop disc. Peg in: through the ring magnet's "
        "Ø%g core into the clear peg," % MAGNET.d_in,
        "which guides it to its sanded top. Peg out: up the empty hole; rays more than %.0f° off the axis meet the "
        "opal light tube, whose rim glows." % math.degrees(math.atan(HOLE_D / 2 / guide_depth())),
        "Sight lines (blue) to a player ~50 cm away, 30° and 45° above the board: a peg's glowing top is never "
        "behind another peg (all stand equally tall);",
        "an empty hole's bottom is out of sight below %.0f°, but its glowing rim (Ø%g, wider than a peg) is in "
        "sight even behind a peg." % (bottom_seen_above(), BORE_D),
        "Peg: Ø%g clear acrylic rod %g long on a %s, axially magnetised; stands %g mm deep, leans at most %.1f° "
        "(atan %.1f/%g)." % (PEG_D, PEG_ROD, MAGNET.name(), guide_depth(), lean_deg(), HOLE_D - PEG_D,
                             guide_depth()),
        "Field at the Hall element (current-loop model, worst case): %.1f mT less %.1f mT from all the other pegs "
        "= %.1f mT, %.1f x the %s's BOP max %g mT." % (m.own, m.neighbours, m.own_net, m.operate, SENSOR.name,
                                                    SENSOR.bop_max),
        "At the next hole %.2f mT; all other pegs at once %.2f mT; a peg lying on the board %.2f mT: each under "
        "the %s's BRP min %g mT." % (m.next_hole, m.neighbours, m.lying, SENSOR.name, SENSOR.brp_min),
        "Computed from these dimensions and data-sheet figures (hardware/README.md, \"One hole, in section\"); "
        "no board has been built to it yet.",
    ]


def hole_section_svg() -> str:
    """The section through one hole's axis, peg in (left) and peg out (right), scale 4:1 (mm)."""
    top = 66.0
    w, h = 184.0, 128.0
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
           % (4 * w, 4 * h, w, h),
           '<title>pegboard: section through one hole, peg in and peg out (mm)</title>',
           STYLE]
    _view(out, 62.0, top, True)
    _view(out, 142.0, top, False)
    for i, n in enumerate(_notes()):
        out.append('<text class="note" x="3" y="%.1f">%s</text>' % (top + 30 + i * 3.2, n))
    out.append("</svg>")
    return "\n".join(out) + "\n"
