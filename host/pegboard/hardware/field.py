"""The field of a peg's magnet at the hall sensors, in plain Python floats (host code: the board
never runs this). Lengths in mm, flux density in mT, a magnet's remanence Br in mT.

Three ways to the same field, so each checks the others:

- on the axis of an axially magnetised cylinder (a disc magnet), the closed form
  B(z) = Br/2 * [(z + L)/sqrt(R^2 + (z + L)^2) - z/sqrt(R^2 + z^2)], z from the near face;
- a ring magnet (outer radius Ro, inner Ri) as the difference of two such cylinders. Near its face
  the ring's field on the axis points the other way (the field returns through the bore): it
  passes through zero at a distance `ring_zero_crossing` gives, and a sensor must sit well beyond
  that point (or its field would be small, or reversed);
- anywhere, on or off the axis: the magnet as its equivalent surface current (a uniformly
  magnetised cylinder is a sheet of current Br/mu0 per unit length around its side; a ring adds an
  opposite sheet around its bore), integrated as a stack of circular current loops (each loop's
  exact field, with complete elliptic integrals) over the magnet's length by Gauss-Legendre
  quadrature. That gives the field at the next hole and of a peg lying on its side;
- far away, the dipole: m = Br * V / mu0, for a rough check of the loop sum.

An omnipolar hall switch (DRV5032) senses the component of B across its package face (here:
vertical) and either sign; `Sensor` holds a version's switching points from its data sheet.
"""

from __future__ import annotations

import math
from typing import Callable
from dataclasses import dataclass
from functools import lru_cache

Vec = tuple[float, float, float]


# --- closed forms on the axis ------------------------------------------------------------------

def disc_on_axis(z: float, radius: float, length: float, br: float) -> float:
    """On-axis flux density at z (>= 0) from the face of an axially magnetised cylinder."""
    r, t = radius, length
    return br / 2 * ((z + t) / math.hypot(r, z + t) - z / math.hypot(r, z))


def ring_on_axis(z: float, r_out: float, r_in: float, length: float, br: float) -> float:
    """On-axis flux density of a ring magnet: the outer cylinder less the bore's. Negative close
    to the face (see ring_zero_crossing)."""
    return disc_on_axis(z, r_out, length, br) - disc_on_axis(z, r_in, length, br)


def crossing(f: Callable[[float], float], lo: float, hi: float, steps: int = 100) -> float:
    """Where the increasing function f crosses zero between lo and hi (bisection)."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def ring_zero_crossing(r_out: float, r_in: float, length: float) -> float:
    """The distance from a ring magnet's face at which its on-axis field changes sign (negative
    nearer, positive beyond), by bisection: the field at the face is negative whenever r_in > 0,
    and positive far away (it falls off like a dipole's there)."""
    def f(z: float) -> float:
        return ring_on_axis(z, r_out, r_in, length, 1.0)

    hi = r_out
    while f(hi) <= 0:
        hi *= 2
    return crossing(f, 0.0, hi, 200)


# --- current loops: the field anywhere ----------------------------------------------------------

def ellipk_ellipe(m: float) -> tuple[float, float]:
    """Complete elliptic integrals K(m), E(m) of parameter m = k^2 (0 <= m < 1), by the
    arithmetic-geometric mean."""
    a, b, c = 1.0, math.sqrt(1.0 - m), math.sqrt(m)
    total = c * c / 2  # sum of 2^(n-1) c_n^2 from n = 0
    p = 0.5
    while abs(c) > 1e-15:
        a, b, c = (a + b) / 2, math.sqrt(a * b), (a - b) / 2
        p *= 2
        total += p * c * c
    k = math.pi / (2 * a)
    return k, k * (1 - total)


def loop_field(a: float, rho: float, z: float) -> tuple[float, float]:
    """(B_rho, B_z) of a circular loop of radius a in the plane z = 0, centred on the axis, at
    (rho, z), per unit mu0*I (Simpson, Lane, Immer and Youngquist, "Simple analytic expressions for
    the magnetic field of a circular current loop", NASA/TM-2013 (2001): B_z and B_rho in K and E
    of k^2 = 1 - alpha^2/beta^2)."""
    if rho < 1e-12:
        return 0.0, a * a / (2 * (a * a + z * z) ** 1.5)
    r2 = rho * rho + z * z
    alpha2 = a * a + r2 - 2 * a * rho
    beta2 = a * a + r2 + 2 * a * rho
    beta = math.sqrt(beta2)
    kk, ee = ellipk_ellipe(1 - alpha2 / beta2)
    bz = ((a * a - r2) * ee + alpha2 * kk) / (2 * math.pi * alpha2 * beta)
    brho = z * ((a * a + r2) * ee - alpha2 * kk) / (2 * math.pi * alpha2 * beta * rho)
    return brho, bz


@lru_cache(maxsize=None)
def gauss_legendre(n: int) -> tuple[tuple[float, float], ...]:
    """Nodes and weights of n-point Gauss-Legendre quadrature on [-1, 1] (Newton's method on the
    Legendre polynomial)."""
    out = []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            dp = n * (x * p1 - p0) / (x * x - 1)
            dx = p1 / dp
            x -= dx
            if abs(dx) < 1e-15:
                break
        out.append((x, 2 / ((1 - x * x) * dp * dp)))
    return tuple(out)


def cylinder_field(radius: float, length: float, br: float, rho: float, z: float,
                   panels: int = 8, order: int = 8) -> tuple[float, float]:
    """(B_rho, B_z) of an axially magnetised cylinder at (rho, z), z along its axis from its
    centre (the north face at z = +length/2): its surface current as a stack of loops, each
    carrying mu0*I = Br * dz, summed by composite Gauss-Legendre quadrature over the length."""
    nodes = gauss_legendre(order)
    h = length / panels
    brho = bz = 0.0
    for p in range(panels):
        mid = -length / 2 + (p + 0.5) * h
        for x, w in nodes:
            s = mid + x * h / 2
            fr, fz = loop_field(radius, rho, z - s)
            brho += w * fr
            bz += w * fz
    scale = br * h / 2
    return brho * scale, bz * scale


@dataclass(frozen=True)
class Magnet:
    """An axially magnetised disc (d_in = 0) or ring magnet, and its grade's range of Br."""

    d_out: float
    d_in: float
    length: float
    grade: str
    br_min: float  # mT
    br_max: float  # mT

    @property
    def volume(self) -> float:
        return math.pi / 4 * (self.d_out ** 2 - self.d_in ** 2) * self.length

    def name(self) -> str:
        if self.d_in:
            return "ring %g/%g x %g mm %s" % (self.d_out, self.d_in, self.length, self.grade)
        return "disc %g x %g mm %s" % (self.d_out, self.length, self.grade)

    def on_axis(self, z: float, br: float) -> float:
        """Closed form, z from the face."""
        if self.d_in:
            return ring_on_axis(z, self.d_out / 2, self.d_in / 2, self.length, br)
        return disc_on_axis(z, self.d_out / 2, self.length, br)

    def local_field(self, rho: float, z: float, br: float) -> tuple[float, float]:
        """(B_rho, B_z) by the loop sum, z along the axis from the magnet's centre."""
        brho, bz = cylinder_field(self.d_out / 2, self.length, br, rho, z)
        if self.d_in:
            irho, iz = cylinder_field(self.d_in / 2, self.length, br, rho, z)
            brho, bz = brho - irho, bz - iz
        return brho, bz

    def field(self, centre: Vec, axis: Vec, point: Vec, br: float) -> Vec:
        """B at `point` of this magnet at `centre`, its north pole towards the unit vector
        `axis`."""
        d = (point[0] - centre[0], point[1] - centre[1], point[2] - centre[2])
        along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2]
        radial = (d[0] - along * axis[0], d[1] - along * axis[1], d[2] - along * axis[2])
        rho = math.sqrt(radial[0] ** 2 + radial[1] ** 2 + radial[2] ** 2)
        brho, bz = self.local_field(rho, along, br)
        u = (radial[0] / rho, radial[1] / rho, radial[2] / rho) if rho > 1e-12 else (0.0, 0.0, 0.0)
        return (bz * axis[0] + brho * u[0], bz * axis[1] + brho * u[1], bz * axis[2] + brho * u[2])

    def dipole(self, centre: Vec, axis: Vec, point: Vec, br: float) -> Vec:
        """The same as a point dipole of moment Br * V / mu0 (good far away only)."""
        d = (point[0] - centre[0], point[1] - centre[1], point[2] - centre[2])
        r = math.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
        n = (d[0] / r, d[1] / r, d[2] / r)
        mn = axis[0] * n[0] + axis[1] * n[1] + axis[2] * n[2]
        k = br * self.volume / (4 * math.pi * r ** 3)
        return (k * (3 * mn * n[0] - axis[0]), k * (3 * mn * n[1] - axis[1]), k * (3 * mn * n[2] - axis[2]))


@dataclass(frozen=True)
class Sensor:
    """A hall switch version's switching points (magnitudes, mT: omnipolar)."""

    name: str
    bop_max: float
    brp_min: float
    source: str
