"""The board options of hardware/boards/ and the wiring facts a maker builds from: physical pin
numbers, the 74HC165 chain's order, the level shifter. The schematics (pegboard.hardware.schematic), the
hardware README's tables and the simulator's shift-register fake all read them from here."""

from __future__ import annotations

from pathlib import Path

import pegcore

ROOT = Path(pegcore.__file__).resolve().parent.parent.parent
BOARDS_DIR = ROOT / "hardware" / "boards"

# Raspberry Pi Pico: physical pin (1..40, counter-clockwise from the USB end's pin 1) per name
# (Raspberry Pi's Pico datasheet, "Pinout"). Eight grounds; VBUS is USB's 5 V, 3V3 the regulator's
# output for the sensors and chips.
PICO_PINS = {"GP0": 1, "GP1": 2, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP6": 9, "GP7": 10, "GP8": 11,
             "GP9": 12, "GP10": 14, "GP11": 15, "GP12": 16, "GP13": 17, "GP14": 19, "GP15": 20, "GP16": 21,
             "GP17": 22, "GP18": 24, "GP19": 25, "GP20": 26, "GP21": 27, "GP22": 29, "RUN": 30, "GP26": 31,
             "GP27": 32, "GP28": 34, "ADC_VREF": 35, "3V3": 36, "3V3_EN": 37, "VSYS": 39, "VBUS": 40}
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 33, 38)

# 74HC165 (DIP-16) pins: parallel inputs A..H, controls, supply (TI SN74HC165 data sheet).
HC165_PINS = {"SH/LD": 1, "CLK": 2, "E": 3, "F": 4, "G": 5, "H": 6, "QH_INV": 7, "GND": 8, "QH": 9, "SER": 10,
              "A": 11, "B": 12, "C": 13, "D": 14, "CLK_INH": 15, "VCC": 16}
# 74AHCT125 (DIP-14): gate 1 buffers the pixel data; 1OE low enables it; unused gates' inputs and
# OE tied so they cannot float.
AHCT125_PINS = {"1OE": 1, "1A": 2, "1Y": 3, "2OE": 4, "2A": 5, "2Y": 6, "GND": 7, "3Y": 8, "3A": 9,
                "3OE": 10, "4Y": 11, "4A": 12, "4OE": 13, "VCC": 14}

# The 74HC165 chain as hardware/README.md wires it: (chip, input) per hole 1..15. Chip 1's QH
# drives the data pin, chip 2's QH goes into chip 1's SER. keypad.ShiftRegisterKeys reads key 0
# as the first bit shifted out, which is chip 1's input H, then G .. A, then chip 2's H .. : so
# hole 1 goes on chip 1's H. Chip 2's A is the 16th bit, never read: tie it to 3V3.
SHIFT_WIRING = [(1, "H"), (1, "G"), (1, "F"), (1, "E"), (1, "D"), (1, "C"), (1, "B"), (1, "A"),
                (2, "H"), (2, "G"), (2, "F"), (2, "E"), (2, "D"), (2, "C"), (2, "B")]


def shift_wiring_spec(wiring: list[tuple[int, str]] | None = None) -> str:
    """The wiring as the simulator's fake reads it: "1H,1G,..." (hole order)."""
    return ",".join("%d%s" % cw for cw in (wiring or SHIFT_WIRING))


def board_files() -> list[Path]:
    return sorted(BOARDS_DIR.glob("*.toml"))


def board_file(name: str) -> Path:
    """hardware/boards/NAME.toml by its name or a unique start of it ("pico" -> pico-gpio).
    Raises ValueError naming the choices."""
    files = board_files()
    names = [p.stem for p in files]
    if name in names:
        return BOARDS_DIR / (name + ".toml")
    starts = [n for n in names if n.startswith(name)]
    if len(starts) == 1:
        return BOARDS_DIR / (starts[0] + ".toml")
    why = "matches %s" % ", ".join(starts) if starts else "is not one of them"
    raise ValueError("--board %s %s: choose one of %s" % (name, why, ", ".join(names)))


def board_for_id(board_id: str) -> str | None:
    """The board file for a CircuitPython board id (boot_out.txt's "Board ID:"), if one fits."""
    if board_id == "raspberry_pi_pico":
        return "pico-gpio"
    if board_id == "adafruit_feather_rp2040":
        return "feather-rp2040-gpio"
    return None
