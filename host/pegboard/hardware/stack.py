"""The stack through one hole, in one set of numbers: the peg, its magnet, the pixel module's parts
(pixel, breakout, Hall sensor) and their tolerances, and the depths that follow from the plate's
layers (layer tops, magnet to sensor, the peg's lean). All sizes in mm, fields in mT. No board has
been built to this design: every figure is computed from these dimensions and the data-sheet
values named beside them."""

from __future__ import annotations

import math

from pegboard.hardware.field import Magnet, Sensor
from pegboard.hardware.plate import DISC_T, HOLE_D, LAYERS, guide_depth

PITCH = 25.0
PEG_D = 6.0          # peg: a 6 mm clear acrylic (PMMA) rod ...
PEG_ROD = 33.0       # ... this long, its top end sanded matt (it glows), ...
MAGNET = Magnet(6.0, 3.0, 3.0, "N42", 1300.0, 1320.0)  # ... on a ring magnet: light passes its core
# N42 Br 13.0-13.2 kG: K&J Magnetics, "Neodymium Magnet Specifications" (kjmagnetics.com/specs.asp)
SENSOR = Sensor("DRV5032AJ", 9.5, 3.0,
                "TI DRV5032 data sheet SLVSDC7 (rev. H), 6.6 Magnetic Characteristics: BOP max 9.5 mT "
                "(the front page's '9.5 mT, medium sensitivity'), BRP min 3.0 mT")
SENSITIVE = Sensor("DRV5032FA", 4.8, 0.5,
                   "same table: BOP max 4.8 mT (front page: '4.8 mT, high sensitivity'), BRP min 0.5 mT")
PIXEL_T = 1.6        # WS2812B 5050 body (5.0 x 5.0 x 1.6 mm, WS2812B data sheet) on its breakout
PIXEL_W = 5.0
PIXEL_PCB_T = 1.6    # the breakout board (assumption: 1.6 mm FR-4; a thinner one only helps)
PIXEL_PCB_W = 10.0
SENSOR_T = 1.1       # SOT-23 (DBZ) body, glued marked face to the pixel board's back
SENSOR_W = 3.0
HALL_DEPTH = 0.65    # Hall element below the SOT-23's marked face (data sheet 7.3.3, "Hall Element
#                      Location"; figure taken as given: an assumption until checked)
STACK_TOL = 0.3      # assumption: glue films and part tolerances may add this much to the gap
# The glue-gap gauge (hardware/README.md, "One hole, in section"): the sensor is pressed flat against
# the pixel board's back while its epoxy sets, then a 0.1 mm feeler-gauge leaf must not slide under
# its body at any edge; a module that takes the leaf is reglued. So the glue film is under 0.1 mm.
GAUGE_TOL = 0.1      # the leaf: the most glue the gauge lets stand between the board and the sensor
LEAN_LIMIT = 3.0     # degrees: the most a standing peg may lean (the old 3 mm deep hole: 9.5)


def layer_tops() -> dict[str, float]:
    """Depth of each plate layer's top face below the board's top face."""
    out, depth = {}, 0.0
    for layer in LAYERS:
        out[layer.key] = depth
        depth += layer.thickness
    return out


def plate_thickness() -> float:
    return sum(layer.thickness for layer in LAYERS)


def peg_above_board() -> float:
    """How far a standing peg's top is above the board."""
    return PEG_ROD + MAGNET.length - guide_depth()


def magnet_to_sensor() -> float:
    """From the magnet's lower face (on the stop disc) to the sensor's Hall element, on the axis:
    the disc, the pixel's body, its board, and the element's depth in the sensor."""
    return DISC_T + PIXEL_T + PIXEL_PCB_T + HALL_DEPTH


def sensor_depth() -> float:
    """The Hall element's depth below the board's top face."""
    return guide_depth() + magnet_to_sensor()


def lean_deg() -> float:
    """How far a peg can lean in its guide: atan(diametral play / guide depth)."""
    return math.degrees(math.atan((HOLE_D - PEG_D) / guide_depth()))

