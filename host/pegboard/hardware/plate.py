"""The laser-cut top plate as plain SVG (mm)."""

from __future__ import annotations

import math

from pegcore.geometry import Board


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


def plate_svg(rows: int = 5, pitch: float = 25.0, hole: float = 6.5, pocket: float = 12.0,
              margin: float = 20.0) -> str:
    """Top plate: cut outline (red), peg holes (red, cut through), stop-disc pockets on the
    underside (blue, pocket 3 mm deep), hole numbers (black, engrave). The outline is the
    triangle of hole centres with every edge pushed out by `margin`."""
    if not hole + 4 <= pitch <= 80:
        raise ValueError("pitch must be between hole diameter + 4 mm and 80 mm")
    if not pocket / 2 + 2 <= margin <= 100:
        raise ValueError("margin must be at least half the pocket + 2 mm (and at most 100 mm)")
    board = Board(rows)
    raw = hole_centres(board, pitch, 0.0)
    outline, (ox, oy) = _outline(board, raw, margin)
    centres = [(x + ox, y + oy) for x, y in raw]
    width = max(p[0] for p in outline) + 1
    height = max(p[1] for p in outline) + 1
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="0 0 %.3f %.3f">'
           % (width, height, width, height),
           '<title>pegboard top plate: %d rows, %.1f mm pitch</title>' % (rows, pitch),
           '<polygon id="outline" points="%s" fill="none" stroke="red" stroke-width="0.1"/>'
           % " ".join("%.3f,%.3f" % p for p in outline)]
    for h, (x, y) in enumerate(centres, 1):
        out.append('<circle class="pocket" cx="%.3f" cy="%.3f" r="%.3f" fill="none" stroke="blue" stroke-width="0.1"/>'
                   % (x, y, pocket / 2))
        out.append('<circle class="peg-hole" data-hole="%d" cx="%.3f" cy="%.3f" r="%.3f" fill="none" stroke="red" '
                   'stroke-width="0.1"/>' % (h, x, y, hole / 2))
        out.append('<text class="number" x="%.3f" y="%.3f" font-size="3.5" text-anchor="middle" '
                   'font-family="sans-serif">%d</text>' % (x, y + hole / 2 + 4, h))
    out.append("</svg>")
    return "\n".join(out) + "\n"

