"""The parts list (hardware/bom.csv): every line's order code and source, its quantity for each
board size, and the totals, summed from the file (the README's totals are these sums: a test holds
them together). No prices: none has been checked as a list price on a date.

A line's quantity for a board of H holes is per_board + per_hole x H + per_8_holes x ceil(H / 8)
(a 74HC165 reads 8 holes); `pack` is how many come in what the source sells, so the order is
ceil(quantity / pack) of those. `option` is empty for what every build needs, or the option the
line belongs to (OPTIONS). `check` names what is least certain about the line, to look at when
ordering."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from pegboard.hardware.boards import ROOT

BOM = ROOT / "hardware" / "bom.csv"
SIZES = (15, 21, 28)  # 5, 6 and 7 rows: the sizes the firmware plays (4 rows, 10 holes, too)
PICO_GPIO = 26  # GP0..GP22 and GP26..GP28 (Raspberry Pi, Pico data sheet, "Pinout")
OPTIONS = {
    "usb": "USB alone (the usual supply): the soft start on VBUS (hardware/README.md, Power budget)",
    "external": "an external 5 V supply for the pixels, in place of the [usb] lines",
    "shift": "the 74HC165 option (hardware/boards/shift-74hc165.toml): boards without a pin per hole",
    "pullups": "10 k pull-ups on the 74HC165 inputs, for the open-drain DRV5032AJ (with [shift])",
    "pixelcap": "a 0.1 uF for each pixel that has none of its own",
}
BUILD = ("usb",)  # what the totals count besides the lines every build needs
SHIFT = ("shift", "pullups")  # the 74HC165 option, with the pull-ups its inputs need


@dataclass
class Line:
    item: str
    per_board: float
    per_hole: float
    per_8_holes: float
    unit: str
    pack: int
    manufacturer: str
    part: str  # the manufacturer's part number (or, for stock material, what to ask for)
    source: str  # a distributor and its part number, or a shop's product page name
    alternatives: str
    option: str
    check: str
    notes: str

    def qty(self, holes: int) -> float:
        return self.per_board + self.per_hole * holes + self.per_8_holes * math.ceil(holes / 8)

    def to_order(self, holes: int) -> int:
        """How many of what the source sells (packs of `pack`)."""
        return math.ceil(round(self.qty(holes), 6) / self.pack)


class BomError(ValueError):
    """A row of the parts list whose fields do not match its header."""


def read(path: str | Path | None = None) -> list[Line]:
    path = BOM if path is None else path
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        for fields in reader:
            if not fields:
                continue  # a blank line, as csv.DictReader skips
            # csv.DictReader would file a 14th field (an unquoted comma in a note) under None, unseen
            if len(fields) != len(header):
                raise BomError("%s line %d: %d fields, the header has %d (a comma inside a field needs the "
                               "field in double quotes)" % (path, reader.line_num, len(fields), len(header)))
            row = dict(zip(header, fields, strict=True))
            out.append(Line(row["item"], float(row["per_board"]), float(row["per_hole"]), float(row["per_8_holes"]),
                            row["unit"], int(row["pack"]), row["manufacturer"], row["part_number"], row["source"],
                            row["alternatives"], row["option"], row["check"], row["notes"]))
    return out


def needs_shift(holes: int) -> bool:
    """Whether a Pico runs out of pins: a sensor per hole, the pixel and the button."""
    return holes + 2 > PICO_GPIO


def totals(lines: list[Line], holes: int, options: tuple[str, ...] = ()) -> dict[str, float]:
    """Quantity per unit (pcs, m, packs ...) of the lines every build needs and those of `options`."""
    out: dict[str, float] = {}
    for x in lines:
        if not x.option or x.option in options:
            out[x.unit] = round(out.get(x.unit, 0) + x.qty(holes), 6)
    return out


def _num(v: float) -> str:
    return "%d" % v if v == int(v) else "%.1f" % v


def totals_text(lines: list[Line], holes: int) -> str:
    """One line: the totals for `holes` on USB alone, a pin per hole and with the 74HC165 option."""
    def words(t: dict[str, float]) -> str:
        order = sorted(t, key=lambda u: (u != "pcs", u != "m", u))
        return ", ".join("%s %s%s" % (_num(t[u]), u, "" if u in ("pcs", "m") or t[u] == 1 else "s") for u in order)

    base = "a pin per hole: n/a (a Pico has %d GPIO)" % PICO_GPIO if needs_shift(holes) else \
        "a pin per hole: %s" % words(totals(lines, holes, BUILD))
    return "total for %d holes on USB: %s; with the 74HC165 option: %s" % (
        holes, base, words(totals(lines, holes, BUILD + SHIFT)))


def _qtys(x: Line) -> str:
    return " ".join("%5s" % _num(x.qty(h)) for h in SIZES)


def table(lines: list[Line]) -> str:
    """The parts list for the terminal: quantities for each size, then order code and source."""
    rows = ["%-34s %s  unit   (quantity for %s holes)" % ("item", " ".join("%5d" % h for h in SIZES),
                                                           " / ".join(map(str, SIZES)))]
    for x in lines:
        opt = "  [%s]" % x.option if x.option else ""
        rows.append(("%-34s %s  %-6s%s" % (x.item[:34], _qtys(x), x.unit, opt)).rstrip())
        rows.append("    %s %s; %s" % (x.manufacturer, x.part, x.source))
        if x.pack > 1:
            rows.append("    sold in packs of %d: order %s" % (x.pack, " / ".join(str(x.to_order(h)) for h in SIZES)))
        if x.notes:
            rows.append("    %s" % x.notes)
        if x.check:
            rows.append("    check: %s" % x.check)
    rows.append("")
    rows += ["[%s] %s" % (k, v) for k, v in OPTIONS.items()]
    rows += [totals_text(lines, h) for h in SIZES]
    return "\n".join(rows) + "\n"


def markdown(lines: list[Line]) -> str:
    """The table in hardware/README.md, "Parts (bom.csv)"."""
    head = "| item | %s | order code | source | check |" % " | ".join("%d holes" % h for h in SIZES)
    rows = [head, "|" + "---|" * (5 + len(SIZES) - 1)]
    for x in lines:
        item = x.item + (" (%s)" % x.option if x.option else "")
        q = " | ".join("%s %s" % (_num(x.qty(h)), x.unit) for h in SIZES)
        rows.append("| %s | %s | %s %s | %s | %s |" % (item, q, x.manufacturer, x.part, x.source, x.check))
    return "\n".join(rows) + "\n"
