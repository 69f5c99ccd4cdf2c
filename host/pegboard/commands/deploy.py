"""`pegboard deploy`: install the firmware on a board's CIRCUITPY drive, then restart the board."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pegboard.deploy.circuitpython import NEWEST_TESTED, OLDEST, supported_range
from pegboard.commands.cli import Subcommands, UsageError

PRESS_RESET = ("restart the board to run the new firmware: press its RESET button (a Pico has none: unplug "
               "and replug its USB cable). Until then it keeps running the old one.")


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "deploy", help="install the firmware on a CIRCUITPY drive and restart the board",
        description="Copies boot.py, code.py, the modules of pegcore/ and pegfw/ the chip imports (compiled to "
                    ".mpy with CircuitPython's mpy-cross when one for the drive's CircuitPython version is at hand), "
                    "the hint table and the neopixel library into lib/. settings.toml keeps every line you wrote "
                    "(your PEGBOARD_ values, CIRCUITPY_WIFI_* ...); the board's settings that are missing are "
                    "added (all of them on a new drive, whose settings.toml is empty). Nothing is written unless the "
                    "drive's boot_out.txt names a CircuitPython version the firmware supports (%s) and everything "
                    "the deploy needs was read and checked first: the settings (UTF-8 text), the firmware's files "
                    "and the room on the drive; a failure there leaves the drive as it was. Then the "
                    "board is told to keep quiet while its files change (a `quiet` request: it stops what runs, "
                    "reads no file and compiles no code); then, once every file is flushed to the drive and a "
                    "second has passed for the system to finish writing, to restart (a `reset` request on its data "
                    "port); if it cannot be reached, you are told to press reset. Without --drive the drive is "
                    "looked for among the drive letters labelled CIRCUITPY (Windows), /Volumes/CIRCUITPY* (macOS) "
                    "or the mounted CIRCUITPY* folders (Linux)." % supported_range())
    p.add_argument("--drive", help="the CIRCUITPY drive: its letter on Windows (E:\\), its mount folder on macOS "
                                   "(/Volumes/CIRCUITPY) and Linux (default: find it)")
    p.add_argument("--board", metavar="NAME",
                   help="the wiring from hardware/boards/NAME.toml (pico-gpio, feather-rp2040-gpio, shift-74hc165; "
                        "a unique start such as 'pico' will do). Default: from the drive's boot_out.txt, "
                        "else pico-gpio")
    p.add_argument("--settings", metavar="FILE",
                   help="merge this settings.toml in instead; its keys replace the drive's")
    p.add_argument("--mpy-cross", metavar="PATH",
                   help="CircuitPython's mpy-cross for the drive's version (default: $PEGBOARD_MPY_CROSS, "
                        "or `mpy-cross` on PATH)")
    p.add_argument("--py", action="store_true", help="copy the modules as .py source, not compiled")
    p.add_argument("--any-version", action="store_true",
                   help="deploy onto a newer version of CircuitPython than the newest tested (%s); "
                        "a version older than %s is refused all the same" % (NEWEST_TESTED, OLDEST))
    p.add_argument("--port", help="the board's data port for the quiet and restart requests (default: find it)")
    p.add_argument("--no-restart", action="store_true", help="do not restart the board after copying")
    p.set_defaults(func=run)


def board_client(port: str | None):  # -> BoardClient
    """The board on `port`, else a plugged-in one, through its hub: a mirror or monitor running
    beside the deploy keeps the board (and sees it restart)."""
    from pegboard.link.client import BoardClient, NoBoard
    from pegboard.link.hub_link import HubLink
    from pegboard.link.ports import find_data_port

    target = port or find_data_port()
    if not target:
        raise NoBoard("no board's data port found", "no_board")
    return BoardClient(link=HubLink(target, port=port, name="pegboard deploy"), timeout=3.0)


def quiet(port: str | None) -> None:
    """Tell a reachable board that its drive is about to be rewritten (the `quiet` request: it
    stops what runs and reads no file until the restart); a board that cannot be asked is left be."""
    from pegboard.link.client import BoardError

    try:
        with board_client(port) as b:
            r = b.request("quiet", seconds=120)
        print("the board is quiet while its files change%s"
              % (" (stopped its %s)" % r["stopped"] if r.get("stopped") else ""))
    except BoardError as e:
        print("the board was not told to keep quiet (%s): a game in play may stutter while files change" % e)


def restart(port: str | None) -> str | None:
    """Ask the board to reset itself; None when it will, else why it could not be asked."""
    from pegboard.link.client import BoardError

    try:
        with board_client(port) as b:
            b.request("reset")
    except BoardError as e:
        if e.code == "unknown_cmd":
            return "the board runs firmware that cannot restart itself"
        return str(e)
    return None


def run(args: argparse.Namespace) -> int:
    from pegboard.deploy.errors import DeployError
    from pegboard.deploy.find import look_for_drives
    from pegboard.deploy.install import install, prepare
    from pegboard.deploy.system import drive_example, drive_path
    from pegboard.deploy.write import settle

    if args.board and args.settings:
        raise UsageError("give --board or --settings, not both")
    if args.drive:
        drive = drive_path(args.drive)
    else:
        found = look_for_drives()
        if not found.drives:
            for path, reason in found.refused:
                print("pegboard: %s looks like a CIRCUITPY drive but is refused: %s" % (path, reason), file=sys.stderr)
            print("pegboard: no CIRCUITPY drive %s (looked at %s): plug the board in and wait for its drive to "
                  "appear, or give it: %s"
                  % ("CircuitPython wrote a boot_out.txt on" if found.refused else "found",
                     "; ".join(found.looked_at) or "nothing", drive_example()), file=sys.stderr)
            return 1
        if len(found.drives) > 1:
            raise UsageError("several CIRCUITPY drives (%s): choose one with --drive, e.g. `pegboard deploy --drive "
                             "%s`" % (", ".join(map(str, found.drives)), found.drives[0]))
        drive = found.drives[0]
    try:  # everything read and checked before the board is asked anything and the first byte is written
        staged = prepare(drive, Path(args.settings) if args.settings else None, args.board, args.mpy_cross,
                         compile_modules=not args.py, any_version=args.any_version)
    except DeployError as e:
        raise UsageError(str(e)) from None
    print("deploying to %s (CircuitPython %s)" % (drive, staged.info.version))
    if not args.no_restart:
        quiet(args.port)
    try:
        r = install(drive, staged)
    except DeployError as e:
        raise UsageError(str(e)) from None
    for rel in r.written:
        print("  %s" % rel)
    for rel in r.removed:
        print("  removed %s (left from an earlier deploy)" % rel)
    for rel in r.left:
        print("  left %s where it is: not one of pegboard deploy's files (if an older firmware left it, remove "
              "it by hand: a .py there is imported before the .mpy of the same name)" % rel)
    if r.compiled:
        print("modules compiled to .mpy for CircuitPython %s" % staged.info.version)
    else:
        print("modules copied as .py source: %s" % r.why_source)
    if r.settings_added:
        print("settings.toml: added %s from %s" % (", ".join(r.settings_added), r.settings_from))
    if r.settings_kept:
        print("settings.toml: kept your %s (%s says otherwise)" % (", ".join(r.settings_kept), r.settings_from))
    print("%d files written" % len(r.written))
    if args.no_restart:
        print(PRESS_RESET)
        return 0
    settle()  # the OS may still be writing the drive's FAT: the board resets 200 ms after `reset`
    why = restart(args.port)
    if why is None:
        print("the board is restarting with the new firmware")
    else:
        print("could not restart the board (%s): %s" % (why, PRESS_RESET))
    return 0
