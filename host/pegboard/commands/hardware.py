"""`pegboard hardware plate|schematic|section|box|bom|pcb`: drawings and the parts list for building
the board."""

from __future__ import annotations

import argparse
import sys

from pegboard.commands.cli import Subcommands, UsageError, check_output


def register(sub: Subcommands) -> None:
    p = sub.add_parser("hardware", help="for makers: top plate, schematics, hole section, box, parts list")
    hw = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    plate = hw.add_parser("plate", help="top plate SVG in mm: the three plywood layers, the light-tube "
                                             "rings and the stop discs, all cut through, hole numbers engraved")
    plate.add_argument("--rows", type=int, default=5, help="rows of holes, 4..8 (default 5)")
    plate.add_argument("--pitch", type=float, default=25.0, help="hole spacing in mm (default 25)")
    plate.add_argument("--hole", type=float, default=6.5, help="peg hole diameter in mm: the light-tube rings' bore "
                                                                  "(default 6.5)")
    plate.add_argument("--margin", type=float, default=20.0, help="border around the holes in mm (default 20)")
    _output(plate)
    plate.set_defaults(func=run_plate)
    sch = hw.add_parser("schematic", aliases=["wiring"],
                        help="schematic SVG of a board file: every part's pins (physical numbers) and their nets")
    sch.add_argument("settings", help="a settings.toml, e.g. hardware/boards/pico-gpio.toml")
    sch.add_argument("--supply", choices=("usb", "external"), default="usb",
                     help="usb: USB alone, the pixels' 5 V soft-started from VBUS (default); external: a 5 V "
                          "supply for the pixels that cannot feed the USB host (hardware/README.md)")
    _output(sch)
    sch.set_defaults(func=run_schematic)
    sec = hw.add_parser("section", help="dimensioned section through one hole (peg, magnet, plate, pixel, sensor)")
    _output(sec)
    sec.set_defaults(func=lambda a: _drawing("section", a.output))
    box = hw.add_parser("box", help="laser-cut box parts (bottom, rings with USB and button notches) in mm")
    _output(box)
    box.set_defaults(func=lambda a: _drawing("box", a.output))
    bom = hw.add_parser("bom", help="the parts list: order code, source and quantity for 15, 21 and 28 holes of "
                                    "every line, and the totals, summed from bom.csv")
    bom.add_argument("-o", "--output", metavar="FILE", help="write the table to FILE (default: standard output)")
    bom.add_argument("--markdown", action="store_true", help="as the Markdown table of hardware/README.md")
    bom.set_defaults(func=lambda a: _drawing("bom-md" if a.markdown else "bom", a.output))
    board = hw.add_parser("pcb", help="the printed circuit board: KiCad board and project, BOM, placement file "
                                      "and schematic; with KiCad installed, its DRC, Gerbers, drill files and "
                                      "pictures of both sides")
    board.add_argument("--out", metavar="DIR", help="the folder to write (default: hardware/pcb of this checkout)")
    board.add_argument("--no-kicad", action="store_true", help="write the design files only (no DRC, no export)")
    board.set_defaults(func=run_pcb)


def _output(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", metavar="FILE", help="write the SVG to FILE (default: standard output)")


def _check(path: str | None, suffix: str = ".svg") -> None:
    """-o FILE refused before anything is drawn: the wrong ending, a missing or read-only folder."""
    if path is not None:
        check_output("-o", path, suffix)


def _drawing(what: str, path: str | None) -> int:
    from pegboard.hardware import bom
    from pegboard.hardware.box import box_svg
    from pegboard.hardware.hole_section import hole_section_svg

    _check(path, "" if what.startswith("bom") else ".svg")
    if what == "section":
        _write(hole_section_svg(), path)
    elif what == "box":
        _write(box_svg(), path)
    else:
        try:
            lines = bom.read()
        except bom.BomError as e:
            raise UsageError(str(e)) from None
        _write_text(bom.markdown(lines) if what == "bom-md" else bom.table(lines), path)
    return 0


def _write_text(text: str, path: str | None) -> None:
    if path is None:
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise UsageError("cannot write %s: %s" % (path, e.strerror)) from None
    print("wrote %s" % path, file=sys.stderr)


_write = _write_text  # a drawing is text too (SVG)


def _screws(args: argparse.Namespace) -> tuple:
    """The printed board's screw holes, where the plate is the one it is made for."""
    from pegboard.hardware import pcb

    if (args.rows, args.pitch, args.margin) == (5, pcb.PITCH, pcb.PLATE_MARGIN):
        return pcb.plate_screws()
    return ()


def run_plate(args: argparse.Namespace) -> int:
    from pegboard.hardware.plate import plate_svg

    _check(args.output)
    try:
        svg = plate_svg(args.rows, args.pitch, args.hole, margin=args.margin, screws=_screws(args))
    except ValueError as e:
        raise UsageError(str(e)) from None
    _write(svg, args.output)
    return 0


def schematic_of(path: str, supply: str = "usb") -> str:
    from pegboard.hardware.boards import PICO_PINS
    from pegboard.hardware.schematic import build, svg
    from pegboard.sim.settings import read_settings

    settings = read_settings(path)
    names = [str(settings.get(k, "")) for k in ("PEGBOARD_PIXEL_PIN", "PEGBOARD_BUTTON_PIN", "PEGBOARD_SR_CLOCK",
                                                 "PEGBOARD_SR_DATA", "PEGBOARD_SR_LATCH")]
    names += str(settings.get("PEGBOARD_SENSOR_PINS", "")).split(",")
    pico = all(n.strip() in PICO_PINS for n in names if n.strip())  # a Pico's pin names: physical numbers known
    title = "pegboard schematic: %s%s" % (path, ", external 5 V supply" if supply == "external" else "")
    return svg(build(settings, title, pico, supply))


def run_schematic(args: argparse.Namespace) -> int:
    from pegboard.sim.settings import SettingsError

    _check(args.output)
    try:
        svg = schematic_of(args.settings, args.supply)
    except (OSError, SettingsError, KeyError, ValueError) as e:
        raise UsageError("cannot draw %s: %s" % (args.settings, e)) from None
    _write(svg, args.output)
    return 0


def run_pcb(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pegboard.hardware import pcb_files

    from pegboard.hardware.boards import ROOT

    out = Path(args.out) if args.out else ROOT / "hardware" / "pcb"
    if out.exists() and not out.is_dir():
        raise UsageError("--out %s is a file, not a folder" % out)
    written, verdict = pcb_files.write(out, kicad=not args.no_kicad)
    for p in written:
        print("wrote %s" % pcb_files.relative(p))
    from pegboard.hardware import kicad_sch

    if kicad_sch.symbol_library() is None:
        print("no KiCad schematic written: install " + pcb_files.SYMBOLS_INSTALL, file=sys.stderr)
    if verdict is not None and pcb_files.ibom_tool() is None:
        print("no interactive BOM written: install " + pcb_files.IBOM_INSTALL, file=sys.stderr)
    if verdict is None:
        print("not checked: %s" % ("--no-kicad" if args.no_kicad else "KiCad's Python module (pcbnew) is not "
                                   "installed: install " + pcb_files.INSTALL), file=sys.stderr)
        return 0
    print(pcb_files.summary(verdict))
    if verdict["violations"] or verdict["unconnected"]:
        print(verdict["report"], file=sys.stderr)
        return 1
    return 0
