"""The box under the plate: laser-cut plywood rings stacked on a bottom, the USB and button notches
cut in two rings each, and the box's inner outline (its window) that the boards inside must keep
within; drawn as the cutting sheet hardware/box-t5.svg. All sizes in mm."""

from __future__ import annotations

import math

from pegcore.geometry import Board

from pegboard.hardware import triangle
from pegboard.hardware.plate import plate_outline
from pegboard.hardware.stack import PITCH, plate_thickness

RING_T = 6.0         # box walls: rings of 6 mm plywood stacked under the plate
RINGS = 6
RING_WALL = 6.0      # wall width of each ring: 6 mm leaves the controller's perfboard room (controller_rect)
BOTTOM_T = 3.0
USB_NOTCH = (12.0, 12.0)     # width, height: rings 1-2 (the bottom two), left edge
USB_EDGE = 0                 # the outline's edge 0 (its top corner to its bottom-left): the left wall
BUTTON_NOTCH = (14.0, 12.0)  # rings 5-6 (just under the plate), front edge


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


def box_window(rows: int = 5, pitch: float = PITCH, margin: float = 20.0,
               inset: float = RING_WALL) -> list[tuple[float, float]]:
    """The box's inner outline: the plate's outline moved in by the rings' wall (box_svg's window);
    or by `inset`."""
    return triangle.inset(plate_outline(Board(rows), pitch, margin), inset)


def usb_opening(rows: int = 5, pitch: float = PITCH, margin: float = 20.0) -> tuple[float, float]:
    """The middle of the USB notch on the wall's inner face (ring_with_notch cuts it mid-edge)."""
    w = box_window(rows, pitch, margin)
    a, b = w[USB_EDGE], w[(USB_EDGE + 1) % 3]
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def box_layers() -> list[tuple[str, str, float, tuple[float, float] | None, int | None]]:
    """The box's layers from the bottom up: (key, name, thickness, notch (width, height), edge)."""
    out: list[tuple[str, str, float, tuple[float, float] | None, int | None]] = [
        ("bottom", "bottom", BOTTOM_T, None, None)]
    for n in range(1, RINGS + 1):
        notch, edge = (USB_NOTCH, USB_EDGE) if n <= 2 else (BUTTON_NOTCH, 1) if n > RINGS - 2 else (None, None)
        what = ": USB notch" if edge == USB_EDGE else ": button notch" if edge == 1 else ""
        out.append(("ring-%d" % n, "ring %d%s" % (n, what), RING_T, notch, edge))
    return out


def box_svg(rows: int = 5, pitch: float = PITCH, margin: float = 20.0) -> str:
    """Laser-cut parts of the box under the plate, every layer in its own group from the bottom
    up: the bottom (the plate's outline) and rings 1-6 (outline less a window leaving the wall):
    rings 1-2 have the USB notch in the left wall, rings 5-6 the button notch in the front wall."""
    outline = plate_outline(Board(rows), pitch, margin)
    window = triangle.inset(outline, RING_WALL)
    side = math.dist(outline[0], outline[1])
    h = max(p[1] for p in outline) + 14
    w = max(p[0] for p in outline) + 2
    layers = box_layers()
    cols = 4
    grid_h = math.ceil(len(layers) / cols) * h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="0 0 %.3f %.3f">'
           % (cols * w, grid_h + 20, cols * w, grid_h + 20),
           '<title>pegboard box: bottom and rings, every layer (mm), cut lines red</title>']

    def poly(pts: list[tuple[float, float]], attrs: str) -> str:
        return '<polygon %s points="%s" fill="none" stroke="red" stroke-width="0.1"/>' % (
            attrs, " ".join("%.3f,%.3f" % p for p in pts))

    for n, (key, name, thick, notch, edge) in enumerate(layers):
        ox, oy = (n % cols) * w, (n // cols) * h
        out.append('<g class="layer" id="box-%s" data-layer="%s" data-thickness="%g" transform="translate(%.3f,%.3f)">'
                   % (key, key, thick, ox, oy))
        if key == "bottom":
            out.append(poly(outline, 'class="bottom"'))
        elif notch is None or edge is None:
            out.append(poly(outline, 'class="ring"') + poly(window, 'class="ring-window"'))
        else:
            out.append(poly(ring_with_notch(outline, window, edge, notch[0]),
                            'class="ring" data-notch-width="%g" data-notch-height="%g"' % notch))
        out.append('<text x="%.1f" y="%.1f" font-size="5" text-anchor="middle">%d. %s, %g mm plywood</text>'
                   % (w / 2, h - 6, n + 1, name, thick))
        out.append("</g>")
    out.append('<text x="4" y="%.1f" font-size="4">Bottom up: the bottom, then %d rings (walls %g mm) glued under '
               'the %g mm plate: a box %g mm deep inside; plate side %.1f mm. The notches of two rings make '
               'openings %gx%g mm (USB, bottom of the left wall) and %gx%g mm (button, top of the front wall).</text>'
               % (grid_h + 10, RINGS, RING_WALL, plate_thickness(), RINGS * RING_T, side, USB_NOTCH[0], USB_NOTCH[1],
                  BUTTON_NOTCH[0], BUTTON_NOTCH[1]))
    out.append("</svg>")
    return "\n".join(out) + "\n"
