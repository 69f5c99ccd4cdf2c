"""The board options of hardware/boards/ and the wiring facts a maker builds from: physical pin
numbers, the 74HC165 chain's order, the level shifter. The schematics (pegboard.hardware.schematic), the
hardware README's tables and the simulator's shift-register fake all read them from here."""

from __future__ import annotations

from pathlib import Path

import pegcore

ROOT = Path(pegcore.__file__).resolve().parent.parent.parent
BOARDS_DIR = ROOT / "hardware" / "boards"

# Raspberry Pi Pico: physical pin (1..40, counter-clockwise from the USB end's pin 1) per name
# (Raspberry Pi's Pico datasheet, "Pinout"). VBUS is USB's 5 V, straight from the socket; VSYS the
# board's supply input, fed from VBUS through the Pico's own Schottky diode D1 (Pico datasheet,
# "Powering Pico"); 3V3 the regulator's output for the sensors and chips.
PICO_PINS = {"GP0": 1, "GP1": 2, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP6": 9, "GP7": 10, "GP8": 11,
             "GP9": 12, "GP10": 14, "GP11": 15, "GP12": 16, "GP13": 17, "GP14": 19, "GP15": 20, "GP16": 21,
             "GP17": 22, "GP18": 24, "GP19": 25, "GP20": 26, "GP21": 27, "GP22": 29, "RUN": 30, "GP26": 31,
             "GP27": 32, "GP28": 34, "ADC_VREF": 35, "3V3": 36, "3V3_EN": 37, "VSYS": 39, "VBUS": 40}
# The seven GND pins. Pin 33 is AGND, the analogue ground the ADC inputs are measured against
# (Pico datasheet, "Pinout"): no return for the pixels' or anything else's current.
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 38)
PICO_AGND = 33

# 74HC165 (DIP-16) pins: parallel inputs A..H, controls, supply (TI SN74HC165 data sheet).
HC165_PINS = {"SH/LD": 1, "CLK": 2, "E": 3, "F": 4, "G": 5, "H": 6, "QH_INV": 7, "GND": 8, "QH": 9, "SER": 10,
              "A": 11, "B": 12, "C": 13, "D": 14, "CLK_INH": 15, "VCC": 16}
# 74AHCT125 (DIP-14): gate 1 buffers the pixel data; 1OE low enables it; unused gates' inputs and
# OE tied so they cannot float.
AHCT125_PINS = {"1OE": 1, "1A": 2, "1Y": 3, "2OE": 4, "2A": 5, "2Y": 6, "GND": 7, "3Y": 8, "3A": 9,
                "3OE": 10, "4Y": 11, "4A": 12, "4OE": 13, "VCC": 14}

# TI TPS22918 load switch, 6-pin SOT-23 (DBV) (TI data sheet SLVSD76, "Pin Configuration and
# Functions"): it soft-starts the pixels' 5 V from USB's VBUS, the rise time set by a capacitor
# from CT to GND; ON high (tied to VIN) is on; QOD left open disables the quick output discharge.
TPS22918_PINS = {"VIN": 1, "GND": 2, "ON": 3, "CT": 4, "QOD": 5, "VOUT": 6}

# TI DRV5032 hall switch: pin numbers per package (TI data sheet SLVSDC7, "Pin Configuration and
# Functions"). The two packages number OUT and GND the other way round: wired by the wrong table
# the hole never reads right (the open-drain AJ's pull-up limits the current); VCC and GND swapped
# destroy the sensor (hardware/README.md, "Sensor pins").
DRV5032_PACKAGES = ("SOT-23", "TO-92")
DRV5032_PINS = {"SOT-23": {"VCC": 1, "OUT": 2, "GND": 3}, "TO-92": {"VCC": 1, "GND": 2, "OUT": 3}}

# WS2812B pixel: the LED's own pins (Worldsemi WS2812B data sheet, "PIN function"), and the pads
# of the breakout each one sits on: SparkFun's WS2812B breakout (BOB-13282) names them 5V, GND,
# DI, DO (SparkFun, "WS2812 Breakout Hookup Guide").
WS2812B_PINS = {"VDD": 1, "DOUT": 2, "VSS": 3, "DIN": 4}
PIXEL_PADS = {"VDD": "5V", "DOUT": "DO", "VSS": "GND", "DIN": "DI"}

# Two-lead parts: terminal 1 and 2 as KiCad's symbols number them (a polarised capacitor's + is
# 1, a diode's cathode is 1); the label (+, -, K, A) says which is which.
POLAR_CAP_PINS = {"+": 1, "-": 2}
DIODE_PINS = {"K": 1, "A": 2}

# USB power (hardware/README.md, "Power budget", gives the reasoning):
# - CircuitPython's USB configuration descriptor asks the host for 100 mA (bMaxPower 0x32, in
#   units of 2 mA: adafruit/circuitpython supervisor/shared/usb/usb_desc.c, 9.2.1 to 10.2.1);
# - USB 2.0 section 7.2.4.1: at most 10 uF across VBUS at attach; more only behind VBUS surge
#   current limiting. So VBUS carries the load switch's input capacitor alone, and the bulk
#   capacitor sits behind the switch, charged at SOFT_START_MA by a rise time of
#   BULK_USB_UF * 5 V / SOFT_START_MA.
CIRCUITPYTHON_MAX_POWER_MA = 0x32 * 2
USB_ATTACH_MAX_UF = 10.0
VBUS_CIN_UF = 1.0            # TPS22918's input capacitor (its data sheet, "Input Capacitor (CIN)")
BULK_USB_UF = 100.0          # behind the load switch: the LED current is capped by the firmware
BULK_EXTERNAL_UF = 1000.0    # on an external supply, across the pixels' 5 V near pixel 1
SOFT_START_MA = 50           # the bulk capacitor's charging current the rise time is chosen for
VBUS_V = 5.0


def soft_start_ms() -> float:
    """The load switch's rise time that charges the bulk capacitor at SOFT_START_MA: t = C V / I."""
    return BULK_USB_UF * VBUS_V / SOFT_START_MA  # uF x V / mA = ms


# C3, from the TPS22918's CT pin to GND, sets VOUT's rise time (10 % to 90 %): TI's TPS22918 data
# sheet SLVSD76C, 8.3.3 "Adjustable Rise Time (CT)", Table 2 "Rise Time Table" (VIN = 5 V; typical,
# 25 degrees C, CIN = 1 uF, CL = 0.1 uF, RL = 10 ohm, a 25 V X7R capacitor on CT; Equation 3 there:
# SR = 0.55 x CT[pF] + 30 us/V). Typical values, measured with VIN steady before ON rises (6.6);
# here ON is tied to VIN and the load is C1, so the figure is an estimate: RISE_MARGIN is kept for
# that. Table 3 there, "Recommended CT Capacitor Voltage Rating": 20 V for VIN 4 V to 5.5 V.
CT_RISE_US_5V = {0: 135, 220: 650, 470: 1260, 1000: 2540, 2200: 5435, 4700: 12050, 10000: 26550}
CT_SOURCE = "TI TPS22918 data sheet SLVSD76C, 8.3.3 Adjustable Rise Time (CT), Table 2 (VIN = 5 V)"
CT_MIN_RATING_V = 20.0
RISE_MARGIN = 2.0  # the typical rise time at least twice soft_start_ms(): a part or a load slower or faster
C3_PF = 10000                 # 10 nF: KEMET C320C103K5R5TA, radial X7R, 50 V (bom.csv)
C3_RATING_V = 50.0
C3_VALUE = "10 nF 50 V X7R"


def c3_rise_ms(ct_pf: int = C3_PF) -> float:
    """VOUT's rise time (10 % to 90 %) at 5 V with `ct_pf` on CT, from the table above."""
    return CT_RISE_US_5V[ct_pf] / 1000


def smallest_ct_pf() -> int:
    """The smallest CT the table lists whose typical rise time is at least RISE_MARGIN x
    soft_start_ms()."""
    return min(c for c, us in CT_RISE_US_5V.items() if us / 1000 >= RISE_MARGIN * soft_start_ms())


def c1_charge_ma(ct_pf: int = C3_PF) -> float:
    """C1's charging current while VOUT rises from 10 % to 90 % of 5 V in c3_rise_ms: I = C dV / dt."""
    return BULK_USB_UF * 0.8 * VBUS_V / c3_rise_ms(ct_pf)  # uF x V / ms = mA


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
