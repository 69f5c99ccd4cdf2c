"""The magnet's margins at the Hall sensors: the field a peg gives its own hole's sensor (worst
case), what the other pegs and a peg lying on the board give it, and how these compare with the
sensor's operate and release points (Margins). The field model itself is field.py."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pegcore.geometry import Board

from pegboard.hardware.field import Magnet, Sensor
from pegboard.hardware.plate import HOLE_D, hole_centres
from pegboard.hardware.stack import (GAUGE_TOL, MAGNET, PEG_D, PITCH, SENSOR, STACK_TOL, magnet_to_sensor,
                                     sensor_depth)

@dataclass(frozen=True)
class Margins:
    own: float          # mT at a hole's sensor from its own peg (Br min, peg off-centre, gap + tolerance)
    neighbours: float   # mT at the worst hole's sensor from all the other pegs (Br max, same sign)
    next_hole: float    # mT at the next hole's sensor from one peg (Br max)
    lying: float        # mT at the worst sensor from a peg lying on the board (Br max)
    sensor: Sensor

    @property
    def own_net(self) -> float:
        """The own peg's field less the others' (they point the other way at this sensor)."""
        return self.own - self.neighbours

    @property
    def operate(self) -> float:
        """How many times the version's BOP max the peg gives its sensor (want >= 2)."""
        return self.own_net / self.sensor.bop_max

    @property
    def release_next(self) -> float:
        """BRP min over the next hole's field (want > 1)."""
        return self.sensor.brp_min / self.next_hole

    @property
    def release_all(self) -> float:
        """BRP min over the field of every other peg at once (want > 1)."""
        return self.sensor.brp_min / self.neighbours

    @property
    def release_lying(self) -> float:
        """BRP min over a lying peg's field (want > 1)."""
        return self.sensor.brp_min / self.lying

    @property
    def release_lying_all(self) -> float:
        """BRP min over a lying peg's field on top of every other peg's (want > 1)."""
        return self.sensor.brp_min / (self.lying + self.neighbours)

    def met(self) -> bool:
        return self.operate >= 2 and min(self.release_next, self.release_all, self.release_lying) > 1


UP = (0.0, 0.0, 1.0)


def own_field(magnet: Magnet = MAGNET, extra: float = STACK_TOL) -> float:
    """Bz at a hole's sensor from its own peg, worst case: the grade's lowest Br, the peg against
    the side of its hole (off the axis by half the play) and the gap `extra` longer."""
    z = magnet_to_sensor() + extra + magnet.length / 2
    return abs(magnet.field(((HOLE_D - PEG_D) / 2, 0.0, z), UP, (0.0, 0.0, 0.0), magnet.br_min)[2])


def field_from_hole(dx: float, dy: float, magnet: Magnet = MAGNET) -> float:
    """|Bz| at a sensor from a peg standing in a hole (dx, dy) away (the grade's highest Br)."""
    z = magnet_to_sensor() + magnet.length / 2
    return abs(magnet.field((dx, dy, z), UP, (0.0, 0.0, 0.0), magnet.br_max)[2])


def neighbours_field(magnet: Magnet = MAGNET, rows: int = 5, pitch: float = PITCH) -> float:
    """The most any empty hole's sensor gets from all the other pegs at once, their fields
    added as if all of the same sign (the sensor is omnipolar, the pegs' poles are anyhow)."""
    centres = hole_centres(Board(rows), pitch, 0.0)
    worst = 0.0
    for x, y in centres:
        worst = max(worst, sum(field_from_hole(x2 - x, y2 - y, magnet) for x2, y2 in centres if (x2, y2) != (x, y)))
    return worst


def lying_field(magnet: Magnet = MAGNET) -> float:
    """The most |Bz| a peg lying on the board gives any sensor: its magnet's axis level, its
    centre a peg's radius above the board, anywhere (scanned every 0.5 mm up to 30 mm from the
    sensor's axis, every 15 degrees between the peg's axis and the offset)."""
    h = sensor_depth() + PEG_D / 2
    worst = 0.0
    for i in range(61):
        s = i * 0.5
        for k in range(7):
            a = math.radians(15 * k)
            b = magnet.field((s * math.cos(a), s * math.sin(a), h), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0), magnet.br_max)
            worst = max(worst, abs(b[2]))
    return worst


def gauged_net(magnet: Magnet = MAGNET) -> float:
    """The own peg's field less all the other pegs', with the sensor set by the gauge (worst case)."""
    return own_field(magnet, GAUGE_TOL) - neighbours_field(magnet)


@lru_cache(maxsize=None)
def sensor_margins(magnet: Magnet = MAGNET, sensor: Sensor = SENSOR) -> Margins:
    return Margins(own_field(magnet), neighbours_field(magnet), field_from_hole(PITCH, 0.0, magnet),
                   lying_field(magnet), sensor)
