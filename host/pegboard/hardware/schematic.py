"""A schematic per board file: every part with its pins (physical numbers where the part has them)
and the net each pin joins, as a netlist and as an SVG drawn from it (net labels instead of
wires: each pin is marked with the name of the net it goes to, as in any net-label schematic)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional
from xml.sax.saxutils import escape

from pegboard.hardware.boards import AHCT125_PINS, HC165_PINS, PICO_GROUNDS, PICO_PINS, SHIFT_WIRING

# part -> (what it is, value) ; pins: (part, pin label, physical number or None, net)
Pin = tuple[str, str, Optional[int], str]


class Schematic:
    def __init__(self, title: str) -> None:
        self.title = title
        self.parts: dict[str, str] = {}
        self.pins: list[Pin] = []

    def part(self, ref: str, what: str) -> None:
        self.parts[ref] = what

    def pin(self, ref: str, label: str, number: int | None, net: str) -> None:
        self.pins.append((ref, label, number, net))

    def two_pin(self, ref: str, what: str, net1: str, net2: str, labels: str = "12") -> None:
        """A capacitor or resistor: pin labels[0] on net1, labels[1] on net2."""
        self.part(ref, what)
        self.pin(ref, labels[0], None, net1)
        self.pin(ref, labels[1], None, net2)

    def net_of(self, ref: str, label: str) -> str:
        for r, lab, num, net in self.pins:
            if r == ref and (lab == label or str(num) == label):
                return net
        raise KeyError("%s has no pin %s" % (ref, label))

    def nets(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for r, lab, num, net in self.pins:
            out.setdefault(net, []).append((r, lab if num is None else "%s/%d" % (lab, num)))
        return out


def _mcu_pin(pico: bool, name: str) -> int | None:
    return PICO_PINS[name] if pico else None


def build(settings: Mapping[str, object], title: str, pico: bool = True) -> Schematic:
    """The schematic of a board file. `pico`: the microcontroller is a Raspberry Pi Pico
    (physical pin numbers); otherwise its pins are given by their silkscreen names."""
    s = Schematic(title)
    rows = int(str(settings.get("PEGBOARD_ROWS", 5)))
    holes = rows * (rows + 1) // 2
    shift = settings.get("PEGBOARD_SENSORS") == "shift"
    s.part("U1", "Raspberry Pi Pico" if pico else "Adafruit Feather RP2040")
    # supply: USB's 5 V for the pixels and the level shifter, the board's 3.3 V for the logic
    if pico:
        s.pin("U1", "VBUS", 40, "5V")
        s.pin("U1", "3V3", 36, "3V3")
        for g in PICO_GROUNDS:
            s.pin("U1", "GND", g, "GND")
    else:
        s.pin("U1", "USB", None, "5V")
        s.pin("U1", "3V", None, "3V3")
        s.pin("U1", "GND", None, "GND")
    # sensors: one hall switch per hole, 0.1 uF across its supply
    for h in range(1, holes + 1):
        s.part("S%d" % h, "hall switch, hole %d" % h)
        s.pin("S%d" % h, "VCC", None, "3V3")
        s.pin("S%d" % h, "GND", None, "GND")
        s.pin("S%d" % h, "OUT", None, "HOLE%d" % h)
        s.two_pin("CS%d" % h, "0.1 uF ceramic at S%d" % h, "3V3", "GND")
    if shift:
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
            s.two_pin("C%s" % ref, "0.1 uF ceramic at %s" % ref, "3V3", "GND")
        s.pin("U3", "QH", HC165_PINS["QH"], "SR_DATA")
        s.pin("U3", "SER", HC165_PINS["SER"], "SR_CHAIN")
        s.pin("U4", "QH", HC165_PINS["QH"], "SR_CHAIN")
        s.pin("U4", "SER", HC165_PINS["SER"], "GND")  # the end of the chain: a level, never floating
    else:
        for h, name in enumerate(str(settings["PEGBOARD_SENSOR_PINS"]).split(","), 1):
            s.pin("U1", name.strip(), _mcu_pin(pico, name.strip()), "HOLE%d" % h)
    # pixels: 3.3 V data through the 74AHCT125 (5 V) and 470 ohm to pixel 1, chained in hole order
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
    s.two_pin("CU2", "0.1 uF ceramic at U2", "5V", "GND")
    s.two_pin("R1", "470 ohm", "PIXEL_5V", "DIN1")
    s.two_pin("C1", "1000 uF 10 V, at pixel 1", "5V", "GND", "+-")
    for h in range(1, holes + 1):
        s.part("D%d" % h, "WS2812B pixel, hole %d" % h)
        s.pin("D%d" % h, "VDD", None, "5V")
        s.pin("D%d" % h, "VSS", None, "GND")
        s.pin("D%d" % h, "DIN", None, "DIN%d" % h)
        s.pin("D%d" % h, "DOUT", None, "DIN%d" % (h + 1) if h < holes else "NC")
    btn = str(settings["PEGBOARD_BUTTON_PIN"])
    s.pin("U1", btn, _mcu_pin(pico, btn), "BUTTON")
    s.two_pin("SW1", "hint button", "BUTTON", "GND")
    return s


def _reading_order(ref: str) -> tuple[int, int, int]:
    """The microcontroller, the chips, the parts around them, then per hole its sensor and
    capacitor, then the pixels."""
    kind = ref.rstrip("0123456789")
    num = int(ref[len(kind):] or 0)
    if kind == "U":
        return (0, num, 0)
    if kind == "CU":
        return (0, num, 1)
    if kind in ("R", "C", "SW"):
        return (1, num, 0)
    if kind in ("S", "CS"):
        return (2, num, kind == "CS")
    return (3, num, 0)


def svg(s: Schematic) -> str:
    """The schematic as SVG: one box per part, its pins listed as 'number name → NET'."""
    col_w, line_h = 250, 15
    boxes = []
    for ref, what in sorted(s.parts.items(), key=lambda kv: _reading_order(kv[0])):
        pins = [p for p in s.pins if p[0] == ref]
        boxes.append((ref, what, pins, 34 + line_h * len(pins)))
    cols = 4
    per_col = sum(b[3] + 12 for b in boxes) / cols
    heights = [0] * cols
    placed = []
    c = 0
    for ref, what, pins, h in boxes:  # in reading order, down one column, then the next
        if heights[c] and heights[c] + h / 2 > per_col and c < cols - 1:
            c += 1
        placed.append((c * col_w + 20, heights[c] + 50, ref, what, pins, h))
        heights[c] += h + 12
    width = cols * col_w + 40
    height = max(heights) + 70
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="26" font-size="16">%s</text>' % escape(s.title),
           '<text x="20" y="42">Pins joined by the same net name (5V, 3V3, GND, HOLEn, ...) are wired together. '
           'Pin numbers are physical (package or board pin).</text>']
    for x, y, ref, what, pins, h in placed:
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#f4f4f4" stroke="#333"/>'
                   % (x, y, col_w - 14, h))
        out.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (x + 6, y + 16, escape(ref)))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 40, y + 16, escape(what[:36])))
        for i, (_, label, num, net) in enumerate(pins):
            py = y + 34 + i * line_h
            number = "" if num is None else "%d " % num
            attrs = 'class="pin" data-part="%s" data-pin="%s" data-number="%s" data-net="%s"' % (
                escape(ref), escape(label), "" if num is None else num, escape(net))
            colour = {"5V": "#c00", "3V3": "#c60", "GND": "#333"}.get(net, "#06c")
            out.append('<text %s x="%d" y="%d">%s%s <tspan fill="%s">→ %s</tspan></text>'
                       % (attrs, x + 10, py, number, escape(label), colour, escape(net)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
