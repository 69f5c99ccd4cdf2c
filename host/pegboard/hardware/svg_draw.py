"""SVG primitives for the dimensioned drawings: dimension lines, rectangles, a section's cut pair,
polylines and sight lines, each appended as markup to a list of lines (coordinates in mm)."""

from __future__ import annotations

import math

def dim(out: list[str], x1: float, y1: float, x2: float, y2: float, text: str, off: float) -> None:
    """A dimension line with ticks and its text, offset sideways by `off`."""
    if abs(x1 - x2) < 1e-9:  # vertical
        x = x1 + off
        out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x, y1, x, y2))
        for y in (y1, y2):
            out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x - 1, y, x + 1, y))
        if off < 0:
            out.append('<text x="%.2f" y="%.2f" class="dimtext" text-anchor="end">%s</text>'
                       % (x - 1.2, (y1 + y2) / 2 + 0.7, text))
        else:
            out.append('<text x="%.2f" y="%.2f" class="dimtext">%s</text>' % (x + 1.2, (y1 + y2) / 2 + 0.7, text))
    else:
        y = y1 + off
        out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x1, y, x2, y))
        for x in (x1, x2):
            out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" class="dim"/>' % (x, y - 1, x, y + 1))
        out.append('<text x="%.2f" y="%.2f" class="dimtext" text-anchor="middle">%s</text>'
                   % ((x1 + x2) / 2, y - 1.2 if off <= 0 else y + 2.4, text))


def rect(out: list[str], cls: str, x: float, y: float, w: float, h: float, label: str, extra: str = "") -> None:
    out.append('<rect class="%s" data-part="%s"%s x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>'
               % (cls, label, extra, x, y, w, h))


def pair(out: list[str], cls: str, cx: float, r_in: float, r_out: float, y: float, h: float, label: str,
          extra: str = "") -> None:
    """Both halves of something cut through by the section: from r_in to r_out either side."""
    rect(out, cls, cx - r_out, y, r_out - r_in, h, label, extra)
    rect(out, cls, cx + r_in, y, r_out - r_in, h, label, extra)


def polyline(out: list[str], cls: str, pts: list[tuple[float, float]], extra: str = "") -> None:
    out.append('<polyline class="%s"%s points="%s"/>' % (cls, extra, " ".join("%.2f,%.2f" % p for p in pts)))


def sight(out: list[str], x: float, y: float, elevation: float, to_x: float, label: str) -> None:
    """A sight line from the point (x, y) up to the left, towards a player at `elevation`, and its
    label at the far end."""
    t = math.tan(math.radians(elevation))
    end_y = y - (x - to_x) * t
    polyline(out, "sight", [(x, y), (to_x, end_y)], ' data-elevation="%g"' % elevation)
    out.append('<text class="sighttext" x="%.2f" y="%.2f" text-anchor="end">%s</text>'
               % (to_x - 0.5, end_y + 0.6, label))
