"""The light's path through one hole and what a player sees of it from a seat: how far the stop
disc spreads the pixel's light, the share of it that reaches the peg or the light tube, how deep
into an empty hole a player sees, and how much of the tube's glowing rim a peg hides. From the
stack's dimensions (stack.py) and the plate's (plate.py)."""

from __future__ import annotations

import math

from pegboard.hardware.field import crossing
from pegboard.hardware.plate import BORE_D, DISC_T, HOLE_D, guide_depth
from pegboard.hardware.stack import MAGNET, PEG_D, PITCH, peg_above_board

N_ACRYLIC = 1.49     # refractive index of PMMA in visible light
ELEVATIONS = (30.0, 45.0)  # a seated player's sight lines, degrees above the board, ~50 cm away


def in_acrylic(theta: float) -> float:
    """A ray's angle from the vertical inside acrylic, entering from air at theta."""
    return math.asin(math.sin(theta) / N_ACRYLIC)


def _solve(f, lo: float = 0.0, hi: float = math.pi / 2 - 1e-9) -> float:
    """The angle where the increasing function f crosses zero."""
    return crossing(f, lo, hi)


def disc_spread() -> float:
    """How far from the axis any ray from the pixel's centre can be where it leaves the stop disc:
    light from air into the disc bends to within the critical angle, asin(1/n) = 42.2 degrees.
    Under the peg's radius: with a peg in, all of it meets the peg's foot."""
    return DISC_T * math.tan(math.asin(1 / N_ACRYLIC))


def core_fraction() -> float:
    """The share of the pixel's light (a Lambertian emitter on the axis: sin^2 of the half-angle)
    that goes straight through the stop disc and the magnet's core into the peg, not counting
    light the core's nickel wall reflects on."""
    a = MAGNET.d_in / 2
    th = _solve(lambda t: DISC_T * math.tan(in_acrylic(t)) + MAGNET.length * math.tan(t) - a)
    return math.sin(th) ** 2


def tube_wall_fraction() -> float:
    """Peg out: the share of the pixel's light that meets the light tube's inner wall (and lights
    the tube) before it leaves the hole; the rest goes straight up out of the hole."""
    r = HOLE_D / 2
    th = _solve(lambda t: DISC_T * math.tan(in_acrylic(t)) + guide_depth() * math.tan(t) - r)
    return 1 - math.sin(th) ** 2


def deepest_seen(elevation: float, depth: float | None = None, width: float = HOLE_D) -> float:
    """How far down an empty hole a player sees its far wall, from `elevation` degrees."""
    d = width * math.tan(math.radians(elevation))
    return d if depth is None else min(d, depth)


def bottom_seen_above() -> float:
    """The lowest elevation (degrees) from which the bottom of an empty hole is in sight."""
    return math.degrees(math.atan(guide_depth() / HOLE_D))


def rim_seen(elevation: float, own_peg: bool, peg_in_front: bool) -> float:
    """The share of the light tube's top face (the ring between the hole and the bore) a player
    sees from `elevation`, with a peg in the hole or not, and with a peg in the next hole towards
    the player (one pitch away, straight in line: the most it can hide) or not. Sight lines are
    parallel: from ~50 cm the angle changes by under 2 degrees across the ring."""
    t = math.tan(math.radians(elevation))
    h = peg_above_board()
    pegs = ([(0.0, 0.0)] if own_peg else []) + ([(0.0, -PITCH)] if peg_in_front else [])
    r0, r1 = HOLE_D / 2, BORE_D / 2
    seen = total = 0.0
    nr, na = 40, 360
    for i in range(nr):
        r = r0 + (i + 0.5) * (r1 - r0) / nr
        for j in range(na):
            a = 2 * math.pi * (j + 0.5) / na
            x, y = r * math.cos(a), r * math.sin(a)
            total += r
            hidden = False
            for px, py in pegs:  # the player is towards -y: the sight line runs to -y, rising
                dx = abs(x - px)
                if dx < PEG_D / 2:
                    far = py + math.sqrt((PEG_D / 2) ** 2 - dx * dx)  # the peg's side facing the point
                    if y > far and (y - far) * t < h:
                        hidden = True
            if not hidden:
                seen += r
    return seen / total
