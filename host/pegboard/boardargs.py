"""Shared bits of the commands that talk to a board: the --port option and friendly errors."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pegcore.geometry import Board as Geometry
from pegcore.rules import mask_of

from pegboard.client import Board, BoardError, NoBoard
from pegboard.render import render_board


PORT_HELP = "serial device path or pyserial URL (default: a plugged-in board, else a running `pegboard sim`)"


def add_port(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def connect(args: argparse.Namespace) -> Board:
    """The board on --port, else a plugged-in board, else a running `pegboard sim`."""
    from pegboard.ports import find_board_or_sim

    try:
        return Board(args.port, finder=find_board_or_sim).open()
    except NoBoard as e:
        print("pegboard: %s" % e, file=sys.stderr)
        raise SystemExit(1) from None


def fail(e: BoardError) -> int:
    """Print a board error for a person (cli.main calls this for any BoardError); exit code 1."""
    if e.reply:
        extra = " (step %d)" % e.reply["step"] if "step" in e.reply else ""
        print("pegboard: the board says %s: %s%s" % (e.code, e, extra), file=sys.stderr)
    else:
        print("pegboard: %s" % e, file=sys.stderr)
    return 1


def describe_state(state: dict[str, Any]) -> str:
    """A player's view of a state reply: the board, the mode, the moves so far."""
    holes = len(state.get("lights") or []) or 15
    rows = next(r for r in range(4, 9) if r * (r + 1) // 2 >= holes)
    g = Geometry(rows)
    marks = {h: "✕" for h in state.get("illegal", [])}
    marks.update({h: "◎" for h in state.get("landing", [])})
    lines = [render_board(g, mask_of(state.get("pegs", [])), marks)]
    lines.append("mode: %s   pegs: %d   empty at start: %s" % (state.get("mode"), len(state.get("pegs", [])),
                                                              state.get("empty_start")))
    if state.get("moves"):
        lines.append("moves: " + " ".join("%d-%d" % (m[0], m[2]) for m in state["moves"]))
    if state.get("solvable") is not None:
        lines.append("one peg still possible: %s" % ("yes" if state["solvable"] else "no"))
    return "\n".join(lines)
