"""`pegboard monitor`: the protocol traffic in both directions, as one more program sharing the
board.

Every pegboard program reaches the board through its hub (pegboard.link.hub), so the monitor asks
the hub for the tap: each line that passes, the requests of every program (→, with who sent
them) and the replies and events (←). The other programs go on as before, with or without a
monitor, and any number of monitors may watch at once."""

from __future__ import annotations

import argparse
import json
import sys

from pegboard.commands.boardargs import PORT_HELP, open_link
from pegboard.safe_text import printable
from pegboard.commands.cli import EXIT_STATUS_UNTIL_STOPPED, Subcommands

COLORS = {"move": "32", "game_over": "35", "illegal": "31", "undo": "33", "new_game": "36", "hint": "34",
          "request": "1"}


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "monitor", help="watch the protocol live, both directions, beside the other programs",
        description="Prints every line between the board and the pegboard programs using it: each request "
                    "(→, with the program that sent it) and each reply and event (←). The board stays shared: "
                    "run state, hint, demo, mirror ... in other terminals as usual. Runs until Ctrl-C.",
        epilog=EXIT_STATUS_UNTIL_STOPPED)
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--raw", action="store_true", help="print the lines as they pass, unparsed")
    p.set_defaults(func=run)


def pretty(line: bytes, color: bool) -> str:
    try:
        obj = json.loads(line)
    except ValueError:
        return printable(line.decode("utf-8", "replace"))
    if not isinstance(obj, dict):
        return printable(line.decode("utf-8", "replace"))
    if "cmd" in obj:
        name = "request"
    else:
        name = obj.get("event") or ("reply" if obj.get("ok") else "error")
    rest = printable(" ".join("%s=%s" % (k, json.dumps(v)) for k, v in obj.items() if k not in ("event", "seq", "cmd")))
    head = printable("%-10s" % (obj["cmd"] if name == "request" else name))
    if "seq" in obj and "event" in obj:
        head = "#%-4d %s" % (obj["seq"], head)
    code = COLORS.get(name, "31" if name == "error" else "0")
    return ("\033[%sm%s\033[0m %s" % (code, head, rest)) if color else "%s %s" % (head, rest)


def run(args: argparse.Namespace) -> int:
    color = sys.stdout.isatty()

    def show(arrow: str, line: bytes) -> None:
        # what the board and the other programs send is theirs: no control character reaches the terminal
        text = printable(line.decode("utf-8", "replace")) if args.raw else pretty(line, color)
        sender = "  (%s)" % printable(link.tap_from) if arrow == ">" and link.tap_from else ""
        print("%s %s%s" % ("→" if arrow == ">" else "←", text, sender), flush=True)

    link = open_link(args, tap=True)
    link.tap = show
    link.on_lost = lambda: print("-- disconnected; waiting for the board --", flush=True)
    link.on_back = lambda: print("-- reconnected on %s --" % link.connected_to, flush=True)
    others = [u for u in link.users if not u.endswith("(pid %d)" % _pid())]
    print(printable("monitoring %s%s" % (link.connected_to, "; also using it: " + ", ".join(others) if others else "")),
          flush=True)
    try:
        while True:
            link.read_line(0.5)  # the tap's lines come to `show`
    except KeyboardInterrupt:
        return 0
    finally:
        link.close()


def _pid() -> int:
    import os

    return os.getpid()
