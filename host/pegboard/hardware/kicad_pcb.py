"""The printed board as KiCad 6 files, written from pegboard.hardware.pcb's parts and tracks:
the board (.kicad_pcb: footprints with their nets, tracks, vias, the outline, the hole numbers
and a ground pour on both layers for KiCad to fill), the project (.kicad_pro: the design rules the
router keeps), and what a fab's assembly service takes: a BOM and a placement file (CSV)."""

from __future__ import annotations

import csv
import math
import io
import json

from pegboard.hardware import footprints as fp
from pegboard.hardware import kicad_sch, pcb_silk, sexpr
from pegboard.hardware.pcb import POWER_NETS, Placed, holes, mounting_holes, outline
from pegboard.hardware.router import CLEARANCE, EDGE_CLEARANCE, VIA_D, VIA_DRILL, WIDTHS, Rect, Router
from pegboard.hardware.schematic import Schematic

NAME = "pegboard-t5"
THICKNESS = 1.6
POUR_CLEARANCE = 0.3


def _n(v: float) -> str:
    return ("%.4f" % v).rstrip("0").rstrip(".") if v else "0"


def _flip_layer(layer: str, side: str) -> str:
    return "B." + layer[2:] if side == "B" and layer.startswith("F.") else layer


def _xy(node: list, side: str) -> str:
    """An (at)/(start)/(end)/(center) point of the library's, flipped as KiCad flips a bottom part."""
    y = -float(node[2]) if side == "B" else float(node[2])
    return "(%s %s %s)" % (node[0], _n(float(node[1])), _n(y))


def _reference(p: Placed, at: tuple[float, float] | None) -> str:
    """The part's reference: on the silkscreen where pcb_silk found it a clear place (level on the
    board), else on the fab layer at the footprint's centre."""
    side = p.side
    if at is None:
        layer, lx, ly, angle = side + ".Fab", 0.0, 0.0, 0
    else:
        dx, dy = at[0] - p.x, at[1] - p.y
        a = math.radians(p.rot)
        c, s = round(math.cos(a)), round(math.sin(a))
        layer, lx, ly, angle = side + ".SilkS", dx * c - dy * s, dx * s + dy * c, 0
    return ('    (fp_text reference %s (at %s %s%s) (layer "%s")\n'
            '      (effects (font (size %s %s) (thickness %s))%s))'
            % (sexpr.quote(p.ref), _n(round(lx, 4)), _n(round(ly, 4)), " %d" % angle if angle else "", layer,
               _n(pcb_silk.TEXT), _n(pcb_silk.TEXT), _n(pcb_silk.STROKE), " (justify mirror)" if side == "B" else ""))


def _drawing(node: list, p: Placed, what: str) -> str:
    """One item of the library footprint's drawing, on the part's side: a bottom part's is mirrored
    (y negated) and its text reads from below."""
    kind, side = node[0], p.side
    layer = _flip_layer(sexpr.item(node, "layer")[1], side)
    if kind == "fp_text":
        at = sexpr.item(node, "at")
        angle = float(at[3]) if len(at) > 3 else 0.0
        angle = (p.rot + (-angle if side == "B" else angle)) % 360
        text = {"reference": p.ref, "value": what}.get(node[1], node[2])
        font = sexpr.item(sexpr.item(node, "effects"), "font")
        size, thick = sexpr.item(font, "size"), sexpr.item(font, "thickness")
        at_text = _xy(at[:3], side)[:-1] + (" %s)" % _n(angle) if angle else ")")
        return ('    (fp_text %s %s %s (layer "%s")\n      (effects (font (size %s %s) (thickness %s))%s))'
                % (node[1], sexpr.quote(text), at_text, layer, size[1], size[2], thick[1],
                   " (justify mirror)" if side == "B" else ""))
    width = sexpr.item(node, "width")[1]
    if kind == "fp_line":
        return "    (fp_line %s %s (layer \"%s\") (width %s))" % (_xy(sexpr.item(node, "start"), side),
                                                                 _xy(sexpr.item(node, "end"), side), layer, width)
    return "    (fp_circle %s %s (layer \"%s\") (width %s) (fill none))" % (
        _xy(sexpr.item(node, "center"), side), _xy(sexpr.item(node, "end"), side), layer, width)


def _footprint(p: Placed, pads: list[tuple[fp.Pad, Rect]], nets: dict[str, int], what: str,
               ref_at: tuple[float, float] | None = None, path: str = "") -> str:
    """A part as KiCad's library has its footprint, placed and (on the bottom) flipped as KiCad's
    own "flip" does, each pad with its net; `path` links it to its schematic symbol."""
    side, f = p.side, p.footprint
    out = ['  (footprint "%s" (layer "%s.Cu")' % (f.name, side),
           '    (at %s %s%s)' % (_n(p.x), _n(p.y), " %d" % p.rot if p.rot else "")]
    if path:
        out.append('    (path "%s")' % path)
    out.append('    (attr %s%s)' % (f.attr, " exclude_from_pos_files exclude_from_bom" if not pads else ""))
    value = what
    for node in f.drawing:
        out.append(_reference(p, ref_at) if node[0] == "fp_text" and node[1] == "reference"
                   else _drawing(node, p, value))
    for pad, r in pads:
        ly = -pad.y if side == "B" else pad.y
        net = ' (net %d "%s")' % (nets[r.net], r.net) if r.net else ""
        angle = " %d" % p.rot if p.rot else ""
        if pad.drill is not None:
            out.append('    (pad "%s" thru_hole %s (at %s %s%s) (size %s %s) (drill %s) (layers *.Cu *.Mask)%s)'
                       % (pad.number, pad.shape, _n(pad.x), _n(ly), angle, _n(pad.w), _n(pad.h), _n(pad.drill),
                          net))
        else:
            out.append('    (pad "%s" smd %s (at %s %s%s) (size %s %s) (layers "%s.Cu" "%s.Paste" "%s.Mask")%s%s)'
                       % (pad.number, pad.shape, _n(pad.x), _n(ly), angle, _n(pad.w), _n(pad.h), side, side, side,
                          " (roundrect_rratio %s)" % _n(pad.rratio) if pad.shape == "roundrect" else "", net))
    if not pads and f is fp.MOUNTING_HOLE:
        d = fp.MOUNTING_HOLE_D
        out.append('    (pad "" np_thru_hole circle (at 0 0) (size %s %s) (drill %s) (layers *.Cu *.Mask))'
                   % (_n(d), _n(d), _n(d)))
    out.append("  )")
    return "\n".join(out)


def _mounting_hole(n: int, x: float, y: float) -> str:
    return _footprint(Placed("H%d" % n, fp.MOUNTING_HOLE, x, y, 0, "F"), [], {}, "M3")


LAYERS = """  (layers
    (0 "F.Cu" signal)
    (31 "B.Cu" signal)
    (32 "B.Adhes" user "B.Adhesive")
    (33 "F.Adhes" user "F.Adhesive")
    (34 "B.Paste" user)
    (35 "F.Paste" user)
    (36 "B.SilkS" user "B.Silkscreen")
    (37 "F.SilkS" user "F.Silkscreen")
    (38 "B.Mask" user)
    (39 "F.Mask" user)
    (40 "Dwgs.User" user "User.Drawings")
    (41 "Cmts.User" user "User.Comments")
    (44 "Edge.Cuts" user)
    (45 "Margin" user)
    (46 "B.CrtYd" user "B.Courtyard")
    (47 "F.CrtYd" user "F.Courtyard")
    (48 "B.Fab" user)
    (49 "F.Fab" user)
  )"""


def board_text(s: Schematic, parts: list[Placed], placed: list, router: Router, rows: int = 5) -> str:
    """The .kicad_pcb file."""
    names = sorted({r.net for _, _, r in placed if r.net})
    nets = {name: i for i, name in enumerate(names, 1)}
    out = ['(kicad_pcb (version 20211014) (generator pegboard)',
           '  (general (thickness %s))' % _n(THICKNESS), '  (paper "A4")',
           '  (title_block (title "pegboard %s") (rev "%s"))' % (NAME.split("-")[1], REVISION.split()[-1]), LAYERS,
           '  (setup (pad_to_mask_clearance 0))', '  (net 0 "")']
    out += ['  (net %d "%s")' % (i, name) for name, i in nets.items()]
    by_part: dict[str, list[tuple[fp.Pad, Rect]]] = {}
    for p, pad, r in placed:
        by_part.setdefault(p.ref, []).append((pad, r))
    edge = outline(rows)
    texts = silk_texts(rows)
    taken = {side: [pcb_silk.text_box(x, y, t, size) for t, x, y, size, sides in texts if side in sides]
             for side in "FB"}
    at = pcb_silk.places(parts, [r for _, _, r in placed], taken, edge)
    for p in parts:
        out.append(_footprint(p, by_part[p.ref], nets, value_of(s, p.ref), at[p.ref],
                              kicad_sch.symbol_path(p.ref)))
    for n, (x, y) in enumerate(mounting_holes(rows), 1):
        out.append(_mounting_hole(n, x, y))
    for (x1, y1), (x2, y2) in zip(edge, edge[1:] + edge[:1], strict=True):
        out.append('  (gr_line (start %s %s) (end %s %s) (layer "Edge.Cuts") (width 0.1))'
                   % (_n(x1), _n(y1), _n(x2), _n(y2)))
    for text, x, y, size, sides in texts:
        for side in sides:
            out.append('  (gr_text %s (at %s %s) (layer "%s.SilkS")' % (sexpr.quote(text), _n(x), _n(y), side))
            out.append('    (effects (font (size %s %s) (thickness %s))%s))'
                       % (_n(size), _n(size), _n(round(size * 0.15, 3)), " (justify mirror)" if side == "B" else ""))
    for sg in router.segments:
        out.append('  (segment (start %s %s) (end %s %s) (width %s) (layer "%s.Cu") (net %d))'
                   % (_n(sg.x1), _n(sg.y1), _n(sg.x2), _n(sg.y2), _n(sg.width), sg.layer, nets[sg.net]))
    for v in router.vias:
        out.append('  (via (at %s %s) (size %s) (drill %s) (layers "F.Cu" "B.Cu") (net %d))'
                   % (_n(v.x), _n(v.y), _n(VIA_D), _n(VIA_DRILL), nets[v.net]))
    pts = " ".join("(xy %s %s)" % (_n(x), _n(y)) for x, y in edge)
    for side in "FB":
        out += ['  (zone (net %d) (net_name "GND") (layer "%s.Cu") (hatch edge 0.508)' % (nets["GND"], side),
                '    (connect_pads (clearance %s))' % _n(POUR_CLEARANCE),
                '    (min_thickness 0.25) (filled_areas_thickness no)',
                '    (fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5) (island_removal_mode 0))',
                '    (polygon (pts %s))' % pts, '  )']
    out.append(")")
    return "\n".join(out) + "\n"


REVISION = "rev A"


def silk_texts(rows: int = 5) -> list[tuple[str, float, float, float, str]]:
    """The board's own silkscreen words: (text, x, y, size, sides): each hole's number on both
    sides, and the board's name and revision on the top, between hole rows 3 and 4."""
    centres = holes(rows)
    out = []
    for h, (x, y) in enumerate(centres, 1):
        out.append(("%d" % h, x, round(y + 4.1, 3), 1.2, "F"))
        out.append(("%d" % h, x, round(y + 4.9, 3), 1.2, "B"))
    ys = sorted({y for _, y in centres})
    middle = centres[4] if rows >= 5 else centres[0]
    out.append(("pegboard %s %s" % (NAME.split("-")[1], REVISION), middle[0], round((ys[2] + ys[3]) / 2, 3), 1.5,
                "F"))
    return out


def project_text() -> str:
    """The .kicad_pro: the design rules (KiCad's DRC checks against them) and the power class."""
    rules = {"min_clearance": CLEARANCE, "min_track_width": min(WIDTHS.values()), "min_via_diameter": VIA_D,
             "min_through_hole_diameter": VIA_DRILL, "min_via_annular_width": (VIA_D - VIA_DRILL) / 2,
             "min_hole_clearance": 0.25, "min_hole_to_hole": 0.25, "min_copper_edge_clearance": EDGE_CLEARANCE,
             "min_silk_clearance": 0.0, "solder_mask_clearance": 0.0, "allow_microvias": False,
             "allow_blind_buried_vias": False}
    classes = [{"name": "Default", "clearance": CLEARANCE, "track_width": WIDTHS["signal"], "via_diameter": VIA_D,
                "via_drill": VIA_DRILL, "microvia_diameter": 0.3, "microvia_drill": 0.1, "diff_pair_width": 0.2,
                "diff_pair_gap": 0.25, "diff_pair_via_gap": 0.25, "wire_width": 6, "bus_width": 12, "line_style": 0,
                "schematic_color": "rgba(0, 0, 0, 0.000)", "pcb_color": "rgba(0, 0, 0, 0.000)"},
               {"name": "Power", "clearance": CLEARANCE, "track_width": WIDTHS["power"], "via_diameter": VIA_D,
                "via_drill": VIA_DRILL, "microvia_diameter": 0.3, "microvia_drill": 0.1, "diff_pair_width": 0.2,
                "diff_pair_gap": 0.25, "diff_pair_via_gap": 0.25, "wire_width": 6, "bus_width": 12, "line_style": 0,
                "nets": list(POWER_NETS), "schematic_color": "rgba(0, 0, 0, 0.000)",
                "pcb_color": "rgba(0, 0, 0, 0.000)"}]
    pro = {"board": {"design_settings": {"defaults": {"board_outline_line_width": 0.1}, "rules": rules,
                                          "track_widths": [0.0], "via_dimensions": [{"diameter": 0.0, "drill": 0.0}],
                                          "rule_severities": {}}},
           "meta": {"filename": NAME + ".kicad_pro", "version": 1},
           "net_settings": {"classes": classes, "meta": {"version": 2}},
           "pcbnew": {"last_paths": {}}}
    return json.dumps(pro, indent=2) + "\n"


# What the assembly service buys: (value, manufacturer, manufacturer's number, LCSC part number).
# Each LCSC number was found beside that manufacturer's number in public JLCPCB BOMs and parts lists
# (KiCad libraries with LCSC fields, JLCPCB's basic-parts list as scraped into public repositories);
# none was checked against LCSC's live catalogue or stock (hardware/pcb/README.md, "Ordering").
BUY = {
    "WS2812B": ("WS2812B", "Worldsemi", "WS2812B-B/W", "C114586"),
    "DRV5032AJ": ("DRV5032AJ", "Texas Instruments", "DRV5032AJDBZR", "C266120"),
    "TPS22918": ("TPS22918", "Texas Instruments", "TPS22918DBVR", "C131941"),
    "74AHCT125": ("74AHCT125", "Texas Instruments", "SN74AHCT125DR", "C155176"),
    "0.1 uF": ("100nF 50V X7R", "YAGEO", "CC0603KRX7R9BB104", "C14663"),
    "1 uF": ("1uF 25V X7R", "Samsung Electro-Mechanics", "CL10B105KA8NNNC", "C29936"),
    "470 ohm": ("470R 1%", "UNI-ROYAL", "0603WAF4700T5E", "C23179"),
    # 25 V in the 6.3 x 7.7 mm can the footprint is for (a 10 V rating is all the 5 V rail needs)
    "100 uF": ("100uF 25V", "ROQANG", "RVT1E101M0607", "C72477"),
    "CT": ("10nF 50V X7R", "FH (Guangdong Fenghua)", "0603B103K500NT", "C57112"),
    "1 x 20 socket": ("1x20 socket 2.54mm", "Kinghelm", "KH-2.54FH-1X20P-H8.5", "C2905423"),
    "hint button": ("1x2 header 2.54mm", "XFCN", "PZ254V-11-02P", "C492401"),
    "220 ohm": ("220R 1%", "UNI-ROYAL", "0603WAF2200T5E", "C22962"),
    "piezo": ("1x2 header 2.54mm", "XFCN", "PZ254V-11-02P", "C492401"),
}


def _buy(what: str) -> tuple[str, str, str, str]:
    """The order line of a part by its schematic description: the longest key in it ("0.1 uF",
    not the "1 uF" inside it)."""
    keys = [key for key in BUY if key in what]
    if not keys:
        raise KeyError("no order line for %r" % what)
    return BUY[max(keys, key=len)]


def value_of(s: Schematic, ref: str) -> str:
    """A part's value as the schematic and the BOM's Comment give it."""
    return _buy(s.parts[ref])[0]


def bom_csv(s: Schematic, parts: list[Placed]) -> str:
    """One line per kind of part, in the columns JLCPCB's assembly BOM takes: Comment, Designator,
    Footprint, LCSC Part #, with the quantity and the manufacturer's number beside them."""
    groups: dict[tuple[str, str, str, str, str], list[str]] = {}
    for p in parts:
        comment, maker, number, lcsc = _buy(s.parts[p.ref])
        groups.setdefault((comment, p.footprint.name.split(":")[1], maker, number, lcsc), []).append(p.ref)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Comment", "Designator", "Footprint", "Quantity", "Manufacturer", "Manufacturer Part", "LCSC Part #"])
    for (comment, package, maker, number, lcsc), refs in sorted(groups.items()):
        w.writerow([comment, ",".join(sorted(refs, key=_ref_key)), package, len(refs), maker, number, lcsc])
    return buf.getvalue()


# JLCPCB's rotation conventions differ from KiCad's library by package: the offsets KiBot's JLCPCB
# position output applies (KiBot 1.9.1, kibot/misc.py DEFAULT_ROTATIONS), matched on the footprint's
# name; on the bottom the angle is taken as seen through the board (KiBot's _rot_footprint_jlcpcb
# filter: 180 - KiCad's angle, then the offset).
JLC_ROTATION = (("SOT-23", 180), ("CP_Elec_", 180), ("SOIC-", 270), ("LED_WS2812B_PLCC4", 180))


def jlc_rotation(p: Placed) -> int:
    name = p.footprint.name.split(":")[1]
    offset = next((deg for prefix, deg in JLC_ROTATION if name.startswith(prefix)), 0)
    rot = 180 - p.rot if p.side == "B" else p.rot
    return (rot + offset) % 360


def _ref_key(ref: str) -> tuple[str, int]:
    kind = ref.rstrip("0123456789")
    return (kind, int(ref[len(kind):] or 0))


def placement_csv(parts: list[Placed], placed: list) -> str:
    """JLCPCB's placement (CPL) file: Designator, Mid X, Mid Y (the part's centre, the middle of its
    pads: mm from the board's lower left corner, y up, as seen from the top), Layer, Rotation (in
    JLCPCB's conventions: jlc_rotation)."""
    edge = outline()
    x0 = min(x for x, _ in edge)
    y0 = max(y for _, y in edge)
    centres: dict[str, list[tuple[float, float]]] = {}
    for p, _, r in placed:
        centres.setdefault(p.ref, []).append((r.x, r.y))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
    for p in sorted(parts, key=lambda p: _ref_key(p.ref)):
        pts = centres[p.ref]
        mx = (min(x for x, _ in pts) + max(x for x, _ in pts)) / 2
        my = (min(y for _, y in pts) + max(y for _, y in pts)) / 2
        w.writerow([p.ref, "%.3fmm" % (mx - x0), "%.3fmm" % (y0 - my), "Top" if p.side == "F" else "Bottom",
                    jlc_rotation(p)])
    return buf.getvalue()
