"""Plane geometry of the equilateral triangles the board's outline makes: a triangle moved in by a
wall's width, and how far a set of points (a board's corners) keeps inside one."""

from __future__ import annotations

import math


def inset(outline: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """An equilateral triangle moved in by d on every edge (vertices move 2d toward the centre)."""
    cx = sum(p[0] for p in outline) / 3
    cy = sum(p[1] for p in outline) / 3
    out = []
    for x, y in outline:
        r = math.hypot(x - cx, y - cy)
        out.append((x - (x - cx) / r * 2 * d, y - (y - cy) / r * 2 * d))
    return out


def _side(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
    """The signed distance of p from the line a-b."""
    return ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / math.dist(a, b)


def inside_triangle(points: list[tuple[float, float]], tri: list[tuple[float, float]]) -> float:
    """The least distance (mm) from any of `points` to the triangle's sides, negative if one is
    outside: the room the perfboard has to spare."""
    centre = (sum(p[0] for p in tri) / 3, sum(p[1] for p in tri) / 3)
    worst = math.inf
    for i in range(3):
        a, b = tri[i], tri[(i + 1) % 3]
        sign = 1 if _side(a, b, centre) > 0 else -1
        worst = min([worst] + [sign * _side(a, b, p) for p in points])
    return worst
