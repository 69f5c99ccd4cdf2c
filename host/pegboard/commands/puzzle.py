"""`pegboard puzzle`: a graded puzzle on the board (the `puzzle` request, docs/protocol.md): the next
one not solved yet, one of a grade, a given one, or the puzzle of the day by this computer's
date. The board lights the position to set; once the pegs match a game starts from it, and a win
is kept on the board as solved."""

from __future__ import annotations

import argparse
import datetime
import json
from typing import Any

from pegboard.commands.boardargs import add_port, connect
from pegboard.commands.cli import Subcommands, UsageError
from pegboard.tui.words import puzzle_text


def register(sub: Subcommands) -> None:
    p = sub.add_parser("puzzle", help="set up a graded puzzle on the board (the next unsolved, a grade, "
                                      "or the puzzle of the day)",
                       description="Graded puzzles (1 easy .. 5 hardest, from the solver's own figures) kept "
                                   "on the board: it lights the position to set, then a game starts from it; "
                                   "a win is kept as solved. With no option: the next one not solved yet. On "
                                   "the board alone: three quick presses of its button.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--grade", type=int, metavar="G", help="the next unsolved puzzle of grade G (1..5)")
    which.add_argument("--today", action="store_true", help="the puzzle of the day, by this computer's date")
    which.add_argument("--number", type=int, metavar="N", help="puzzle N of the board's table")
    add_port(p)
    p.set_defaults(func=run)


def request_args(args: argparse.Namespace, today: datetime.date | None = None) -> dict[str, Any]:
    if args.grade is not None:
        if args.grade < 1:
            raise UsageError("--grade %d: grades are 1 (easy) to 5 (hardest)" % args.grade)
        return {"grade": args.grade}
    if args.number is not None:
        if args.number < 1:
            raise UsageError("--number %d: puzzles are numbered from 1" % args.number)
        return {"n": args.number}
    if args.today:
        day = today or datetime.date.today()
        return {"day": (day - datetime.date(1970, 1, 1)).days}
    return {}


def run(args: argparse.Namespace) -> int:
    ask = request_args(args)
    with connect(args) as b:
        r = b.request("puzzle", **ask)
    print(json.dumps(r) if args.json else puzzle_text(r))
    return 0
