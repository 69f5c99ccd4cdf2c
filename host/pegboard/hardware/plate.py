"""The laser-cut plate as plain SVG (mm): every layer of its stack, each in its own group, and the
acrylic parts that go into every hole.

The plate is three plywood layers glued into one, all cut through with the same bores (no pocket
to engrave to depth, so nothing to mirror): the top and guide plates hold each hole's light tube
(two rings of opal acrylic, outer diameter the bore, inner the peg hole) that guides the peg
12 mm deep; the base plate holds the clear stop disc the peg stands on, with the pixel pressed
against it from below. Hole numbers are engraved on the top plate's top face (drawn as seen from
above) and on the base plate's underside (drawn as seen from below, where the pixels are wired:
positions mirrored, the digits themselves never)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pegcore.geometry import Board

HOLE_D = 6.5      # the peg hole: the light tube's bore (a 6 mm peg, 0.5 mm play)
BORE_D = 14.0     # cut through all three plates: the light tube and the stop disc fill it
TUBE_T = 6.0      # light tube rings: 6 mm opal (white translucent) cast acrylic
DISC_T = 2.0      # stop disc: 2 mm clear cast acrylic, as wide as the bore
NUMBER_SIZE = 3.5


@dataclass(frozen=True)
class Layer:
    """One plywood layer of the plate, top first."""

    key: str
    name: str
    material: str
    thickness: float
    engrave: str  # which face carries the engraved hole numbers: "top", "underside" or ""
    holds: str


LAYERS = (
    Layer("top", "top plate", "6 mm birch plywood", 6.0, "top", "the upper light-tube ring"),
    Layer("guide", "guide plate", "6 mm birch plywood", 6.0, "", "the lower light-tube ring"),
    Layer("base", "base plate", "3 mm birch plywood", 3.0, "underside",
          "the stop disc (top 2 mm of the bore); the pixel's body fits under it"),
)


def guide_depth() -> float:
    """How deep a peg stands: the light tube's height, top plate plus guide plate, down to the
    stop disc."""
    return sum(layer.thickness for layer in LAYERS if layer.key in ("top", "guide"))


def tube_rings_per_hole() -> int:
    return round(guide_depth() / TUBE_T)


def hole_centres(board: Board, pitch: float, margin: float) -> list[tuple[float, float]]:
    """Centre of each hole in mm, hole 1 at the top; rows are pitch * sin(60°) apart."""
    dy = pitch * math.sqrt(3) / 2
    width = (board.rows - 1) * pitch + 2 * margin
    out = []
    for h in range(1, board.holes + 1):
        r, c = board.row_col(h)
        x = width / 2 + (c - r / 2) * pitch
        y = margin + r * dy
        out.append((round(x, 3), round(y, 3)))
    return out


def _outline(board: Board, raw: list[tuple[float, float]],
             margin: float) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """The triangle of hole centres with every edge pushed out by `margin`, moved so it starts
    1 mm from the origin; and that move."""
    rows = board.rows
    corners = [raw[0], raw[board.holes - rows], raw[board.holes - 1]]
    cx = sum(p[0] for p in corners) / 3
    cy = sum(p[1] for p in corners) / 3
    outline = []
    for x, y in corners:
        d = math.hypot(x - cx, y - cy)
        # an equilateral triangle's vertex moves 2 * margin when each edge moves out by margin
        outline.append((x + (x - cx) / d * 2 * margin, y + (y - cy) / d * 2 * margin))
    ox = -min(p[0] for p in outline) + 1
    oy = -min(p[1] for p in outline) + 1
    return [(x + ox, y + oy) for x, y in outline], (ox, oy)


def plate_outline(board: Board, pitch: float, margin: float) -> list[tuple[float, float]]:
    """The plate's outline (top, bottom-left, bottom-right corner) as plate_svg draws it."""
    return _outline(board, hole_centres(board, pitch, 0.0), margin)[0]


def holes_on_plate(board: Board, pitch: float, margin: float) -> list[tuple[float, float]]:
    """Each hole's centre in the plate's frame (plate_outline's and plate_svg's)."""
    raw = hole_centres(board, pitch, 0.0)
    ox, oy = _outline(board, raw, margin)[1]
    return [(round(x + ox, 3), round(y + oy, 3)) for x, y in raw]


def _circle(cls: str, x: float, y: float, d: float, extra: str = "") -> str:
    return ('<circle class="%s"%s cx="%.3f" cy="%.3f" r="%.3f" fill="none" stroke="red" stroke-width="0.1"/>'
            % (cls, extra, x, y, d / 2))


def plate_svg(rows: int = 5, pitch: float = 25.0, hole: float = HOLE_D, bore: float = BORE_D,
              margin: float = 20.0, screws: tuple[tuple[float, float, float], ...] = ()) -> str:
    """Every layer of the plate, side by side, each in its own group (`<g class="layer">`): cut
    lines red (outline and bores, all through), engraved hole numbers black; then the acrylic
    parts: the light-tube rings (two per hole) and the stop discs. The outline is the triangle of
    hole centres with every edge pushed out by `margin`. `screws`: (x, y, diameter) holes cut
    through the base and guide plates for the printed board's screws (pcb.plate_screws)."""
    if not bore - hole >= 4:
        raise ValueError("the peg hole must be at least 4 mm narrower than the %g mm bore (2 mm walls)" % bore)
    if not bore + 4 <= pitch <= 80:
        raise ValueError("pitch must be between the %g mm bore + 4 mm and 80 mm" % bore)
    if not bore / 2 + 5 <= margin <= 100:
        raise ValueError("margin must be at least half the %g mm bore + 5 mm (and at most 100 mm)" % bore)
    board = Board(rows)
    raw = hole_centres(board, pitch, 0.0)
    outline, (ox, oy) = _outline(board, raw, margin)
    centres = [(x + ox, y + oy) for x, y in raw]
    width = max(p[0] for p in outline) + 1
    height = max(p[1] for p in outline) + 1
    gap = 10.0
    n_rings = tube_rings_per_hole() * board.holes
    per_row = max(1, int((width - 2) // (bore + 2)))
    parts_rows = math.ceil(n_rings / per_row) + math.ceil(board.holes / per_row)
    total_w = len(LAYERS) * (width + gap) + width
    total_h = max(height, parts_rows * (bore + 2) + 2) + 14
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="0 0 %.3f %.3f">'
           % (total_w, total_h, total_w, total_h),
           '<title>pegboard plate: %d rows, %.1f mm pitch; every layer, cut red, engrave black</title>'
           % (rows, pitch)]
    for i, layer in enumerate(LAYERS):
        dx = i * (width + gap)
        below = layer.engrave == "underside"  # drawn as seen from below: positions mirrored
        out.append('<g class="layer" id="layer-%s" data-layer="%s" data-thickness="%g" data-material="%s" '
                   'data-view="%s" transform="translate(%.3f,0)">'
                   % (layer.key, layer.key, layer.thickness, layer.material, "below" if below else "above", dx))
        pts = [(width - x if below else x, y) for x, y in outline]
        out.append('<polygon class="outline" points="%s" fill="none" stroke="red" stroke-width="0.1"/>'
                   % " ".join("%.3f,%.3f" % p for p in pts))
        for h, (x, y) in enumerate(centres, 1):
            x = width - x if below else x
            out.append(_circle("bore", x, y, bore, ' data-hole="%d"' % h))
            if layer.engrave:
                out.append('<text class="number" data-hole="%d" x="%.3f" y="%.3f" font-size="%g" '
                           'text-anchor="middle" font-family="sans-serif">%d</text>'
                           % (h, x, y + bore / 2 + 4, NUMBER_SIZE, h))
        if layer.key in ("base", "guide"):
            for n, (x, y, d) in enumerate(screws, 1):
                out.append(_circle("screw", width - x if below else x, y, d, ' data-screw="%d"' % n))
        face = {"top": "numbers engraved on this face, seen from above",
                "underside": "cut and engrave with the underside up: numbers read from below, where the pixels "
                             "go"}.get(layer.engrave, "no engraving")
        out.append('<text class="label" x="%.1f" y="%.1f" font-size="3.5">%d. %s: %s. %s</text>'
                   % (2, height + 6, i + 1, layer.name, layer.material, face))
        out.append("</g>")
    # the acrylic parts, nested in rows
    dx = len(LAYERS) * (width + gap)
    out.append('<g class="parts" id="acrylic-parts" transform="translate(%.3f,0)">' % dx)
    step = bore + 2
    k = 0
    out.append('<g class="layer" id="layer-tube" data-layer="tube" data-thickness="%g" '
               'data-material="6 mm opal acrylic">' % TUBE_T)
    for _ in range(n_rings):
        x, y = 1 + step / 2 + (k % per_row) * step, 1 + step / 2 + (k // per_row) * step
        out.append(_circle("tube-ring", x, y, bore) + _circle("tube-ring-bore", x, y, hole))
        k += 1
    out.append("</g>")
    k = math.ceil(k / per_row) * per_row
    out.append('<g class="layer" id="layer-disc" data-layer="disc" data-thickness="%g" '
               'data-material="2 mm clear acrylic">' % DISC_T)
    for _ in range(board.holes):
        x, y = 1 + step / 2 + (k % per_row) * step, 1 + step / 2 + (k // per_row) * step
        out.append(_circle("stop-disc", x, y, bore))
        k += 1
    out.append("</g>")
    out.append('<text class="label" x="2" y="%.1f" font-size="3.5">%d light-tube rings (%g mm opal acrylic), '
               '%d stop discs (%g mm clear acrylic)</text>'
               % (parts_rows * step + 8, n_rings, TUBE_T, board.holes, DISC_T))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
