"""`pegboard hardware plate|wiring`: drawings for building the board."""

from __future__ import annotations

import argparse
import sys

from pegboard.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hardware", help="drawings for makers: the laser-cut top plate, wiring diagrams")
    hw = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    plate = hw.add_parser("plate", help="top plate SVG in mm (cut, pocket and engrave layers)")
    plate.add_argument("--rows", type=int, default=5, help="rows of holes, 4..8 (default 5)")
    plate.add_argument("--pitch", type=float, default=25.0, help="hole spacing in mm (default 25)")
    plate.add_argument("--hole", type=float, default=6.5, help="peg hole diameter in mm (default 6.5)")
    plate.add_argument("--margin", type=float, default=20.0, help="border around the holes in mm (default 20)")
    plate.add_argument("-o", "--output", metavar="FILE", help="write the SVG to FILE (default: standard output)")
    plate.set_defaults(func=run_plate)
    wiring = hw.add_parser("wiring", help="wiring diagram SVG for a board file")
    wiring.add_argument("settings", help="a settings.toml, e.g. hardware/boards/pico-gpio.toml")
    wiring.add_argument("-o", "--output", metavar="FILE", help="write the SVG to FILE (default: standard output)")
    wiring.set_defaults(func=run_wiring)


def run_plate(args: argparse.Namespace) -> int:
    from pegboard.plate import plate_svg

    try:
        svg = plate_svg(args.rows, args.pitch, args.hole, margin=args.margin)
    except ValueError as e:
        raise UsageError(str(e)) from None
    _write(svg, args.output)
    return 0


def _write(svg: str, path: str | None) -> None:
    if path is None:
        sys.stdout.write(svg)
        return
    if not path.lower().endswith(".svg"):
        raise UsageError("-o %s: the file name must end in .svg" % path)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        raise UsageError("cannot write %s: %s" % (path, e.strerror)) from None
    print("wrote %s" % path, file=sys.stderr)


def run_wiring(args: argparse.Namespace) -> int:
    from pegboard.plate import wiring_svg
    from pegboard.sim.settings import SettingsError, read_settings

    try:
        settings = read_settings(args.settings)
        svg = wiring_svg(settings, "pegboard wiring: %s" % args.settings)
    except (OSError, SettingsError, KeyError, ValueError) as e:
        raise UsageError("cannot draw %s: %s" % (args.settings, e)) from None
    _write(svg, args.output)
    return 0
