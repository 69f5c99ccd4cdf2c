"""`pegboard monitor`: the protocol traffic in both directions, as a tap other commands go through.

The board's port is exclusive (one program at a time), so a monitor that only listened would never
see a request. Instead the monitor holds the port and offers a pseudo-terminal, the tap: every
other program talks to the board through it, and the monitor prints each line that passes, the
requests (→) and the replies and events (←). `pegboard` commands without --port use a running
monitor's tap by themselves (it is announced in the runtime folder, like `pegboard sim`)."""

from __future__ import annotations

import argparse
import json
import os
import select
import sys

from pegboard.link.errors import NoBoard
from pegboard.commands.boardargs import PORT_HELP, open_link
from pegboard.commands.cli import EXIT_STATUS_UNTIL_STOPPED, Subcommands
from pegboard.link.serial_link import SerialLink

COLORS = {"move": "32", "game_over": "35", "illegal": "31", "undo": "33", "new_game": "36", "hint": "34",
          "request": "1"}


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "monitor", help="watch the protocol live, both directions, as a tap other commands go through",
        description="Holds the board's port and offers a tap (a pseudo-terminal) for other programs: every "
                    "request sent through the tap (→) and every reply and event from the board (←) is "
                    "printed. Other pegboard commands without --port use the tap by themselves; give its "
                    "path as --port to anything else. Runs until Ctrl-C.",
        epilog=EXIT_STATUS_UNTIL_STOPPED)
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--raw", action="store_true", help="print the lines as they pass, unparsed")
    p.set_defaults(func=run)


def pretty(line: bytes, color: bool) -> str:
    try:
        obj = json.loads(line)
    except ValueError:
        return line.decode("utf-8", "replace")
    if not isinstance(obj, dict):
        return line.decode("utf-8", "replace")
    if "cmd" in obj:
        name = "request"
    else:
        name = obj.get("event") or ("reply" if obj.get("ok") else "error")
    rest = " ".join("%s=%s" % (k, json.dumps(v)) for k, v in obj.items() if k not in ("event", "seq", "cmd"))
    head = "%-10s" % (obj["cmd"] if name == "request" else name)
    if "seq" in obj and "event" in obj:
        head = "#%-4d %s" % (obj["seq"], head)
    code = COLORS.get(name, "31" if name == "error" else "0")
    return ("\033[%sm%s\033[0m %s" % (code, head, rest)) if color else "%s %s" % (head, rest)


def run(args: argparse.Namespace) -> int:
    from pegboard.sim import runtime_file
    from pegboard.sim.ptys import raw_pty

    link = open_link(args)
    color = sys.stdout.isatty()

    def show(arrow: str, line: bytes) -> None:
        text = line.decode("utf-8", "replace") if args.raw else pretty(line, color)
        print("%s %s" % ("→" if arrow == ">" else "←", text), flush=True)

    link.tap = show
    link.on_lost = lambda: print("-- disconnected; waiting for the board --", flush=True)
    link.on_back = lambda: print("-- reconnected on %s --" % link.connected_to, flush=True)
    master, slave, tap = raw_pty()
    announced = runtime_file.write(tap, None, kind="tap")
    print("monitoring %s; tap: %s" % (link.connected_to, tap), flush=True)
    print("(pegboard commands without --port go through the tap; give it as --port to anything else)",
          flush=True)
    try:
        while True:
            r, _, _ = select.select([master], [], [], 0.01)
            if r:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    data = b""
                if data:
                    _to_board(link, data)
            data = link.read()
            if data:
                try:
                    os.write(master, data)
                except OSError:
                    pass  # nobody reads the tap just now: the board's lines are shown here all the same
    except KeyboardInterrupt:
        return 0
    finally:
        runtime_file.remove(announced)
        link.close()
        for fd in (master, slave):
            os.close(fd)


def _to_board(link: SerialLink, data: bytes) -> None:
    try:
        link.write(data)
    except NoBoard:
        print("-- the board is gone: that request was lost --", flush=True)
