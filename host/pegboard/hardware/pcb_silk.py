"""Where each part's reference goes on the silkscreen: beside its footprint, level on the board,
clear of every pad's copper, every footprint's silk outline, the hole numbers and the other
references on that side (the first of a few places round the part that is clear). The pin-1 and
polarity marks are the library footprints' own silk."""

from __future__ import annotations

from typing import NamedTuple

from pegboard.hardware import footprints as fp
from pegboard.hardware import sexpr
from pegboard.hardware.pcb import Placed, pad_at
from pegboard.hardware.router import Rect
from pegboard.hardware.triangle import inside_triangle

TEXT = 0.8  # mm: character height of a reference (JLCPCB's smallest legible: 0.8 mm at 0.15 mm)
STROKE = 0.15
ADVANCE = 0.9  # a character's advance with its spacing, over the height (KiCad's stroke font, with room)
GAP = 0.2  # silk from copper, from other silk


class Box(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float

    def grow(self, d: float) -> Box:
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def hits(self, o: Box) -> bool:
        return self.x0 < o.x1 and o.x0 < self.x1 and self.y0 < o.y1 and o.y0 < self.y1


def text_box(x: float, y: float, text: str, size: float = TEXT) -> Box:
    w = len(text) * size * ADVANCE + STROKE
    h = size + STROKE
    return Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def to_board(p: Placed, x: float, y: float) -> tuple[float, float]:
    """A library point (the footprint's frame, before any flip) on the board."""
    return pad_at(p, fp.Pad("", x, y, 0.0, 0.0))[:2]


def silk_boxes(p: Placed) -> list[Box]:
    """The footprint's own silk outline, as thin boxes on the board."""
    out = []
    for node in p.footprint.drawing:
        if node[0] == "fp_line" and sexpr.item(node, "layer")[1] == "F.SilkS":
            s, e = sexpr.item(node, "start"), sexpr.item(node, "end")
            (ax, ay), (bx, by) = to_board(p, float(s[1]), float(s[2])), to_board(p, float(e[1]), float(e[2]))
            out.append(Box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)).grow(0.06 + GAP / 2))
    return out


def courtyard(p: Placed) -> Box:
    x0, y0, x1, y1 = p.footprint.courtyard
    pts = [to_board(p, x, y) for x in (x0, x1) for y in (y0, y1)]
    return Box(min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))


def places(parts: list[Placed], pads: list[Rect], taken: dict[str, list[Box]],
           edge: list[tuple[float, float]]) -> dict[str, tuple[float, float] | None]:
    """Each part's reference centre on the board, or None where no place round it is clear (the
    reference is then on the fab layer only). `taken`: per side, boxes already on that silk (the
    hole numbers)."""
    blocked = {side: list(taken.get(side, [])) for side in "FB"}
    for r in pads:
        for side in "FB":
            if r.tht or side in r.layers:
                blocked[side].append(Box(r.x - r.hw, r.y - r.hh, r.x + r.hw, r.y + r.hh).grow(GAP))
    for p in parts:
        blocked[p.side] += silk_boxes(p)
    out: dict[str, tuple[float, float] | None] = {}
    for p in parts:
        c = courtyard(p)
        cx, cy = (c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2
        half = TEXT / 2 + STROKE
        w = len(p.ref) * TEXT * ADVANCE / 2 + STROKE
        candidates = [(cx, c.y0 - half), (cx, c.y1 + half), (c.x0 - w, cy), (c.x1 + w, cy),
                      (c.x0 - w, c.y0 - half), (c.x1 + w, c.y0 - half), (c.x0 - w, c.y1 + half),
                      (c.x1 + w, c.y1 + half), (cx, cy)]
        out[p.ref] = None
        for x, y in candidates:
            box = text_box(x, y, p.ref)
            corners = [(box.x0, box.y0), (box.x1, box.y0), (box.x0, box.y1), (box.x1, box.y1)]
            if inside_triangle(corners, edge) < 0.3 or any(box.hits(b) for b in blocked[p.side]):
                continue
            out[p.ref] = (round(x, 3), round(y, 3))
            blocked[p.side].append(box.grow(GAP))
            break
    return out
