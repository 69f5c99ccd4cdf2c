"""The printed board as KiCad 6 files, written from pegboard.hardware.pcb's parts and tracks:
the board (.kicad_pcb: footprints with their nets, tracks, vias, the outline, the hole numbers
and a ground pour on both layers for KiCad to fill), the project (.kicad_pro: the design rules the
router keeps), and what a fab's assembly service takes: a BOM and a placement file (CSV)."""

from __future__ import annotations

import csv
import io
import json
import math

from pegboard.hardware import footprints as fp
from pegboard.hardware.pcb import POWER_NETS, Placed, holes, mounting_holes, outline
from pegboard.hardware.router import CLEARANCE, EDGE_CLEARANCE, VIA_D, VIA_DRILL, WIDTHS, Rect, Router
from pegboard.hardware.schematic import Schematic

NAME = "pegboard-t5"
THICKNESS = 1.6
POUR_CLEARANCE = 0.3


def _n(v: float) -> str:
    return ("%.4f" % v).rstrip("0").rstrip(".") if v else "0"


def _local(p: Placed, x: float, y: float) -> tuple[float, float]:
    """A board position in the footprint's frame as KiCad stores it (turned back by its angle)."""
    a = math.radians(p.rot)
    dx, dy = x - p.x, y - p.y
    c, s = round(math.cos(a)), round(math.sin(a))
    return dx * c - dy * s, dx * s + dy * c


def _footprint(p: Placed, pads: list[tuple[fp.Pad, Rect]], nets: dict[str, int], what: str) -> str:
    side = p.side
    f = p.footprint
    tht = any(pad.drill is not None for pad, _ in pads)
    out = ['  (footprint "%s" (layer "%s.Cu")' % (f.name, side),
           '    (at %s %s%s)' % (_n(p.x), _n(p.y), " %d" % p.rot if p.rot else ""),
           '    (descr "%s")' % what.replace('"', "'"),
           '    (attr %s)' % ("through_hole" if tht else "smd")]
    mirror = " (justify mirror)" if side == "B" else ""
    for key, text, dy in (("reference", p.ref, -f.courtyard[1] - 0.8), ("value", what.split(",")[0][:40],
                                                                         f.courtyard[1] + 0.8)):
        out.append('    (fp_text %s "%s" (at 0 %s%s) (layer "%s.Fab")' % (key, text.replace('"', "'"), _n(dy),
                                                                          " %d" % p.rot if p.rot else "", side))
        out.append('      (effects (font (size 0.8 0.8) (thickness 0.12))%s))' % mirror)
    for cx, cy, hw, hh in f.keepouts or ((0.0, 0.0) + f.courtyard,):
        if side == "B":
            cx = -cx
        out.append('    (fp_rect (start %s %s) (end %s %s) (layer "%s.CrtYd") (width 0.05) (fill none))'
                   % (_n(cx - hw), _n(cy - hh), _n(cx + hw), _n(cy + hh), side))
    bw, bh = f.body
    out.append('    (fp_rect (start %s %s) (end %s %s) (layer "%s.Fab") (width 0.1) (fill none))'
               % (_n(-bw), _n(-bh), _n(bw), _n(bh), side))
    for pad, r in pads:
        lx, ly = _local(p, r.x, r.y)
        net = ' (net %d "%s")' % (nets[r.net], r.net) if r.net else ""
        angle = " %d" % p.rot if p.rot else ""
        if pad.drill is not None:
            out.append('    (pad "%s" thru_hole %s (at %s %s%s) (size %s %s) (drill %s) (layers *.Cu *.Mask)%s)'
                       % (pad.number, pad.shape, _n(lx), _n(ly), angle, _n(pad.w), _n(pad.h), _n(pad.drill), net))
        else:
            out.append('    (pad "%s" smd %s (at %s %s%s) (size %s %s) (layers "%s.Cu" "%s.Paste" "%s.Mask")%s%s)'
                       % (pad.number, pad.shape, _n(lx), _n(ly), angle, _n(pad.w), _n(pad.h), side, side, side,
                          " (roundrect_rratio 0.25)" if pad.shape == "roundrect" else "", net))
    out.append("  )")
    return "\n".join(out)


def _mounting_hole(n: int, x: float, y: float) -> str:
    d = fp.MOUNTING_HOLE_D
    return "\n".join(['  (footprint "MountingHole:MountingHole_3.2mm_M3" (layer "F.Cu")',
                      '    (at %s %s)' % (_n(x), _n(y)),
                      '    (attr exclude_from_pos_files exclude_from_bom)',
                      '    (fp_text reference "H%d" (at 0 -2.6) (layer "F.Fab")' % n,
                      '      (effects (font (size 0.8 0.8) (thickness 0.12))))',
                      '    (fp_text value "M3" (at 0 2.6) (layer "F.Fab")',
                      '      (effects (font (size 0.8 0.8) (thickness 0.12))))',
                      '    (fp_circle (center 0 0) (end %s 0) (layer "F.CrtYd") (width 0.05) (fill none))'
                      % _n(d / 2 + 0.25),
                      '    (pad "" np_thru_hole circle (at 0 0) (size %s %s) (drill %s) (layers *.Cu *.Mask))'
                      % (_n(d), _n(d), _n(d)),
                      "  )"])


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
           '  (general (thickness %s))' % _n(THICKNESS), '  (paper "A4")', LAYERS,
           '  (setup (pad_to_mask_clearance 0))', '  (net 0 "")']
    out += ['  (net %d "%s")' % (i, name) for name, i in nets.items()]
    by_part: dict[str, list[tuple[fp.Pad, Rect]]] = {}
    for p, pad, r in placed:
        by_part.setdefault(p.ref, []).append((pad, r))
    for p in parts:
        out.append(_footprint(p, by_part[p.ref], nets, s.parts.get(p.ref, p.ref)))
    for n, (x, y) in enumerate(mounting_holes(rows), 1):
        out.append(_mounting_hole(n, x, y))
    edge = outline(rows)
    for (x1, y1), (x2, y2) in zip(edge, edge[1:] + edge[:1], strict=True):
        out.append('  (gr_line (start %s %s) (end %s %s) (layer "Edge.Cuts") (width 0.1))'
                   % (_n(x1), _n(y1), _n(x2), _n(y2)))
    for h, (x, y) in enumerate(holes(rows), 1):
        for side, dy in (("F", 4.1), ("B", 4.9)):
            out.append('  (gr_text "%d" (at %s %s) (layer "%s.SilkS")' % (h, _n(x), _n(y + dy), side))
            out.append('    (effects (font (size 1.2 1.2) (thickness 0.18))%s))'
                       % (" (justify mirror)" if side == "B" else ""))
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


# What the assembly service buys: value, the manufacturer's number (matched to its own stock),
# or, where any part of that value and package does, that said plainly.
BUY = {
    "WS2812B": ("WS2812B", "Worldsemi", "WS2812B"),
    "DRV5032AJ": ("DRV5032AJ", "Texas Instruments", "DRV5032AJDBZR"),
    "TPS22918": ("TPS22918", "Texas Instruments", "TPS22918DBVR"),
    "74AHCT125": ("74AHCT125", "Texas Instruments", "SN74AHCT125DR"),
    "0.1 uF": ("0.1uF 50V X7R", "any", "any 0603 0.1 uF 50 V X7R"),
    "1 uF": ("1uF 25V X7R", "any", "any 0603 1 uF 25 V X7R"),
    "470 ohm": ("470R 1%", "any", "any 0603 470 ohm 1 %"),
    "100 uF": ("100uF 10V", "any", "any 100 uF 10 V SMD electrolytic, 6.3 x 7.7 mm can"),
    "CT": ("10nF 50V X7R", "any", "any 0603 10 nF X7R rated 25 V or more (C3: hardware/README.md, Power budget)"),
    "Raspberry Pi Pico": ("2x20 socket", "any", "two 1 x 20 female sockets, 0.1 in (the Pico plugs in)"),
    "hint button": ("1x2 header", "any", "1 x 2 pin header, 0.1 in (the button's two wires)"),
    "220 ohm": ("220R 1%", "any", "any 0603 220 ohm 1 %"),
    "piezo": ("1x2 header", "any", "1 x 2 pin header, 0.1 in (the piezo's two wires: TDK PS1240P02BT, "
                                   "hardware/README.md, Sound)"),
}


def _buy(what: str) -> tuple[str, str, str]:
    """The order line of a part by its schematic description: the longest key in it ("0.1 uF",
    not the "1 uF" inside it)."""
    keys = [key for key in BUY if key in what]
    if not keys:
        raise KeyError("no order line for %r" % what)
    return BUY[max(keys, key=len)]


def bom_csv(s: Schematic, parts: list[Placed]) -> str:
    """One line per kind of part: Comment, Designator, Footprint, Manufacturer, Manufacturer Part."""
    groups: dict[tuple[str, str, str, str], list[str]] = {}
    for p in parts:
        comment, maker, number = _buy(s.parts[p.ref])
        groups.setdefault((comment, p.footprint.package, maker, number), []).append(p.ref)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Comment", "Designator", "Footprint", "Quantity", "Manufacturer", "Manufacturer Part"])
    for (comment, package, maker, number), refs in sorted(groups.items()):
        w.writerow([comment, ",".join(sorted(refs, key=_ref_key)), package, len(refs), maker, number])
    return buf.getvalue()


def _ref_key(ref: str) -> tuple[str, int]:
    kind = ref.rstrip("0123456789")
    return (kind, int(ref[len(kind):] or 0))


def placement_csv(parts: list[Placed]) -> str:
    """Where each part goes: Designator, Mid X, Mid Y (mm, y up from the board's lowest edge, as
    fabs read it), Layer, Rotation (degrees counter-clockwise, seen from that side)."""
    edge = outline()
    x0 = min(x for x, _ in edge)
    y0 = max(y for _, y in edge)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
    for p in sorted(parts, key=lambda p: _ref_key(p.ref)):
        rot = p.rot if p.side == "F" else (360 - p.rot) % 360
        w.writerow([p.ref, "%.3fmm" % (p.x - x0), "%.3fmm" % (y0 - p.y), "Top" if p.side == "F" else "Bottom", rot])
    return buf.getvalue()
