"""`pegboard deploy`: install the firmware on a board's CIRCUITPY drive."""

from __future__ import annotations

import argparse
from pathlib import Path

from pegboard.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deploy", help="copy the firmware and its libraries to a CIRCUITPY drive",
                       description="Copies boot.py, code.py, pegcore/, pegfw/ and the neopixel library into lib/. "
                                   "An existing settings.toml (your wiring) is kept unless --settings is given.")
    p.add_argument("--drive", help="the mounted CIRCUITPY folder (default: find it)")
    p.add_argument("--settings", help="install this settings.toml too (e.g. hardware/boards/pico-gpio.toml)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pegboard.deploy import DeployError, deploy, find_drives

    if args.drive:
        drive = Path(args.drive)
    else:
        drives = find_drives()
        if not drives:
            print("pegboard: no CIRCUITPY drive is mounted: plug the board in, or give --drive")
            return 1
        if len(drives) > 1:
            raise UsageError("several CIRCUITPY drives: choose one with --drive (%s)" % ", ".join(map(str, drives)))
        drive = drives[0]
    print("deploying to %s" % drive)
    try:
        n = deploy(drive, Path(args.settings) if args.settings else None)
    except DeployError as e:
        raise UsageError(str(e)) from None
    print("%d files written; the board restarts with the new firmware" % n)
    return 0
