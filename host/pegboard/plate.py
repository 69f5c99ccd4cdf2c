"""Drawings for makers: the laser-cut top plate and the wiring diagram, as plain SVG (mm)."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

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


def plate_svg(rows: int = 5, pitch: float = 25.0, hole: float = 6.5, pocket: float = 12.0,
              margin: float = 20.0) -> str:
    """Top plate: cut outline (red), peg holes (red, cut through), LED/sensor pockets on the
    underside (blue, pocket 3 mm deep), hole numbers (black, engrave). The outline is the
    triangle of hole centres with every edge pushed out by `margin`."""
    if not hole + 4 <= pitch <= 80:
        raise ValueError("pitch must be between hole diameter + 4 mm and 80 mm")
    if not pocket / 2 + 2 <= margin <= 100:
        raise ValueError("margin must be at least half the pocket + 2 mm (and at most 100 mm)")
    board = Board(rows)
    raw = hole_centres(board, pitch, 0.0)
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
    outline = [(x + ox, y + oy) for x, y in outline]
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


def wiring_svg(settings: dict[str, object], title: str) -> str:
    """A wiring diagram for a board file: the MCU's pins on the left, sensors in hole order, the
    LED chain through the level shifter, the button, and power."""
    rows = int(settings.get("PEGBOARD_ROWS", 5))  # type: ignore[arg-type]
    holes = rows * (rows + 1) // 2
    shift = settings.get("PEGBOARD_SENSORS") == "shift"
    pins = [] if shift else str(settings["PEGBOARD_SENSOR_PINS"]).split(",")
    line_h = 18
    h = 120 + max(holes, 8) * line_h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="760" height="%d" font-family="sans-serif" '
           'font-size="12">' % h,
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="24" font-size="16">%s</text>' % escape(title),
           '<rect x="20" y="40" width="150" height="%d" fill="#e8f0e8" stroke="#333"/>' % (h - 60),
           '<text x="30" y="60">microcontroller</text>']
    y = 90
    active_low = settings.get("PEGBOARD_SENSOR_ACTIVE", "low") == "low"
    sense = "to GND when a peg is in (internal pull-up)" if active_low else "to 3V3 when a peg is in"
    if shift:
        for role, key in (("clock", "PEGBOARD_SR_CLOCK"), ("data", "PEGBOARD_SR_DATA"), ("latch", "PEGBOARD_SR_LATCH")):
            out.append('<text x="30" y="%d">%s</text>' % (y, escape(str(settings[key]))))
            out.append('<line x1="170" y1="%d" x2="300" y2="%d" stroke="#06c"/>' % (y - 4, y - 4))
            out.append('<text x="310" y="%d">74HC165 chain %s</text>' % (y, role))
            y += line_h
        out.append('<text x="310" y="%d">2 x 74HC165: inputs = holes 1..%d, %s</text>' % (y, holes, sense))
        y += line_h
    else:
        for i, pin in enumerate(pins, 1):
            out.append('<text x="30" y="%d">%s</text>' % (y, escape(pin.strip())))
            out.append('<line x1="170" y1="%d" x2="300" y2="%d" stroke="#06c"/>' % (y - 4, y - 4))
            out.append('<text class="sensor" data-hole="%d" x="310" y="%d">sensor, hole %d (%s)</text>'
                       % (i, y, i, sense))
            y += line_h
    y += 10
    px = escape(str(settings["PEGBOARD_PIXEL_PIN"]))
    out.append('<text x="30" y="%d">%s</text>' % (y, px))
    out.append('<line x1="170" y1="%d" x2="300" y2="%d" stroke="#c60"/>' % (y - 4, y - 4))
    out.append('<text x="310" y="%d">74AHCT125 (3.3 V to 5 V) → 470 Ω → pixel 1 → ... → pixel %d (hole order)</text>'
               % (y, holes))
    y += line_h
    out.append('<text x="30" y="%d">%s</text>' % (y, escape(str(settings["PEGBOARD_BUTTON_PIN"]))))
    out.append('<line x1="170" y1="%d" x2="300" y2="%d" stroke="#393"/>' % (y - 4, y - 4))
    out.append('<text x="310" y="%d">hint button to GND (internal pull-up)</text>' % y)
    y += line_h
    out.append('<text x="30" y="%d">VBUS 5 V, GND</text>' % y)
    out.append('<text x="310" y="%d">pixels 5 V + 1000 µF across 5 V/GND; sensors from 3V3</text>' % y)
    out.append("</svg>")
    return "\n".join(out) + "\n"
