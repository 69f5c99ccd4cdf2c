"""Dimensioned drawings for makers, from one set of numbers: the section through one hole (peg in
and peg out: the light's path and what a player sees from a seat) and the box under the plate
(stacked laser-cut rings with the USB and button openings); and the figures the hardware README
prints about them: the optics, the peg's lean and the magnet's margins at the sensors. All sizes
in mm, fields in mT. No board has been built to this design: every figure is computed from the
dimensions below and the data-sheet values named beside them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pegcore.geometry import Board

from pegboard.hardware.field import Magnet, Sensor, crossing
from pegboard.hardware.plate import BORE_D, DISC_T, HOLE_D, LAYERS, TUBE_T, guide_depth, hole_centres, plate_outline

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
N_ACRYLIC = 1.49     # refractive index of PMMA in visible light
LEAN_LIMIT = 3.0     # degrees: the most a standing peg may lean (the old 3 mm deep hole: 9.5)
ELEVATIONS = (30.0, 45.0)  # a seated player's sight lines, degrees above the board, ~50 cm away

RING_T = 6.0         # box walls: rings of 6 mm plywood stacked under the plate
RINGS = 6
RING_WALL = 6.0      # wall width of each ring: 6 mm leaves the controller's perfboard room (controller_rect)
BOTTOM_T = 3.0
USB_NOTCH = (12.0, 12.0)     # width, height: rings 1-2 (the bottom two), left edge
USB_EDGE = 0                 # the outline's edge 0 (its top corner to its bottom-left): the left wall
BUTTON_NOTCH = (14.0, 12.0)  # rings 5-6 (just under the plate), front edge


# The controller's perfboard (bom.csv: Adafruit's half-sized Perma-Proto, 3.2 x 2.0 in, 30 rows laid
# out as a breadboard's: Adafruit 1609's product page, as the issue quotes it; check yours). The
# Pico or Feather is soldered at its row-1 end, its USB socket at the board's short edge, and the
# board lies with that edge against the USB wall, its middle at the notch's (controller_rect).
PERFBOARD_W = 2.0 * 25.4     # across the rows
PERFBOARD_L = 3.2 * 25.4     # along them
PERFBOARD_ROWS = 30
# Rows each part takes on it (a DIP of 2n pins takes n rows, straddling the middle channel): the
# Pico's 2 x 20 pins (Pico data sheet, "Pinout"), the Feather's longer header of 16, the
# 74AHCT125 (DIP-14), the load switch's SOT-23-6-to-DIP-6 adapter (2 x 3) or, on an external
# supply, the supply diode in the same 3 rows, and each 74HC165 (DIP-16).
MCU_ROWS = {"pico": 20, "feather": 16}
AHCT125_ROWS = 7
POWER_ROWS = 3
HC165_ROWS = 8
# The 74HC165 option's two chips go on a second board stacked over the controller board's far end
# (no flat place in the box takes a second board beside the first): a quarter-sized Perma-Proto
# (Adafruit 1608), 1.70 x 2.00 in with two 3.2 mm holes (Adafruit's Eagle outline,
# adafruit/Adafruit-Perma-Proto-PCB), 17 rows, its 2.0 in across the controller board.
SHIFT_BOARD_W = 2.0 * 25.4
SHIFT_BOARD_L = 1.7 * 25.4
SHIFT_BOARD_ROWS = 17
PERFBOARD_T = 1.6    # assumption: 1.6 mm FR-4, both boards
STANDOFF = 15.0      # M3 standoffs between the two boards
TALLEST_PART = 12.0  # allowance, not a data-sheet figure: the tallest part on either board (a DIP in
#                      its socket, the Pico on its headers, C1 standing) stays under it: check yours


# --- geometry -----------------------------------------------------------------------------------

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


# --- optics -------------------------------------------------------------------------------------

def _in_acrylic(theta: float) -> float:
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
    th = _solve(lambda t: DISC_T * math.tan(_in_acrylic(t)) + MAGNET.length * math.tan(t) - a)
    return math.sin(th) ** 2


def tube_wall_fraction() -> float:
    """Peg out: the share of the pixel's light that meets the light tube's inner wall (and lights
    the tube) before it leaves the hole; the rest goes straight up out of the hole."""
    r = HOLE_D / 2
    th = _solve(lambda t: DISC_T * math.tan(_in_acrylic(t)) + guide_depth() * math.tan(t) - r)
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


# --- the magnet at the sensors ------------------------------------------------------------------

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


# --- the section --------------------------------------------------------------------------------

def _dim(out: list[str], x1: float, y1: float, x2: float, y2: float, text: str, off: float) -> None:
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


def _rect(out: list[str], cls: str, x: float, y: float, w: float, h: float, label: str, extra: str = "") -> None:
    out.append('<rect class="%s" data-part="%s"%s x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>'
               % (cls, label, extra, x, y, w, h))


def _pair(out: list[str], cls: str, cx: float, r_in: float, r_out: float, y: float, h: float, label: str,
          extra: str = "") -> None:
    """Both halves of something cut through by the section: from r_in to r_out either side."""
    _rect(out, cls, cx - r_out, y, r_out - r_in, h, label, extra)
    _rect(out, cls, cx + r_in, y, r_out - r_in, h, label, extra)


def _line(out: list[str], cls: str, pts: list[tuple[float, float]], extra: str = "") -> None:
    out.append('<polyline class="%s"%s points="%s"/>' % (cls, extra, " ".join("%.2f,%.2f" % p for p in pts)))


def _sight(out: list[str], x: float, y: float, elevation: float, to_x: float, label: str) -> None:
    """A sight line from the point (x, y) up to the left, towards a player at `elevation`, and its
    label at the far end."""
    t = math.tan(math.radians(elevation))
    end_y = y - (x - to_x) * t
    _line(out, "sight", [(x, y), (to_x, end_y)], ' data-elevation="%g"' % elevation)
    out.append('<text class="sighttext" x="%.2f" y="%.2f" text-anchor="end">%s</text>'
               % (to_x - 0.5, end_y + 0.6, label))


def _view(out: list[str], cx: float, top: float, peg_in: bool) -> None:
    """One section through a hole's axis, its top face at y = top."""
    half = 22.0
    r_hole, r_bore, r_peg = HOLE_D / 2, BORE_D / 2, PEG_D / 2
    g = guide_depth()
    out.append('<g class="view" data-view="%s">' % ("peg-in" if peg_in else "peg-out"))
    out.append('<text class="title" x="%.2f" y="8" text-anchor="middle">%s</text>'
               % (cx, "PEG IN" if peg_in else "PEG OUT (an empty hole)"))
    for layer, y in zip(LAYERS, layer_tops().values(), strict=True):
        _pair(out, "wood", cx, r_bore, half, top + y, layer.thickness, layer.name,
              ' data-layer="%s" data-thickness="%g"' % (layer.key, layer.thickness))
    for k in range(round(g / TUBE_T)):
        _pair(out, "opal", cx, r_hole, r_bore, top + k * TUBE_T, TUBE_T, "light tube ring",
              ' data-thickness="%g"' % TUBE_T)
    _rect(out, "acrylic", cx - r_bore, top + g, BORE_D, DISC_T, "stop disc", ' data-thickness="%g"' % DISC_T)
    led_y = top + g + DISC_T
    _rect(out, "led", cx - PIXEL_W / 2, led_y, PIXEL_W, PIXEL_T, "pixel")
    pcb_y = led_y + PIXEL_T
    _rect(out, "pcb", cx - PIXEL_PCB_W / 2, pcb_y, PIXEL_PCB_W, PIXEL_PCB_T, "pixel board")
    sen_y = pcb_y + PIXEL_PCB_T
    _rect(out, "chip", cx - SENSOR_W / 2, sen_y, SENSOR_W, SENSOR_T, "sensor")
    hall_y = sen_y + HALL_DEPTH
    out.append('<line class="hall" x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"/>' % (cx - 0.6, hall_y, cx + 0.6, hall_y))
    src = (cx, led_y)
    far = cx - half - 2  # where the sight lines end, towards the player
    if peg_in:
        mag_y = top + g - MAGNET.length
        _pair(out, "magnet", cx, MAGNET.d_in / 2, MAGNET.d_out / 2, mag_y, MAGNET.length, "ring magnet")
        rod_y = mag_y - PEG_ROD
        _rect(out, "rod", cx - r_peg, rod_y, PEG_D, PEG_ROD, "peg")
        _rect(out, "frost", cx - r_peg, rod_y, PEG_D, 1.0, "sanded top")
        # light: up the disc and the core into the rod, guided to its sanded top
        _line(out, "light", [src, (cx, rod_y)])
        zig = [src, (cx + 0.5, top + g), (cx + 1.2, mag_y), (cx + r_peg, mag_y - 8)]
        y, side = mag_y - 8, -1
        while y - 14 > rod_y:
            y -= 14
            zig.append((cx + side * r_peg, y))
            side = -side
        zig.append((cx + side * 1.0, rod_y))
        _line(out, "light", zig)
        for a in (-60, -30, 0, 30, 60):
            dx, dy = math.sin(math.radians(a)), -math.cos(math.radians(a))
            _line(out, "glow", [(cx + dx * 2.2, rod_y - 0.5 + dy * 0.5), (cx + dx * 4.5, rod_y - 0.5 + dy * 3)])
        # what a player sees: the glowing top, over any peg in front
        for e in ELEVATIONS:
            _sight(out, cx - r_peg, rod_y, e, far, "%g°: the glowing top" % e)
        _dim(out, cx - r_peg, rod_y, cx + r_peg, rod_y, "Ø%g peg" % PEG_D, -5)
        _dim(out, cx + r_peg, rod_y, cx + r_peg, top, "%g above the board" % peg_above_board(), 3)
        _dim(out, cx + r_bore, mag_y, cx + r_bore, top + g, "%g ring magnet, Ø%g core"
             % (MAGNET.length, MAGNET.d_in), 2)
        _dim(out, cx + half, top + g, cx + half, hall_y, "%.2f magnet to Hall element" % magnet_to_sensor(), 2)
    else:
        # light: up the empty bore; all but the steepest rays meet the tube's wall and light it
        _line(out, "light", [src, (cx, top - 10)])
        for s in (-1, 1):
            th = math.radians(25)
            x0 = cx + s * DISC_T * math.tan(_in_acrylic(th))
            yw = top + g - (r_hole - abs(x0 - cx)) / math.tan(th)
            _line(out, "light", [src, (x0, top + g), (cx + s * r_hole, yw)])
            for k in range(3):
                _line(out, "glow", [(cx + s * (r_hole + 0.8 + 1.2 * k), top - 0.5),
                                    (cx + s * (r_hole + 1.4 + 1.6 * k), top - 3)])
        # what a player sees: not the bottom, but the far wall's top and the tube's glowing rim
        for e in ELEVATIONS:
            d = deepest_seen(e)
            _sight(out, cx + r_hole, top + d, e, far, "%g°: rim, %.2f down" % (e, d))
            out.append('<circle class="seen" cx="%.2f" cy="%.2f" r="0.5"/>' % (cx + r_hole, top + d))
        _dim(out, cx - r_hole, top, cx + r_hole, top, "Ø%g hole" % HOLE_D, -5)
        _dim(out, cx - r_bore, top, cx + r_bore, top, "Ø%g light tube" % BORE_D, -10)
        _dim(out, cx + half, top, cx + half, top + g, "%g guide" % g, 2)
        _dim(out, cx + r_bore, top + g, cx + r_bore, top + g + DISC_T, "%g disc" % DISC_T, 2)
        _dim(out, cx - r_bore, top + g + DISC_T, cx + r_bore, top + g + DISC_T, "Ø%g stop disc" % BORE_D, 8)
    # the stack, on the left of each view
    for layer, y in zip(LAYERS, layer_tops().values(), strict=True):
        _dim(out, cx - half, top + y, cx - half, top + y + layer.thickness, "%g %s" % (layer.thickness, layer.key), -1)
    out.append("</g>")


def hole_section_svg() -> str:
    """The section through one hole's axis, peg in (left) and peg out (right), scale 4:1 (mm)."""
    top = 66.0
    w, h = 184.0, 128.0
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
           % (4 * w, 4 * h, w, h),
           '<title>pegboard: section through one hole, peg in and peg out (mm)</title>',
           '<style>.wood{fill:#e6c99a;stroke:#333;stroke-width:0.15}.opal{fill:#f4f4ee;stroke:#333;stroke-width:0.15}'
           '.acrylic{fill:#cde;stroke:#333;stroke-width:0.15}.rod{fill:#dff0ff;stroke:#333;stroke-width:0.15}'
           '.frost{fill:#fff;stroke:#333;stroke-width:0.1}.magnet{fill:#999;stroke:#333;stroke-width:0.15}'
           '.pcb{fill:#3a6;stroke:#333;stroke-width:0.15}.chip{fill:#222}.led{fill:#fff;stroke:#333;'
           'stroke-width:0.15}.hall{stroke:#f00;stroke-width:0.3}.light{fill:none;stroke:#e8a000;stroke-width:0.3}'
           '.glow{stroke:#e8a000;stroke-width:0.3}.sight{fill:none;stroke:#06c;stroke-width:0.2;'
           'stroke-dasharray:1.2,0.8}.seen{fill:#06c}.sighttext{font:1.8px sans-serif;fill:#06c}'
           '.dim{stroke:#c00;stroke-width:0.12}.dimtext{font:1.8px sans-serif;fill:#c00}'
           '.title{font:bold 2.6px sans-serif}.note{font:2.2px sans-serif}</style>']
    _view(out, 62.0, top, True)
    _view(out, 142.0, top, False)
    m = sensor_margins()
    notes = [
        "Light (orange): the pixel shines up through the clear stop disc. Peg in: through the ring magnet's "
        "Ø%g core into the clear peg," % MAGNET.d_in,
        "which guides it to its sanded top. Peg out: up the empty hole; rays more than %.0f° off the axis meet the "
        "opal light tube, whose rim glows." % math.degrees(math.atan(HOLE_D / 2 / guide_depth())),
        "Sight lines (blue) to a player ~50 cm away, 30° and 45° above the board: a peg's glowing top is never "
        "behind another peg (all stand equally tall);",
        "an empty hole's bottom is out of sight below %.0f°, but its glowing rim (Ø%g, wider than a peg) is in "
        "sight even behind a peg." % (bottom_seen_above(), BORE_D),
        "Peg: Ø%g clear acrylic rod %g long on a %s, axially magnetised; stands %g mm deep, leans at most %.1f° "
        "(atan %.1f/%g)." % (PEG_D, PEG_ROD, MAGNET.name(), guide_depth(), lean_deg(), HOLE_D - PEG_D,
                             guide_depth()),
        "Field at the Hall element (current-loop model, worst case): %.1f mT less %.1f mT from all the other pegs "
        "= %.1f mT, %.1f x the %s's BOP max %g mT." % (m.own, m.neighbours, m.own_net, m.operate, SENSOR.name,
                                                    SENSOR.bop_max),
        "At the next hole %.2f mT; all other pegs at once %.2f mT; a peg lying on the board %.2f mT: each under "
        "the %s's BRP min %g mT." % (m.next_hole, m.neighbours, m.lying, SENSOR.name, SENSOR.brp_min),
        "Computed from these dimensions and data-sheet figures (hardware/README.md, \"One hole, in section\"); "
        "no board has been built to it yet.",
    ]
    for i, n in enumerate(notes):
        out.append('<text class="note" x="3" y="%.1f">%s</text>' % (top + 30 + i * 3.2, n))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the box ------------------------------------------------------------------------------------

def _inset(outline: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """An equilateral triangle moved in by d on every edge (vertices move 2d toward the centre)."""
    cx = sum(p[0] for p in outline) / 3
    cy = sum(p[1] for p in outline) / 3
    out = []
    for x, y in outline:
        r = math.hypot(x - cx, y - cy)
        out.append((x - (x - cx) / r * 2 * d, y - (y - cy) / r * 2 * d))
    return out


def ring_with_notch(outline: list[tuple[float, float]], window: list[tuple[float, float]], edge: int,
                    width: float) -> list[tuple[float, float]]:
    """One closed cut path: the ring between `outline` and `window` with a gap `width` wide in the
    middle of edge `edge` (from corner edge to corner edge+1): a C shape."""
    i, j, k = edge, (edge + 1) % 3, (edge + 2) % 3
    (ax, ay), (bx, by) = outline[i], outline[j]
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length * width / 2, (by - ay) / length * width / 2
    mx, my = (ax + bx) / 2, (ay + by) / 2
    nx, ny = (window[i][0] + window[j][0]) / 2, (window[i][1] + window[j][1]) / 2
    p1, p2 = (mx - ux, my - uy), (mx + ux, my + uy)
    q1, q2 = (nx - ux, ny - uy), (nx + ux, ny + uy)
    return [p2, outline[j], outline[k], outline[i], p1, q1, window[i], window[k], window[j], q2]


def box_window(rows: int = 5, pitch: float = PITCH, margin: float = 20.0,
               inset: float = RING_WALL) -> list[tuple[float, float]]:
    """The box's inner outline: the plate's outline moved in by the rings' wall (box_svg's window);
    or by `inset`."""
    return _inset(plate_outline(Board(rows), pitch, margin), inset)


def usb_opening(rows: int = 5, pitch: float = PITCH, margin: float = 20.0) -> tuple[float, float]:
    """The middle of the USB notch on the wall's inner face (ring_with_notch cuts it mid-edge)."""
    w = box_window(rows, pitch, margin)
    a, b = w[USB_EDGE], w[(USB_EDGE + 1) % 3]
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def perfboard_rows(board: str, supply: str = "usb") -> int:
    """Rows of the controller perfboard a board file needs: the microcontroller, the level shifter,
    the power part (load switch adapter or supply diode). The 74HC165s go on the stacked board."""
    mcu = MCU_ROWS["feather" if board.startswith("feather") else "pico"]
    assert supply in ("usb", "external")
    return mcu + AHCT125_ROWS + POWER_ROWS


def stacked_rows(board: str) -> int:
    """Rows of the stacked board: the two 74HC165s (none without the option)."""
    return 2 * HC165_ROWS if board.startswith("shift") else 0


def shift_board_rect(rows: int = 5, pitch: float = PITCH, margin: float = 20.0) -> list[tuple[float, float]]:
    """The stacked board's corners, seen from above: over the controller board's far end."""
    p1, p2, p3, p4 = controller_rect(rows, pitch, margin)
    t = 1 - SHIFT_BOARD_L / PERFBOARD_L  # from the USB end, where the stacked board starts
    q1 = (p1[0] + (p4[0] - p1[0]) * t, p1[1] + (p4[1] - p1[1]) * t)
    q2 = (p2[0] + (p3[0] - p2[0]) * t, p2[1] + (p3[1] - p2[1]) * t)
    return [q1, q2, p3, p4]


def stack_room() -> float:
    """What the box's depth leaves above the stacked board's tallest part, under the pixel
    modules (each hangs its pixel, its breakout and its sensor below the plate), in mm."""
    modules = PIXEL_T + PIXEL_PCB_T + SENSOR_T
    stack = PERFBOARD_T + STANDOFF + PERFBOARD_T + TALLEST_PART
    return RINGS * RING_T - modules - stack


def controller_rect(rows: int = 5, pitch: float = PITCH, margin: float = 20.0) -> list[tuple[float, float]]:
    """The perfboard's corners in the box: its short edge (the microcontroller's USB end) on the
    USB wall's inner face, centred on the opening, the board running straight inwards."""
    w = box_window(rows, pitch, margin)
    a, b = w[USB_EDGE], w[(USB_EDGE + 1) % 3]
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    cx, cy = sum(p[0] for p in w) / 3, sum(p[1] for p in w) / 3
    mx, my = usb_opening(rows, pitch, margin)
    nx, ny = (cx - mx), (cy - my)
    n = math.hypot(nx, ny)
    nx, ny = nx / n, ny / n  # inwards, square to the wall (the window is equilateral)
    h = PERFBOARD_W / 2
    p1, p2 = (mx - ux * h, my - uy * h), (mx + ux * h, my + uy * h)
    return [p1, p2, (p2[0] + nx * PERFBOARD_L, p2[1] + ny * PERFBOARD_L),
            (p1[0] + nx * PERFBOARD_L, p1[1] + ny * PERFBOARD_L)]


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


def box_layers() -> list[tuple[str, str, float, tuple[float, float] | None, int | None]]:
    """The box's layers from the bottom up: (key, name, thickness, notch (width, height), edge)."""
    out: list[tuple[str, str, float, tuple[float, float] | None, int | None]] = [
        ("bottom", "bottom", BOTTOM_T, None, None)]
    for n in range(1, RINGS + 1):
        notch, edge = (USB_NOTCH, USB_EDGE) if n <= 2 else (BUTTON_NOTCH, 1) if n > RINGS - 2 else (None, None)
        what = ": USB notch" if edge == USB_EDGE else ": button notch" if edge == 1 else ""
        out.append(("ring-%d" % n, "ring %d%s" % (n, what), RING_T, notch, edge))
    return out


def box_svg(rows: int = 5, pitch: float = PITCH, margin: float = 20.0) -> str:
    """Laser-cut parts of the box under the plate, every layer in its own group from the bottom
    up: the bottom (the plate's outline) and rings 1-6 (outline less a window leaving the wall):
    rings 1-2 have the USB notch in the left wall, rings 5-6 the button notch in the front wall."""
    outline = plate_outline(Board(rows), pitch, margin)
    window = _inset(outline, RING_WALL)
    side = math.dist(outline[0], outline[1])
    h = max(p[1] for p in outline) + 14
    w = max(p[0] for p in outline) + 2
    layers = box_layers()
    cols = 4
    grid_h = math.ceil(len(layers) / cols) * h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" viewBox="0 0 %.3f %.3f">'
           % (cols * w, grid_h + 20, cols * w, grid_h + 20),
           '<title>pegboard box: bottom and rings, every layer (mm), cut lines red</title>']

    def poly(pts: list[tuple[float, float]], attrs: str) -> str:
        return '<polygon %s points="%s" fill="none" stroke="red" stroke-width="0.1"/>' % (
            attrs, " ".join("%.3f,%.3f" % p for p in pts))

    for n, (key, name, thick, notch, edge) in enumerate(layers):
        ox, oy = (n % cols) * w, (n // cols) * h
        out.append('<g class="layer" id="box-%s" data-layer="%s" data-thickness="%g" transform="translate(%.3f,%.3f)">'
                   % (key, key, thick, ox, oy))
        if key == "bottom":
            out.append(poly(outline, 'class="bottom"'))
        elif notch is None or edge is None:
            out.append(poly(outline, 'class="ring"') + poly(window, 'class="ring-window"'))
        else:
            out.append(poly(ring_with_notch(outline, window, edge, notch[0]),
                            'class="ring" data-notch-width="%g" data-notch-height="%g"' % notch))
        out.append('<text x="%.1f" y="%.1f" font-size="5" text-anchor="middle">%d. %s, %g mm plywood</text>'
                   % (w / 2, h - 6, n + 1, name, thick))
        out.append("</g>")
    out.append('<text x="4" y="%.1f" font-size="4">Bottom up: the bottom, then %d rings (walls %g mm) glued under '
               'the %g mm plate: a box %g mm deep inside; plate side %.1f mm. The notches of two rings make '
               'openings %gx%g mm (USB, bottom of the left wall) and %gx%g mm (button, top of the front wall).</text>'
               % (grid_h + 10, RINGS, RING_WALL, plate_thickness(), RINGS * RING_T, side, USB_NOTCH[0], USB_NOTCH[1],
                  BUTTON_NOTCH[0], BUTTON_NOTCH[1]))
    out.append("</svg>")
    return "\n".join(out) + "\n"
