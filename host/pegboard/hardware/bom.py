"""The parts list (hardware/bom.csv) and its cost, summed from the file: the README's total is
this sum (a test holds them together)."""

from __future__ import annotations

import csv
from dataclasses import dataclass

from pegboard.hardware.boards import ROOT

BOM = ROOT / "hardware" / "bom.csv"


@dataclass
class Line:
    item: str
    qty: int
    part: str
    each: float
    optional: bool

    @property
    def cost(self) -> float:
        return self.qty * self.each


def read(path=BOM) -> list[Line]:
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out.append(Line(row["item"], int(row["qty"]), row["recommended part"],
                            float(row["approx_cost_usd_each"]), row["optional"] == "yes"))
    return out


def totals(lines: list[Line]) -> tuple[float, float]:
    """(the board without options, with every option)."""
    base = sum(x.cost for x in lines if not x.optional)
    return round(base, 2), round(base + sum(x.cost for x in lines if x.optional), 2)


def table(lines: list[Line]) -> str:
    rows = ["%-36s %3d x %6.2f = %7.2f%s" % (x.item[:36], x.qty, x.each, x.cost, "  (optional)" if x.optional else "")
            for x in lines]
    base, every = totals(lines)
    rows.append("total: %.2f USD (with every option: %.2f USD)" % (base, every))
    return "\n".join(rows) + "\n"
