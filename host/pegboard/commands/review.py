"""`pegboard review [N]`: where a game lost its win (the `review` request, docs/protocol.md): the
move after which it could no longer be won, and one that would have kept it. The board lights the
position before that move and waits for the pegs to be set so: the game is played on from there."""

from __future__ import annotations

import argparse
import json

from pegboard.commands.boardargs import add_port, connect
from pegboard.commands.cli import Subcommands, UsageError
from pegboard.tui.words import review_text


def register(sub: Subcommands) -> None:
    p = sub.add_parser("review", help="where a game lost its win: the move, and one that would have kept it",
                       description="Finds the first move of a game after which it could no longer be won "
                                   "(one peg left, or in its finish hole), and one move that would have kept the "
                                   "win. The board lights the position before it, the move played and the "
                                   "better one; set the pegs as lit and the game goes on from there (a retry). "
                                   "On the board alone: a short press of its button after a lost game.")
    p.add_argument("game", nargs="?", help="a kept game's number (pegboard games lists them; default: the game "
                                           "just over, else the newest kept)")
    add_port(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    n = None
    if args.game is not None:
        try:
            n = int(args.game)
        except ValueError:
            raise UsageError("review %s: N is a game number (pegboard games lists them)" % args.game) from None
        if n < 1:
            raise UsageError("review %s: game numbers start at 1" % args.game)
    with connect(args) as b:
        # on 21 and 28 holes the board searches a few positions, in slices: it may take a while
        r = b.request("review", timeout=120, **({} if n is None else {"game": n}))
    print(json.dumps(r) if args.json else review_text(r))
    return 0
