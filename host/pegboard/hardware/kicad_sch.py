"""The printed board's schematic as a KiCad 6 file (.kicad_sch), written from the same schematic
model as the SVG and the board's netlist (pcb.schematic()): every part is one of KiCad's own
library symbols (Debian's kicad-symbols, /usr/share/kicad/symbols), embedded in the file as KiCad
itself embeds them, with its reference, value and the board's footprint; each pin carries a label
with its net's name (a net-label schematic: pins of one name are joined), an unconnected pin a
no-connect flag, and each supply a power flag where no pin of the net drives it. The board's
footprints link to these symbols (symbol_path), so KiCad's "update PCB from schematic" finds
nothing to change. Needs the symbol library: without it, symbol_library() is None and no file is
written (pcb_files says so)."""

from __future__ import annotations

import uuid
from pathlib import Path

from pegboard.hardware import sexpr
from pegboard.hardware.schematic import Schematic

SYMBOLS = Path("/usr/share/kicad/symbols")  # where KiCad's own library is installed (Debian, Ubuntu)
NAMESPACE = uuid.UUID("6f7e1c2a-5d1b-4c37-9a57-70e6b0ad7e15")  # pegboard's: the same board, the same ids

# Each kind of part: KiCad's symbol, as "Library:Symbol". Where KiCad 6's library has no symbol of
# the very part, a same-pinout one (its pins checked against the part's data sheet):
# DRV5033AJxDBZ: SOT-23 VCC 1, OUT 2, GND 3, as the DRV5032's DBZ (TI SLVSDC7, "Pin Configuration
# and Functions"); TPS22917DBV: VIN 1, GND 2, ON 3, CT 4, QOD 5, VOUT 6, as the TPS22918's DBV
# (TI SLVSD76, "Pin Configuration and Functions"); 74LS125: the '125's pinout, as the 74AHCT125's
# (TI SCLS264, "Pin Configuration and Functions").
SYMBOL_OF = {"D": "LED:WS2812B", "S": "Sensor_Magnetic:DRV5033AJxDBZ", "U5": "Power_Management:TPS22917DBV",
             "U2": "74xx:74LS125", "C1": "Device:C_Polarized", "C": "Device:C", "R": "Device:R",
             "J": "Connector_Generic:Conn_01x20", "SW": "Connector_Generic:Conn_01x02",
             "BZ": "Connector_Generic:Conn_01x02"}
POWER_FLAG = "power:PWR_FLAG"
GRID = 2.54


def symbol_library() -> Path | None:
    return SYMBOLS if (SYMBOLS / "Device.kicad_sym").is_file() else None


def symbol_of(ref: str) -> str:
    kind = ref.rstrip("0123456789")
    return SYMBOL_OF.get(ref) or SYMBOL_OF.get(kind) or SYMBOL_OF[kind[0]]


def symbol_uuid(ref: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "symbol/" + ref))


def symbol_path(ref: str) -> str:
    """The board footprint's link to its symbol: /<the symbol's uuid> (one sheet)."""
    return "/" + symbol_uuid(ref)


def _uuid(what: str) -> str:
    return str(uuid.uuid5(NAMESPACE, what))


def load_symbol(library: Path, lib_id: str) -> list:
    """A library symbol, flattened as a schematic embeds it: named "Library:Symbol", a derived
    symbol ("extends") given its parent's units and pins under its own name."""
    lib, name = lib_id.split(":")
    tree = sexpr.parse((library / (lib + ".kicad_sym")).read_text())
    by_name = {s[1]: s for s in sexpr.items(tree, "symbol")}
    sym = by_name[name]
    parent = sexpr.item(sym, "extends")
    if parent:
        base = by_name[parent[1]]
        props = {p[1]: p for p in sexpr.items(sym, "property")}
        body = []
        for c in base[2:]:
            if isinstance(c, list) and c[0] == "property" and c[1] in props:
                body.append(props.pop(c[1]))
            elif isinstance(c, list) and c[0] == "symbol":
                body.append([c[0], sexpr.Quoted(name + c[1][len(parent[1]):])] + c[2:])
            else:
                body.append(c)
        sym = [sym[0], name] + body + list(props.values())
    return [sym[0], sexpr.Quoted(lib_id)] + sym[2:]


def pins(sym: list) -> dict[str, tuple[int, float, float, str]]:
    """number -> (unit, x, y, electrical type), x and y in the symbol's frame (y up)."""
    out = {}
    for sub in sexpr.items(sym, "symbol"):
        unit = int(sub[1].split("_")[-2])
        for p in sexpr.items(sub, "pin"):
            at = sexpr.item(p, "at")
            out[sexpr.item(p, "number")[1]] = (unit, float(at[1]), float(at[2]), p[1])
    return out


def _extent(sym: list) -> tuple[float, float, float, float]:
    xs, ys = [0.0], [0.0]
    for _, x, y, _ in pins(sym).values():
        xs.append(x)
        ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def _q(s: str) -> sexpr.Quoted:
    return sexpr.Quoted(s)


def _n(v: float) -> str:
    return ("%.4f" % v).rstrip("0").rstrip(".") or "0"


def _font(hide: bool = False) -> list:
    return ["effects", ["font", ["size", "1.27", "1.27"]]] + (["hide"] if hide else [])


def _property(key: str, value: str, pid: int, x: float, y: float, hide: bool = False) -> list:
    return ["property", _q(key), _q(value), ["id", str(pid)], ["at", _n(x), _n(y), "0"], _font(hide)]


def text(s: Schematic, values: dict[str, str], footprints: dict[str, str], library: Path, number_of,
         title: str = "pegboard printed board") -> str:
    """The .kicad_sch. values: ref -> the part's value; footprints: ref -> "Library:Footprint";
    number_of(pin): the pin's number on this board's part (its pad's)."""
    refs = sorted(s.parts, key=_order)
    lib_ids = sorted({symbol_of(r) for r in refs} | {POWER_FLAG})
    symbols = {lib_id: load_symbol(library, lib_id) for lib_id in lib_ids}
    by_part: dict[str, list] = {}
    for p in s.pins:
        by_part.setdefault(p.part, []).append(p)
    body: list = []
    instances: list = []
    # parts in columns, each unit of a part one after the other down its column
    col_x, y, col_w, bottom = 25.4, 25.4, 50.8, 560.0
    driven = set()
    for ref in refs:
        lib_id = symbol_of(ref)
        sym = symbols[lib_id]
        pin_at = pins(sym)
        units = sorted({u for u, *_ in pin_at.values()} - {0}) or [1]
        for unit in units:
            x0, y0, x1, y1 = _extent(sym) if len(units) == 1 else _unit_extent(pin_at, unit)
            height = (y1 - y0) + 4 * GRID
            if y + height > bottom:
                col_x, y = col_x + col_w, 25.4
            sx = col_x - _snap(x0)
            sy = y + _snap(y1) + GRID
            y += _snap(height) + GRID
            sid = symbol_uuid(ref) if unit == units[0] else _uuid("symbol/%s/%d" % (ref, unit))
            inst = ["symbol", ["lib_id", _q(lib_id)], ["at", _n(sx), _n(sy), "0"], ["unit", str(unit)],
                    ["in_bom", "yes"], ["on_board", "yes"], ["uuid", _q(symbol_uuid(ref) if unit == units[0] else sid)],
                    _property("Reference", ref, 0, sx + 2.54, sy - (y1 - y0) / 2 - 2.54),
                    _property("Value", values[ref], 1, sx + 2.54, sy + (y1 - y0) / 2 + 2.54),
                    _property("Footprint", footprints[ref], 2, sx, sy, True),
                    _property("Datasheet", "~", 3, sx, sy, True)]
            for number, (u, *_) in sorted(pin_at.items()):
                if u in (0, unit):
                    inst.append(["pin", _q(number), ["uuid", _q(_uuid("pin/%s/%s" % (ref, number)))]])
            body.append(inst)
            instances.append(["path", _q("/" + (symbol_uuid(ref) if unit == units[0] else sid)),
                              ["reference", _q(ref)], ["unit", str(unit)], ["value", _q(values[ref])],
                              ["footprint", _q(footprints[ref])]])
            nets = {number_of(p): p.net for p in by_part.get(ref, [])}
            for number, (u, px, py, kind) in sorted(pin_at.items()):
                if u not in (0, unit):
                    continue
                # power pins common to every unit are drawn once, with the first unit
                if u == 0 and unit != units[0]:
                    continue
                net = nets.get(number, "NC")
                wx, wy = sx + px, sy - py
                if net == "NC":
                    body.append(["no_connect", ["at", _n(wx), _n(wy)], ["uuid", _q(_uuid("nc/%s/%s" % (ref, number)))]])
                else:
                    body.append(["label", _q(net), ["at", _n(wx), _n(wy), "0"],
                                 ["effects", ["font", ["size", "1.27", "1.27"]], ["justify", "left", "bottom"]],
                                 ["uuid", _q(_uuid("label/%s/%s" % (ref, number)))]])
                    if kind == "power_out":
                        driven.add(net)
    # a power flag on each supply net no pin of this board drives (they come in on the sockets)
    supplies = sorted({p.net for p in s.pins if p.net in ("GND", "3V3", "VBUS", "5V")} - driven)
    col_x, y = col_x + col_w, 25.4
    for net in supplies:
        fid = _uuid("flag/" + net)
        body.append(["symbol", ["lib_id", _q(POWER_FLAG)], ["at", _n(col_x), _n(y), "0"], ["unit", "1"],
                     ["in_bom", "yes"], ["on_board", "yes"], ["uuid", _q(fid)],
                     _property("Reference", "#FLG%s" % net, 0, col_x, y - 3.81, True),
                     _property("Value", "PWR_FLAG", 1, col_x, y + 3.81),
                     _property("Footprint", "", 2, col_x, y, True), _property("Datasheet", "~", 3, col_x, y, True),
                     ["pin", _q("1"), ["uuid", _q(_uuid("flagpin/" + net))]]])
        body.append(["label", _q(net), ["at", _n(col_x), _n(y), "0"],
                     ["effects", ["font", ["size", "1.27", "1.27"]], ["justify", "left", "bottom"]],
                     ["uuid", _q(_uuid("flaglabel/" + net))]])
        instances.append(["path", _q("/" + fid), ["reference", _q("#FLG%s" % net)], ["unit", "1"],
                          ["value", _q("PWR_FLAG")], ["footprint", _q("")]])
        y += 12.7
    notes = [["text", _q(n), ["at", "25.4", _n(575 + 5 * i), "0"], _font()] for i, n in enumerate(s.notes)]
    root = (["kicad_sch", ["version", "20211123"], ["generator", "pegboard"],
             ["uuid", _q(_uuid("sheet"))], ["paper", "A1"],
             ["title_block", ["title", _q(title)], ["rev", _q("A")]],
             ["lib_symbols"] + [symbols[i] for i in lib_ids]] + body + notes
            + [["sheet_instances", ["path", _q("/"), ["page", _q("1")]]], ["symbol_instances"] + instances])
    return sexpr.dump(root) + "\n"


def _unit_extent(pin_at: dict, unit: int) -> tuple[float, float, float, float]:
    pts = [(x, y) for u, x, y, _ in pin_at.values() if u in (0, unit)]
    return (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))


def _snap(v: float) -> float:
    return round(v / GRID) * GRID


def _order(ref: str) -> tuple[str, int]:
    kind = ref.rstrip("0123456789")
    return (kind, int(ref[len(kind):] or 0))
