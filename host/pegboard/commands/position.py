"""Commands about the position on the board: `play` (a game from the pegs as they stand),
`challenge` (a target for the game in play) and `setup` (the board lights what to fill and what to
take out until the pegs match a position)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pegboard.commands.boardargs import add_port, connect, stopped_on_interrupt
from pegboard.commands.cli import Subcommands, UsageError
from pegboard.link.client import BoardClient
from pegboard.solve.solution_file import SolutionError, load_solution


def register(sub: Subcommands) -> None:
    p = sub.add_parser("play", help="start a game from the pegs as they stand on the board (play from here)",
                       description="The board starts a game from whatever pegs are in it (set by hand, or "
                                   "left by an earlier game): moves, undo, hints and resume after a power cut, "
                                   "as in any game. The same as holding the board's button for 3 s.")
    add_port(p)
    p.add_argument("--finish", type=int, help="the hole the last peg should end in (the game-over event says "
                                              "whether it did)")
    p.add_argument("--target", metavar="CHALLENGE",
                   help="a challenge for the game, as `pegboard challenge` takes it: a hand-set puzzle with its "
                        "target (e.g. leave:3)")
    p.set_defaults(func=play)
    p = sub.add_parser("challenge", help="set a challenge for the game in play: finish in a hole, leave K pegs, "
                                         "or the reverse game",
                       description="The board lights the target, its hints lead toward it (and say when it can no "
                                   "longer be met), and the game over judges it; the board keeps it with the game. "
                                   "TARGET: finish:H (the last peg in hole H), finish (in the hole that started "
                                   "empty), leave:K (end with exactly K pegs, no jump left), most (the reverse game: "
                                   "as many pegs as possible with no jump left), none (take it off). Two short "
                                   "presses of the board's button before the first move set `finish`.")
    add_port(p)
    p.add_argument("target", metavar="TARGET", help="finish:H, finish, leave:K, most or none")
    p.set_defaults(func=challenge)
    p = sub.add_parser("setup", help="let the board show you how to set up a position",
                       description="The board lights the holes still to fill (green) and the pegs to take "
                                   "out (orange) until the pegs match; then a game starts from them. Give "
                                   "--pegs or a solution FILE (its start).")
    add_port(p)
    p.add_argument("file", nargs="?", help="solution file: set up its start")
    p.add_argument("--pegs", help="the holes that should hold pegs, e.g. 2,4,5,7,9,12,13")
    p.set_defaults(func=setup)


def play(args: argparse.Namespace) -> int:
    req: dict[str, Any] = {}
    if args.finish is not None:
        req["finish"] = args.finish
    if args.target is not None:
        if args.finish is not None:
            raise UsageError("give --finish or --target, not both (--target finish:H is the same)")
        req["target"] = args.target
    with connect(args) as b:
        r = b.request("play", **req)
    if args.json:
        print(json.dumps(r))
        return 0
    start = "every hole but %d" % r["empty"] if r.get("empty") else "pegs in %s" % ", ".join(map(str, r["start"]))
    finish = " (finish in hole %d)" % r["finish"] if r.get("finish") else ""
    print("a game from here: %s%s" % (start, finish))
    if r.get("challenge"):
        print(challenge_words(r))
    return 0


def challenge_words(r: dict[str, Any]) -> str:
    """A challenge reply in words."""
    c = r.get("challenge")
    if not c:
        return "no challenge: the game is scored as usual"
    kind, _, n = c.partition(":")
    what = {"finish": "the last peg in hole %s" % n, "leave": "leave exactly %s pegs" % n,
            "most": "the reverse game: leave as many pegs as possible" + (" (%s can be left)" % n if n else "")}[kind]
    can = {True: "it can still be met", False: "it can no longer be met from here",
           None: "whether it can be met takes a search: ask for a hint"}[r.get("reachable")]
    return "challenge: %s; %s" % (what, can)


def challenge(args: argparse.Namespace) -> int:
    with connect(args) as b:
        r = b.request("challenge", target=args.target)
    print(json.dumps(r) if args.json else challenge_words(r))
    return 0


def parse_pegs(text: str) -> list[int]:
    try:
        pegs = [int(x) for x in text.replace(" ", ",").split(",") if x]
    except ValueError:
        raise UsageError("--pegs must be hole numbers separated by commas, e.g. 2,4,5,7") from None
    if not pegs:
        raise UsageError("--pegs must name at least one hole")
    if len(set(pegs)) != len(pegs):
        raise UsageError("--pegs names a hole twice")
    return sorted(pegs)


def setup(args: argparse.Namespace) -> int:
    if bool(args.file) == bool(args.pegs):
        raise UsageError("give a solution FILE or --pegs (one of them)")
    if args.file:
        try:
            sol = load_solution(args.file)
        except SolutionError as e:
            raise UsageError(str(e)) from None
        pegs = sol["start"]
    else:
        pegs = parse_pegs(args.pegs)
    with connect(args) as b:
        if args.file:
            check_board_size(b, sol, args.file)
        set_up(b, pegs, args.json)
    return 0


def check_board_size(b: BoardClient, sol: dict[str, Any], path: str) -> None:
    """A file for another board size is refused before anything is sent: naming both sizes."""
    info = b.request("info")
    rows = info.get("rows")
    if rows != sol["rows"]:
        raise UsageError("%s is for %d rows (%d holes); this board has %s rows (%s holes)"
                         % (path, sol["rows"], sol["rows"] * (sol["rows"] + 1) // 2, rows, info.get("holes")))


def set_up(b: BoardClient, pegs: list[int], as_json: bool = False) -> None:
    """Ask the board for the position `pegs` and follow the hands until it is set."""
    r = b.request("setup", pegs=pegs)
    if r.get("done"):
        _say(as_json, {"event": "setup_done", "pegs": pegs}, "the pegs already match: a game starts from them")
        return
    want = set(pegs)
    fill, out = set(r["to_fill"]), set(r["to_remove"])
    _say(as_json, r, "set up the board: put pegs in %s%s (lit green; orange: take out). Ctrl-C to give up"
         % (_holes(fill) or "no hole", "; take out %s" % _holes(out) if out else ""))
    with stopped_on_interrupt(b, "setup"):
        for ev in b.events(timeout=None):
            name = ev.get("event")
            if name in ("lift", "place"):
                h, placed = ev["hole"], name == "place"
                if h in want:
                    (fill.discard if placed else fill.add)(h)
                else:
                    (out.add if placed else out.discard)(h)
                if not as_json:
                    print("  still to fill: %s   to take out: %s" % (_holes(fill) or "-", _holes(out) or "-"),
                          flush=True)
            elif name == "setup_done":
                _say(as_json, ev, "set: a game starts from these pegs")
                return


def _holes(hs: set[int]) -> str:
    return ", ".join(map(str, sorted(hs)))


def _say(as_json: bool, obj: dict[str, Any], text: str) -> None:
    print(json.dumps(obj) if as_json else text, flush=True)
