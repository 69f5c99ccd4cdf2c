"""A picture of each side of the printed board, composed from KiCad's own SVG plots of its
layers (kicad_run.py): copper, solder-mask openings, silkscreen and the edge, each in its colour
over the board's green, the bottom mirrored as seen from below."""

from __future__ import annotations

import re

COLOURS = (("Cu", "#b87333", 0.85), ("Mask", "#e8c060", 1.0), ("SilkS", "#f4f4f4", 1.0), ("Edge_Cuts", "#ffd400", 1.0))
NM = 1e6  # KiCad's SVG plots count nanometres ...
UM = 1e3  # ... the picture counts micrometres: browsers clamp lengths as large as a board's in nm


def _body(svg: str) -> str:
    """The drawing inside a plot's root element, its title and description left out."""
    start = svg.index(">", svg.index("<svg")) + 1
    body = svg[start:svg.rindex("</svg>")]
    body = re.sub(r"<title>.*?</title>|<desc>.*?</desc>", "", body, flags=re.S)
    # every length of 10 um or more, in um (smaller numbers are widths, opacities; colours are not
    # numbers: left as they are)
    return re.sub(r"(?<![#\d.])(\d{5,})(\.\d+)?", lambda m: "%g" % (float(m.group(0)) / (NM / UM)), body)


def _extent(svg: str) -> tuple[float, float, float, float]:
    """The box round every point a plot draws (the edge's plot: the board's outline)."""
    pts = [(float(x), float(y)) for d in re.findall(r'd="([^"]*)"', svg)
           for x, y in re.findall(r"(-?[0-9.]+)[, ](-?[0-9.]+)", d)]
    if not pts:
        raise ValueError("the edge's plot draws nothing")
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def compose(layers: dict[str, str], title: str) -> str:
    """One side's picture: `layers` maps a layer kind ("Cu", "Mask", "SilkS", "Edge_Cuts") to its
    plot; the picture is cropped to the edge's plot."""
    x0, y0, x1, y1 = (v / (NM / UM) for v in _extent(layers["Edge_Cuts"]))
    pad = 2 * UM
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="%d %d %d %d">'
           % ((x1 - x0 + 2 * pad) / UM, (y1 - y0 + 2 * pad) / UM, x0 - pad, y0 - pad, x1 - x0 + 2 * pad,
              y1 - y0 + 2 * pad),
           "<title>%s</title>" % title,
           '<path d="M %d %d H %d V %d H %d Z" fill="#1d5b34"/>' % (x0 - pad, y0 - pad, x1 + pad, y1 + pad, x0 - pad)]
    for kind, colour, opacity in COLOURS:
        if kind in layers:
            body = _body(layers[kind]).replace("#000000", colour).replace("#FFFFFF", "#10301c")
            out.append('<g opacity="%g">%s</g>' % (opacity, body))
    out.append("</svg>")
    return "\n".join(out) + "\n"
