"""The boards inside the box: the controller's perfboard (laid against the USB wall, centred on
its opening), the stacked board the 74HC165 option's chips go on, the rows each needs, and the
room the stack leaves under the pixel modules. All sizes in mm."""

from __future__ import annotations

import math

from pegboard.hardware.box import RING_T, RINGS, USB_EDGE, box_window, usb_opening
from pegboard.hardware.stack import PITCH, PIXEL_PCB_T, PIXEL_T, SENSOR_T

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

