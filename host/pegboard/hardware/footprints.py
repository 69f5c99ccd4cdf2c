"""The printed board's footprints: each part's copper pads, drill holes and courtyard, in mm, in the
footprint's own frame (KiCad's: x right, y down, seen from the top, pin 1 where the data sheet's
top view has it). Pad sizes are the land patterns KiCad's standard library gives these packages
(their names below), which follow IPC-7351 nominal lands for the packages' data-sheet dimensions."""

from __future__ import annotations

from typing import NamedTuple, Optional


class Pad(NamedTuple):
    number: str
    x: float
    y: float
    w: float
    h: float
    drill: Optional[float] = None  # a plated through hole; None: a surface pad on the part's side
    shape: str = "rect"  # "rect", "roundrect" or "circle"


class Footprint(NamedTuple):
    name: str  # KiCad library name of the same land pattern
    pads: tuple[Pad, ...]
    courtyard: tuple[float, float]  # half width, half height: keep-out for other parts
    body: tuple[float, float]  # half width, half height of the part's body (silkscreen, fab layer)
    height: float  # the body's height above the board, mm (data sheet)
    package: str  # as a placement file names it
    keepouts: tuple[tuple[float, float, float, float], ...] = ()  # courtyards (x, y, half w, half h)
    #                  where the part is not one block on the board (the Pico: only its sockets)


def _two(name: str, pitch: float, w: float, h: float, court: tuple[float, float], body: tuple[float, float],
         height: float, package: str) -> Footprint:
    pads = (Pad("1", -pitch / 2, 0.0, w, h, shape="roundrect"), Pad("2", pitch / 2, 0.0, w, h, shape="roundrect"))
    return Footprint(name, pads, court, body, height, package)


# 0603 (1608 metric) chip capacitor and resistor: KiCad C_0603_1608Metric / R_0603_1608Metric
C0603 = _two("Capacitor_SMD:C_0603_1608Metric", 1.55, 0.9, 0.95, (1.5, 0.75), (0.8, 0.4), 0.9, "0603")
R0603 = _two("Resistor_SMD:R_0603_1608Metric", 1.55, 0.9, 0.95, (1.5, 0.75), (0.8, 0.4), 0.55, "0603")

# 100 uF aluminium electrolytic, 6.3 x 7.7 mm SMD can: KiCad CP_Elec_6.3x7.7 (pad 1 is +)
CP_6_3 = _two("Capacitor_SMD:CP_Elec_6.3x7.7", 5.4, 3.3, 1.6, (4.8, 3.5), (3.3, 3.3), 7.7, "CP_Elec_6.3x7.7")


def _sot(name: str, pins: int, package: str) -> Footprint:
    """SOT-23 (3 pins: 1 and 2 left, 3 right) or SOT-23-6 (1..3 down the left, 4..6 up the right):
    KiCad Package_TO_SOT_SMD:SOT-23 / SOT-23-6, pitch 0.95 mm, lands 1.1375 mm either side."""
    x, w, h = 1.1375, 1.325, 0.6
    pads: tuple[Pad, ...]
    if pins == 3:
        pads = (Pad("1", -x, -0.95, w, h, shape="roundrect"), Pad("2", -x, 0.95, w, h, shape="roundrect"),
                Pad("3", x, 0.0, w, h, shape="roundrect"))
    else:
        pads = tuple(Pad(str(i + 1), -x, -0.95 + 0.95 * i, w, h, shape="roundrect") for i in range(3)) + tuple(
            Pad(str(6 - i), x, -0.95 + 0.95 * i, w, h, shape="roundrect") for i in range(3))
    return Footprint(name, pads, (2.1, 1.8), (0.8, 1.5), 1.45, package)


SOT23 = _sot("Package_TO_SOT_SMD:SOT-23", 3, "SOT-23")
SOT23_6 = _sot("Package_TO_SOT_SMD:SOT-23-6", 6, "SOT-23-6")

# 74AHCT125 in SOIC-14 (D): KiCad Package_SO:SOIC-14_3.9x8.7mm_P1.27mm; 1..7 down the left
SOIC14 = Footprint("Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
                   tuple(Pad(str(i + 1), -2.475, -3.81 + 1.27 * i, 1.95, 0.6, shape="roundrect") for i in range(7))
                   + tuple(Pad(str(14 - i), 2.475, -3.81 + 1.27 * i, 1.95, 0.6, shape="roundrect")
                           for i in range(7)),
                   (3.7, 4.6), (1.95, 4.35), 1.75, "SOIC-14")

# WS2812B in its 5050 PLCC4 body: KiCad LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm. Pin 1 VDD,
# 2 DOUT, 3 VSS, 4 DIN (Worldsemi WS2812B data sheet, "PIN function"); the light leaves the top.
WS2812B = Footprint("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                    (Pad("1", 2.45, -1.6, 1.5, 1.0), Pad("2", 2.45, 1.6, 1.5, 1.0), Pad("3", -2.45, 1.6, 1.5, 1.0),
                     Pad("4", -2.45, -1.6, 1.5, 1.0)),
                    (3.45, 2.75), (2.5, 2.5), 1.6, "WS2812B-5050")


def _row(n: int, x0: float, y0: float, dx: float, dy: float, start: int = 1) -> tuple[Pad, ...]:
    # 1.6 mm lands on 1.0 mm holes: a 0.25 mm track passes between two pins 0.1 in apart
    return tuple(Pad(str(start + i), x0 + dx * i, y0 + dy * i, 1.6, 1.6, 1.0, "rect" if start + i == 1 else "circle")
                 for i in range(n))


# The Pico on two 1 x 20 sockets (0.1 in): the Pico's own pin numbers, seen from its top with the
# USB end up: 1..20 down the left row, 21..40 up the right, rows 17.78 mm apart (Raspberry Pi,
# Pico datasheet, "Mechanical specification"). Its body (21 x 51 mm) is the courtyard.
PICO = Footprint("pegboard:RaspberryPi_Pico_Sockets",
                 _row(20, -8.89, -24.13, 0.0, 2.54) + _row(20, 8.89, 24.13, 0.0, -2.54, start=21),
                 (10.5, 25.5), (10.5, 25.5), 12.0, "Pico-sockets-2x20",
                 ((-8.89, 0.0, 1.5, 25.9), (8.89, 0.0, 1.5, 25.9)))

# Two pins (0.1 in) for the hint button's wires: KiCad Connector_PinHeader_2.54mm:PinHeader_1x02
HEADER_1X2 = Footprint("Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
                       _row(2, 0.0, 0.0, 2.54, 0.0), (2.6, 1.35), (2.54, 1.27), 8.5, "PinHeader_1x02")

MOUNTING_HOLE_D = 3.2  # an M3 screw's clearance hole (KiCad MountingHole_3.2mm_M3)
