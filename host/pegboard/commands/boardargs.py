"""Shared bits of the commands that talk to a board: the --port option and friendly errors."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
import sys
from typing import Any, Iterator

from pegcore.geometry import Board
from pegcore.rules import mask_of

from pegboard.link.client import BoardClient, BoardError, NoBoard
from pegboard.pictures.text import render_board
from pegboard.solve.lost_words import board_words
from pegboard.tui.words import mode_text
from pegboard.link.hub_link import HubLink


PORT_HELP = "serial device path or pyserial URL (default: a plugged-in board, else a running `pegboard sim`)"


def add_port(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def open_link(args: argparse.Namespace, tap: bool = False) -> HubLink:
    """The board on --port, else a plugged-in board, else a running `pegboard sim`, through its hub:
    every pegboard program that uses the same board shares it (pegboard.link.hub). Raises
    UsageError for a port that cannot be a board, NoBoard when none is there."""
    from pegboard.link.ports import find_board_or_sim

    if args.port is not None:
        check_port(args.port)
        target = args.port
    else:
        target = find_board_or_sim(note=lambda text: print("pegboard: %s" % text, file=sys.stderr))
        if not target:
            from pegboard.link.ports import looked_at

            raise NoBoard("no board found (%s): plug one in, start the simulated one (`pegboard sim`), or give "
                          "--port (a device path or pyserial URL)" % looked_at(), "no_board")
    name = " ".join(["pegboard"] + [a for a in sys.argv[1:2] if not a.startswith("-")])
    return HubLink(target, port=args.port, name=name, tap=tap).open()


def connect(args: argparse.Namespace) -> BoardClient:
    """A protocol client on `open_link(args)`."""
    return BoardClient(link=open_link(args))


def check_port(port: str) -> None:
    """Refuse, with the reason, a --port that cannot be a board's serial port."""
    from pegboard.commands.usage import UsageError

    if not port.strip():
        raise UsageError("--port is empty: give a device path or a pyserial URL")
    if port.startswith("loop://"):
        raise UsageError("--port loop:// is pyserial's loopback: it echoes every request back and no "
                         "board answers there")
    path = port.split("://", 1)[1] if port.startswith(("spy://", "alt://")) else port
    if "://" in path:
        return  # socket://, rfc2217://, hwgrep://: only opening them can tell
    path = path.split("?", 1)[0]
    if os.path.isdir(path):
        raise UsageError("--port %s is a folder, not a serial port" % port)
    if os.path.exists(path):
        if not stat.S_ISCHR(os.stat(path).st_mode):
            raise UsageError("--port %s is a file, not a serial port" % port)
        if not hasattr(os, "O_NOCTTY"):
            return  # Windows has no device files to look at: opening the port tells
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            return  # busy or not allowed: opening it properly says which
        try:
            if not os.isatty(fd):
                raise UsageError("--port %s is a device but not a serial port" % port)
        finally:
            os.close(fd)


def fail(e: BoardError, as_json: bool = False) -> int:
    """Report a board error (cli.main calls this for any BoardError): exit code 1, or 2 when the
    board refused an argument as bad input. With --json,
    a JSON object on stdout, {"ok": false, "error": CODE, "message": ...}."""
    message = str(e)
    if e.code == "illegal_move" and isinstance(e.reply.get("step"), int):
        # the protocol counts a list's steps from 0; people count moves from 1
        why = message.split(": ", 1)[1] if message.startswith("step ") and ": " in message else message
        message = "move %d of the list: %s" % (e.reply["step"] + 1, why)
    if as_json:
        obj: dict[str, Any] = {"ok": False, "error": e.code, "message": message}
        if isinstance(e.reply.get("step"), int):
            obj["move"] = e.reply["step"] + 1
        print(json.dumps(obj), flush=True)
    elif e.reply:
        print("pegboard: the board says %s: %s" % (e.code, message), file=sys.stderr)
    elif e.code == "no_reply" and not isinstance(e, NoBoard) and e.silent:
        print("pegboard: %s (is this the board's data port? `pegboard ports` lists them)" % message,
              file=sys.stderr)
    elif e.code == "no_reply" and not isinstance(e, NoBoard):
        print("pegboard: %s (the board has answered on this port before: it is busy or slow, try again)"
              % message, file=sys.stderr)
    else:
        print("pegboard: %s" % message, file=sys.stderr)
    # the board refusing an argument the user gave is bad input, like a usage error
    return 2 if e.code in BAD_INPUT_CODES else 1


BAD_INPUT_CODES = ("bad_args", "bad_json", "line_too_long")


@contextlib.contextmanager
def stopped_on_interrupt(board: BoardClient, what: str) -> Iterator[None]:
    """Ctrl-C while following something this command started on the board (a demo, guide, solver
    show or self-test) stops it there too, then ends the command (exit status 130)."""
    try:
        yield
    except KeyboardInterrupt:
        try:
            board.request("stop", timeout=1.0)
            print("\nstopped the %s on the board" % what, file=sys.stderr, flush=True)
        except BoardError as e:
            print("\ncould not stop the %s on the board: %s" % (what, e), file=sys.stderr, flush=True)
        raise


def describe_state(state: dict[str, Any]) -> str:
    """A player's view of a state reply: the board, the mode, the moves so far."""
    holes = len(state.get("lights") or []) or 15
    rows = next(r for r in range(4, 9) if r * (r + 1) // 2 >= holes)
    g = Board(rows)
    marks = {h: "✕" for h in state.get("illegal", [])}
    marks.update({h: "◎" for h in state.get("landing", [])})
    lines = [render_board(g, mask_of(state.get("pegs", [])), marks)]
    lines.append(mode_text(state, len(state.get("pegs", []))))
    if state.get("moves"):
        lines.append("moves: " + " ".join("%d-%d" % (m[0], m[2]) for m in state["moves"]))
    if state.get("solvable") is not None:
        why = None if state["solvable"] else board_words(state.get("position") or [], holes)  # lost: the reason
        lines.append("one peg still possible: %s%s" % ("yes" if state["solvable"] else "no", ": " + why if why else ""))
    return "\n".join(lines)
