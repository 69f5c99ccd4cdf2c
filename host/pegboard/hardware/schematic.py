"""A schematic per board file: every part with its pins (each with its physical number: a package
pin, a Pico pin, a Feather's silkscreen name) and the net each pin joins, as a netlist and as an
SVG drawn from it (net labels instead of wires: each pin is marked with the name of the net it goes
to, as in any net-label schematic). The sensors' outputs are open-drain: on the 74HC165 option
each input gets a 10 k pull-up drawn as a part of its own, on direct GPIO the RP2040's internal
pull-up does it (a note says so). Two supplies: USB alone (the pixels' 5 V soft-started from
VBUS by a load switch) or an external 5 V supply that can never feed the USB host."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, Optional
from xml.sax.saxutils import escape

from pegboard.hardware.boards import (AHCT125_PINS, BULK_EXTERNAL_UF, BULK_USB_UF, DIODE_PINS, DRV5032_PACKAGES,
                                      DRV5032_PINS, HC165_PINS, PICO_GROUNDS, PICO_PINS, PIXEL_PADS,
                                      POLAR_CAP_PINS, SHIFT_WIRING, TPS22918_PINS, VBUS_CIN_UF, WS2812B_PINS,
                                      C3_VALUE, soft_start_ms)

SUPPLIES = ("usb", "external")
DESCRIPTION_CHARS = 38  # what fits a part's box beside its reference


class Pin(NamedTuple):
    part: str
    label: str
    number: str  # never empty: a package or board pin number, or a silkscreen name
    net: str
    pad: Optional[str] = None  # the breakout pad it is reached by, where the part sits on one
    package: Optional[str] = None  # what `number` counts in, where it differs by package


class Schematic:
    def __init__(self, title: str, notes: tuple[str, ...] = ()) -> None:
        self.title = title
        self.notes = notes
        self.parts: dict[str, str] = {}
        self.pins: list[Pin] = []

    def part(self, ref: str, what: str) -> None:
        self.parts[ref] = what

    def pin(self, ref: str, label: str, number: int | str, net: str, pad: str | None = None,
            package: str | None = None) -> None:
        if number in ("", None):
            raise ValueError("%s pin %s has no number" % (ref, label))
        self.pins.append(Pin(ref, label, str(number), net, pad, package))

    def two_pin(self, ref: str, what: str, net1: str, net2: str, labels: str = "12") -> None:
        """A capacitor, resistor, diode or button: terminal labels[0] on net1, labels[1] on net2,
        numbered as KiCad's symbols number them (1 and 2; a polarised capacitor's + and a diode's
        cathode are 1)."""
        numbers = {"+-": POLAR_CAP_PINS, "KA": DIODE_PINS}.get(labels, {labels[0]: 1, labels[1]: 2})
        self.part(ref, what)
        self.pin(ref, labels[0], numbers[labels[0]], net1)
        self.pin(ref, labels[1], numbers[labels[1]], net2)

    def net_of(self, ref: str, label: str) -> str:
        for p in self.pins:
            if p.part == ref and label in (p.label, p.number):
                return p.net
        raise KeyError("%s has no pin %s" % (ref, label))

    def nets(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for p in self.pins:
            name = p.label if p.number == p.label else "%s/%s" % (p.label, p.number)
            out.setdefault(p.net, []).append((p.part, name))
        return out


def _mcu_pin(pico: bool, name: str) -> int | str:
    """A Pico pin's physical number; a Feather's pins are known by their silkscreen names."""
    return PICO_PINS[name] if pico else name


def sensor_numbers(label: str) -> str:
    """The DRV5032 pin's number in each package the BOM offers, "SOT-23/TO-92": "2/3" for OUT."""
    return "/".join(str(DRV5032_PINS[pkg][label]) for pkg in DRV5032_PACKAGES)


def _uf(value: float) -> str:
    return "%g uF" % value


def _supply(s: Schematic, pico: bool, supply: str) -> None:
    """The microcontroller's supply pins and the pixels' 5 V (net 5V), by the supply option."""
    if supply == "usb":
        # USB's VBUS carries only the load switch and its input capacitor (USB 2.0 7.2.4.1: at
        # most 10 uF at attach); the pixels' 5 V and the bulk capacitor come up behind the switch
        if pico:
            s.pin("U1", "VBUS", PICO_PINS["VBUS"], "VBUS")
        else:
            s.pin("U1", "USB", "USB", "VBUS")
        s.part("U5", "TPS22918 load switch: soft start")
        for label, net in (("VIN", "VBUS"), ("GND", "GND"), ("ON", "VBUS"), ("CT", "CT"), ("QOD", "NC"),
                           ("VOUT", "5V")):
            s.pin("U5", label, TPS22918_PINS[label], net)
        s.two_pin("C2", "%s ceramic at U5 VIN (on VBUS)" % _uf(VBUS_CIN_UF), "VBUS", "GND")
        s.two_pin("C3", "%s on CT: rise >= %d ms" % (C3_VALUE, round(soft_start_ms())), "CT", "GND")
        bulk = BULK_USB_UF
    else:
        # the supply feeds the pixels (net 5V) and never VBUS: on a Pico through a Schottky diode
        # into VSYS, beside the Pico's own diode from VBUS (Pico datasheet, "Powering Pico"); a
        # Feather stays on USB (its USB pin is VBUS itself), sharing only GND
        s.part("J1", "5 V supply in (2-way terminal)")
        s.pin("J1", "+5V", 1, "5V")
        s.pin("J1", "GND", 2, "GND")
        if pico:
            s.pin("U1", "VBUS", PICO_PINS["VBUS"], "NC")
            s.pin("U1", "VSYS", PICO_PINS["VSYS"], "VSYS")
            s.two_pin("DX1", "1N5817 Schottky: 5V into VSYS", "VSYS", "5V", "KA")
        else:
            s.pin("U1", "USB", "USB", "NC")
        bulk = BULK_EXTERNAL_UF
    s.two_pin("C1", "%s 10 V electrolytic, at pixel 1" % _uf(bulk), "5V", "GND", "+-")
    if pico:
        s.pin("U1", "3V3", PICO_PINS["3V3"], "3V3")
        for g in PICO_GROUNDS:
            s.pin("U1", "GND", g, "GND")
    else:
        s.pin("U1", "3V", "3V", "3V3")
        s.pin("U1", "GND", "GND", "GND")


def build(settings: Mapping[str, object], title: str, pico: bool = True, supply: str = "usb",
          printed: bool = False) -> Schematic:
    """The schematic of a board file. `pico`: the microcontroller is a Raspberry Pi Pico
    (physical pin numbers); otherwise its pins are given by their silkscreen names. `supply`:
    "usb" or "external" (SUPPLIES). `printed`: the printed circuit board's (hardware/pcb/): bare
    WS2812Bs, each with its own 0.1 uF (a breakout brings its own)."""
    if supply not in SUPPLIES:
        raise ValueError("supply must be one of %s, not %r" % (", ".join(SUPPLIES), supply))
    rows = int(str(settings.get("PEGBOARD_ROWS", 5)))
    holes = rows * (rows + 1) // 2
    shift = settings.get("PEGBOARD_SENSORS") == "shift"
    s = Schematic(title, _notes(pico, supply, printed, holes, shift))
    s.part("U1", "Raspberry Pi Pico" if pico else "Adafruit Feather RP2040")
    _supply(s, pico, supply)
    _sensors(s, holes, shift)
    if shift:
        _shift_chain(s, settings, pico, holes)
    else:
        for h, name in enumerate(str(settings["PEGBOARD_SENSOR_PINS"]).split(","), 1):
            s.pin("U1", name.strip(), _mcu_pin(pico, name.strip()), "HOLE%d" % h)
    _pixels(s, settings, pico, holes, printed)
    _button_and_piezo(s, settings, pico, printed)
    if printed and pico:
        _on_sockets(s)
    return s


def _notes(pico: bool, supply: str, printed: bool, holes: int, shift: bool) -> tuple[str, ...]:
    """The notes the drawing carries: pin numbering, the supply, the pull-ups."""
    sensors = ", ".join("%s %s" % (sensor_numbers(lab), lab) for lab in ("VCC", "OUT", "GND"))
    notes: tuple[str, ...] = (
        "S pins are numbered SOT-23/TO-92: the DRV5032's packages differ (TI SLVSDC7): %s." % sensors,
        "D pins: the WS2812B's own pin numbers%s." % (", each pixel with its 0.1 uF (CDn) beside it" if printed
                                                       else ", [pad] the breakout's pad (5V, GND, DI, DO)"))
    if supply == "usb":
        notes += ("Supply: USB alone. VBUS carries only U5 and C2; U5 soft-starts the pixels' 5 V "
                  "and C1 behind it (hardware/README.md, Power budget).",)
    else:
        notes += (("Supply: 5 V in at J1, for the pixels and, through DX1, the Pico's VSYS; VBUS is "
                   "left unconnected, so nothing feeds the USB host.") if pico else
                  ("Supply: 5 V in at J1, for the pixels only; the Feather stays on USB (its USB pin "
                   "is VBUS itself: left unconnected). GND is common."),)
    # the DRV5032AJ's output is open-drain: it pulls its line low with a magnet near and lets go of
    # it otherwise, so every input needs a pull-up (hardware/README.md, "Sensor polarity")
    if shift:
        notes += ("Pull-ups: the DRV5032AJ's OUT is open-drain and the 74HC165 has none of its own: "
                  "RS1..RS%d, 10 k from each HOLEn to 3V3." % holes,)
    else:
        notes += ("Pull-ups: the DRV5032AJ's OUT is open-drain; each HOLEn input uses the RP2040's internal "
                  "pull-up (keypad pull=True): no resistor.",)
    return notes


def _sensors(s: Schematic, holes: int, shift: bool) -> None:
    """One hall switch per hole, 0.1 uF across its supply (and its pull-up on the shift chain)."""
    for h in range(1, holes + 1):
        s.part("S%d" % h, "DRV5032AJ open-drain switch, hole %d" % h)
        for label, net in (("VCC", "3V3"), ("OUT", "HOLE%d" % h), ("GND", "GND")):
            s.pin("S%d" % h, label, sensor_numbers(label), net, package="/".join(DRV5032_PACKAGES))
        s.two_pin("CS%d" % h, "0.1 uF ceramic at S%d" % h, "3V3", "GND")
        if shift:  # the 74HC165's inputs have no pull-up: one resistor per hole
            s.two_pin("RS%d" % h, "10 k pull-up, hole %d (open drain)" % h, "HOLE%d" % h, "3V3")


def _shift_chain(s: Schematic, settings: Mapping[str, object], pico: bool, holes: int) -> None:
    """Two 74HC165s in a chain read the holes into three pins."""
    data, clock, latch = (str(settings[k]) for k in ("PEGBOARD_SR_DATA", "PEGBOARD_SR_CLOCK",
                                                        "PEGBOARD_SR_LATCH"))
    s.pin("U1", data, _mcu_pin(pico, data), "SR_DATA")
    s.pin("U1", clock, _mcu_pin(pico, clock), "SR_CLOCK")
    s.pin("U1", latch, _mcu_pin(pico, latch), "SR_LATCH")
    chips = {1: "U3", 2: "U4"}
    used: dict[int, set[str]] = {1: set(), 2: set()}
    for h, (chip, letter) in enumerate(SHIFT_WIRING, 1):
        if h <= holes:
            s.pin(chips[chip], letter, HC165_PINS[letter], "HOLE%d" % h)
            used[chip].add(letter)
    for chip, ref in chips.items():
        s.part(ref, "74HC165 #%d of the chain, at 3.3 V" % chip)
        for letter in "ABCDEFGH":
            if letter not in used[chip]:
                s.pin(ref, letter, HC165_PINS[letter], "3V3")  # an unused input: the no-peg level
        s.pin(ref, "VCC", HC165_PINS["VCC"], "3V3")
        s.pin(ref, "GND", HC165_PINS["GND"], "GND")
        s.pin(ref, "CLK INH", HC165_PINS["CLK_INH"], "GND")
        s.pin(ref, "CLK", HC165_PINS["CLK"], "SR_CLOCK")
        s.pin(ref, "SH/LD", HC165_PINS["SH/LD"], "SR_LATCH")
        s.pin(ref, "/QH", HC165_PINS["QH_INV"], "NC")
        s.two_pin("C%s" % ref, "0.1 uF ceramic at %s" % ref, "3V3", "GND")
    s.pin("U3", "QH", HC165_PINS["QH"], "SR_DATA")
    s.pin("U3", "SER", HC165_PINS["SER"], "SR_CHAIN")
    s.pin("U4", "QH", HC165_PINS["QH"], "SR_CHAIN")
    s.pin("U4", "SER", HC165_PINS["SER"], "GND")  # the end of the chain: a level, never floating


def _pixels(s: Schematic, settings: Mapping[str, object], pico: bool, holes: int, printed: bool) -> None:
    """3.3 V data through the 74AHCT125 (5 V) and 470 ohm to pixel 1, chained in hole order."""
    px = str(settings["PEGBOARD_PIXEL_PIN"])
    s.pin("U1", px, _mcu_pin(pico, px), "PIXEL_3V3")
    s.part("U2", "74AHCT125 level shifter (5 V)")
    s.pin("U2", "1A", AHCT125_PINS["1A"], "PIXEL_3V3")
    s.pin("U2", "1OE", AHCT125_PINS["1OE"], "GND")  # low = enabled
    s.pin("U2", "1Y", AHCT125_PINS["1Y"], "PIXEL_5V")
    s.pin("U2", "VCC", AHCT125_PINS["VCC"], "5V")
    s.pin("U2", "GND", AHCT125_PINS["GND"], "GND")
    for gate in "234":
        s.pin("U2", gate + "OE", AHCT125_PINS[gate + "OE"], "5V")  # unused gates off ...
        s.pin("U2", gate + "A", AHCT125_PINS[gate + "A"], "GND")  # ... and their inputs not floating
        s.pin("U2", gate + "Y", AHCT125_PINS[gate + "Y"], "NC")
    s.two_pin("CU2", "0.1 uF ceramic at U2", "5V", "GND")
    s.two_pin("R1", "470 ohm", "PIXEL_5V", "DIN1")
    for h in range(1, holes + 1):
        ref = "D%d" % h
        s.part(ref, "WS2812B%s, hole %d" % ("" if printed else " breakout", h))
        for label, net in (("VDD", "5V"), ("DOUT", "DIN%d" % (h + 1) if h < holes else "NC"), ("VSS", "GND"),
                           ("DIN", "DIN%d" % h)):
            s.pin(ref, label, WS2812B_PINS[label], net, pad=None if printed else PIXEL_PADS[label])
        if printed:
            s.two_pin("CD%d" % h, "0.1 uF ceramic at D%d" % h, "5V", "GND")


def _button_and_piezo(s: Schematic, settings: Mapping[str, object], pico: bool, printed: bool) -> None:
    btn = str(settings["PEGBOARD_BUTTON_PIN"])
    s.pin("U1", btn, _mcu_pin(pico, btn), "BUTTON")
    s.two_pin("SW1", "hint button, across its switch", "BUTTON", "GND")
    piezo = settings.get("PEGBOARD_PIEZO_PIN")
    if piezo:  # driven straight from its pin (hardware/README.md, Sound): 3.3 V square wave, R2 in series
        s.pin("U1", str(piezo), _mcu_pin(pico, str(piezo)), "PIEZO_PWM")
        s.two_pin("R2", "220 ohm, the piezo's series resistor", "PIEZO_PWM", "PIEZO")
        s.two_pin("BZ1", "piezo TDK PS1240P02BT (no oscillator)%s" % (", on a 2-pin header" if printed else ""),
                  "PIEZO", "GND")


SOCKETS = ("J2", "J3")  # the printed board's: the Pico's pins 1..20 and 21..40


def _on_sockets(s: Schematic) -> None:
    """The printed board's Pico plugs into two 1 x 20 sockets: its pin n is J2's pin n (n <= 20)
    or J3's pin n - 20, each labelled with the Pico's pin name and number."""
    del s.parts["U1"]
    for ref, first in zip(SOCKETS, (1, 21), strict=True):
        s.part(ref, "Raspberry Pi Pico pins %d-%d: 1 x 20 socket" % (first, first + 19))
    s.pins = [Pin(SOCKETS[int(p.number) > 20], "%s (Pico %s)" % (p.label, p.number), str((int(p.number) - 1) % 20 + 1),
                  p.net, p.pad, p.package) if p.part == "U1" else p for p in s.pins]


def _reading_order(ref: str) -> tuple[int, int, int]:
    """The microcontroller, the chips, the parts around them, then per hole its sensor, its
    capacitor and (on the 74HC165 option) its pull-up, then the pixels (each with its capacitor on
    the printed board)."""
    kind = ref.rstrip("0123456789")
    num = int(ref[len(kind):] or 0)
    if kind == "U":
        return (0, num, 0)
    if kind == "CU":
        return (0, num, 1)
    if kind in ("J", "DX", "R", "C", "SW", "BZ"):
        return (1, ("J", "DX", "C", "R", "SW", "BZ").index(kind), num)
    if kind in ("S", "CS", "RS"):
        return (2, num, ("S", "CS", "RS").index(kind))
    return (3, num, 1 if kind == "CD" else 0)


def svg(s: Schematic) -> str:
    """The schematic as SVG: one box per part, its pins listed as 'number name [pad] → NET'."""
    col_w, line_h = 290, 15
    boxes = []
    for ref, what in sorted(s.parts.items(), key=lambda kv: _reading_order(kv[0])):
        pins = [p for p in s.pins if p.part == ref]
        boxes.append((ref, what, pins, 34 + line_h * len(pins)))
    cols = 4
    per_col = sum(b[3] + 12 for b in boxes) / cols
    heights = [0] * cols
    placed = []
    c = 0
    top = 73 + 15 * len(s.notes)
    for ref, what, pins, h in boxes:  # in reading order, down one column, then the next
        if heights[c] and heights[c] + h / 2 > per_col and c < cols - 1:
            c += 1
        placed.append((c * col_w + 20, heights[c] + top, ref, what, pins, h))
        heights[c] += h + 12
    width = cols * col_w + 40
    height = max(heights) + top + 20
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="26" font-size="16">%s</text>' % escape(s.title),
           '<text x="20" y="42">Pins joined by the same net name (5V, 3V3, GND, HOLEn, ...) are wired together; '
           'NC: not connected.</text>',
           '<text x="20" y="57">Pin numbers are physical: package pin, Pico pin, a Feather\'s silkscreen name; '
           'two-lead parts 1 and 2 (1 = + or cathode).</text>']
    for i, note in enumerate(s.notes):
        out.append('<text class="note" x="20" y="%d">%s</text>' % (72 + 15 * i, escape(note)))
    for x, y, ref, what, pins, h in placed:
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#f4f4f4" stroke="#333"/>'
                   % (x, y, col_w - 14, h))
        out.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (x + 6, y + 16, escape(ref)))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 40, y + 16, escape(what[:DESCRIPTION_CHARS])))
        for i, p in enumerate(pins):
            py = y + 34 + i * line_h
            attrs = 'class="pin" data-part="%s" data-pin="%s" data-number="%s" data-net="%s"' % (
                escape(p.part), escape(p.label), escape(p.number), escape(p.net))
            if p.pad:
                attrs += ' data-pad="%s"' % escape(p.pad)
            if p.package:
                attrs += ' data-package="%s"' % escape(p.package)
            name = p.label if p.number == p.label else "%s %s" % (p.number, p.label)
            if p.pad:
                name += " [%s]" % p.pad
            colour = {"5V": "#c00", "VBUS": "#c00", "3V3": "#c60", "GND": "#333", "NC": "#999"}.get(p.net, "#06c")
            out.append('<text %s x="%d" y="%d">%s <tspan fill="%s">→ %s</tspan></text>'
                       % (attrs, x + 10, py, escape(name), colour, escape(p.net)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
