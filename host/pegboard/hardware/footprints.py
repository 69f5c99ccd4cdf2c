"""The printed board's footprints, read from KiCad's own footprint library: each part's pads, drill
holes, courtyard and drawing (silkscreen with its pin-1 or polarity mark, fab layer) exactly as
KiCad's .kicad_mod files have them, in the footprint's own frame (KiCad's: x right, y down, seen
from the top). The files in kicad_lib/ are byte-for-byte copies of KiCad 6.0.11's library (Debian's
kicad-footprints, /usr/share/kicad/footprints; CC-BY-SA 4.0 with KiCad's exception for designs
that use them); tests/test_pcb_footprints.py holds each copy to the installed library and every
pad on the board to its footprint's file."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, Optional

from pegboard.hardware import sexpr

LIBRARY = Path(__file__).with_name("kicad_lib")


class Pad(NamedTuple):
    number: str
    x: float
    y: float
    w: float
    h: float
    drill: Optional[float] = None  # a plated through hole; None: a surface pad on the part's side
    shape: str = "rect"  # KiCad's: "rect", "roundrect", "oval" or "circle"
    rratio: float = 0.0  # a roundrect's corner radius over its shorter side


class Footprint(NamedTuple):
    name: str  # "Library:Footprint", KiCad's own
    pads: tuple[Pad, ...]
    courtyard: tuple[float, float, float, float]  # x0, y0, x1, y1: the courtyard's extent
    drawing: tuple[list, ...]  # the library's fp_line / fp_circle / fp_text items, as parsed
    height: float  # the body's height above the board, mm (data sheet)
    package: str  # as a BOM names it
    attr: str  # "smd" or "through_hole"


def library_file(name: str) -> Path:
    lib, fp = name.split(":")
    return LIBRARY / (lib + ".pretty") / (fp + ".kicad_mod")


def _f(v: str) -> float:
    return float(v)


def load(name: str, height: float, package: str) -> Footprint:
    tree = sexpr.parse(library_file(name).read_text())
    pads = []
    for p in sexpr.items(tree, "pad"):
        at, size = sexpr.item(p, "at"), sexpr.item(p, "size")
        drill = sexpr.item(p, "drill")
        rr = sexpr.item(p, "roundrect_rratio")
        if p[2] == "np_thru_hole":
            continue  # a mounting hole's bare drill: not a pad any net reaches
        pads.append(Pad(p[1], _f(at[1]), _f(at[2]), _f(size[1]), _f(size[2]),
                        _f(drill[1]) if drill else None, p[3], _f(rr[1]) if rr else 0.0))
    xs: list[float] = []
    ys: list[float] = []
    drawing = []
    for node in tree[1:]:
        if not isinstance(node, list) or node[0] not in ("fp_line", "fp_circle", "fp_text"):
            continue
        layer = sexpr.item(node, "layer")[1]
        if layer == "F.CrtYd":
            for key in ("start", "end", "center"):
                pt = sexpr.item(node, key)
                if pt:
                    xs.append(_f(pt[1]))
                    ys.append(_f(pt[2]))
            if node[0] == "fp_circle":  # a round courtyard: its radius all round
                c, e = sexpr.item(node, "center"), sexpr.item(node, "end")
                r = abs(_f(e[1]) - _f(c[1])) + abs(_f(e[2]) - _f(c[2]))
                xs += [_f(c[1]) - r, _f(c[1]) + r]
                ys += [_f(c[2]) - r, _f(c[2]) + r]
        drawing.append(node)
    attr = sexpr.item(tree, "attr")
    return Footprint(name, tuple(pads), (min(xs), min(ys), max(xs), max(ys)), tuple(drawing), height, package,
                     attr[1] if attr else "smd")


# Heights from the parts' data sheets: what stands above the board on its side
C0603 = load("Capacitor_SMD:C_0603_1608Metric", 0.9, "0603")
R0603 = load("Resistor_SMD:R_0603_1608Metric", 0.55, "0603")
CP_6_3 = load("Capacitor_SMD:CP_Elec_6.3x7.7", 7.7, "CP_Elec_6.3x7.7")  # pad 1 is +
SOT23 = load("Package_TO_SOT_SMD:SOT-23", 1.45, "SOT-23")
SOT23_6 = load("Package_TO_SOT_SMD:SOT-23-6", 1.45, "SOT-23-6")
SOIC14 = load("Package_SO:SOIC-14_3.9x8.7mm_P1.27mm", 1.75, "SOIC-14")
# WS2812B in its 5050 PLCC4 body: pin 1 VDD, 2 DOUT, 3 VSS, 4 DIN (Worldsemi WS2812B data sheet,
# "PIN function"), counter-clockwise seen from the top as KiCad's footprint has them; the light
# leaves the top
WS2812B = load("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", 1.6, "PLCC4 5050")
# One row of the Pico's two: a 1 x 20 socket, 0.1 in, the Pico's pins on it (Raspberry Pi, Pico
# datasheet, "Mechanical specification": 20 pins a side at 2.54 mm, the rows 17.78 mm apart)
SOCKET_1X20 = load("Connector_PinSocket_2.54mm:PinSocket_1x20_P2.54mm_Vertical", 8.5, "PinSocket_1x20")
# Two pins (0.1 in) for the hint button's wires and for the piezo's
HEADER_1X2 = load("Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical", 8.5, "PinHeader_1x02")
MOUNTING_HOLE = load("MountingHole:MountingHole_3.2mm_M3", 0.0, "M3")
MOUNTING_HOLE_D = 3.2  # an M3 screw's clearance hole (the footprint's drill)
