"""`pegboard games`: the finished and abandoned games the board keeps (the `records` request,
docs/protocol.md "What the board keeps"): a list, or one game as a solution file or a GIF.
A kept game's field of the wrong type is listed as it came (pegboard.tui.words.value_text); a reply
that is no page of games at all is the board's error, in one line."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pegcore.geometry import MAX_ROWS, MIN_ROWS

from pegboard.commands.boardargs import add_port, connect
from pegboard.commands.cli import Subcommands, UsageError, check_output
from pegboard.link.client import BoardError
from pegboard.tui.words import clock_text, holes_text, length, value_text

MAX_PAGES = 200  # a board keeps a few hundred games at most: more pages is a confused board


def register(sub: Subcommands) -> None:
    p = sub.add_parser("games", help="list the finished and abandoned games the board keeps; write one as a "
                                       "solution file (--export) or a GIF (--gif)")
    add_port(p)
    p.add_argument("--export", nargs=2, metavar=("N", "FILE"),
                   help="write game N's moves as a solution file (pegboard demo FILE / guide FILE take it)")
    p.add_argument("--gif", nargs=2, metavar=("N", "FILE"),
                   help="animate game N's moves into a GIF file (FILE.gif)")
    p.set_defaults(func=run)


def _game_number(option: str, text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise UsageError("%s %s: N is a game number (pegboard games lists them)" % (option, text)) from None
    if n < 1:
        raise UsageError("%s %s: game numbers start at 1" % (option, text))
    return n


def fetch(client: Any) -> tuple[int, list[dict[str, Any]]]:
    """Every game the board keeps, oldest first, page by page; and the board's rows."""
    games: list[dict[str, Any]] = []
    page, pages, rows = 0, 1, 5
    while page < min(pages, MAX_PAGES):
        r = client.request("records", page=page)
        games.extend(page_of(r, "games"))
        pages, rows = r["pages"], r.get("rows", 5)
        if type(rows) is not int or not MIN_ROWS <= rows <= MAX_ROWS:
            raise BoardError("the board's records reply names no board size (rows %s)" % value_text(rows), "bad_reply")
        page += 1
    return rows, games


def page_of(reply: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """One page of a paged reply (`records`, `bests`): its list of objects under `key`; a reply that
    is none is the board's error (BoardError), as it cannot be listed."""
    items = reply.get(key)
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items) \
            or type(reply.get("pages")) is not int:
        raise BoardError("the board's reply is not a page of %s (%s %s, pages %s)"
                         % (key, key, value_text(items), value_text(reply.get("pages"))), "bad_reply")
    return items


def fetch_bests(client: Any) -> list[dict[str, Any]] | None:
    """The personal bests the board keeps, page by page; None from firmware that keeps none (it
    does not know the request)."""
    from pegboard.link.client import BoardError

    if "bests" not in (client.request("info").get("capabilities") or ()):
        return None
    bests: list[dict[str, Any]] = []
    page, pages = 0, 1
    while page < min(pages, MAX_PAGES):
        try:
            r = client.request("bests", page=page)
        except BoardError:
            return None
        bests.extend(page_of(r, "bests"))
        pages = r["pages"]
        page += 1
    return bests


def time_text(game: dict[str, Any]) -> str:
    """A kept game's time on the board's clock, or "" for one kept before the board kept time."""
    secs = game.get("seconds")
    return "" if secs is None else clock_text(secs)


def best_line(b: dict[str, Any], holes: int) -> str:
    start = "hole %s empty" % value_text(b["empty"]) if b.get("empty") else start_words(b.get("start"), holes)
    left = b.get("pegs")
    what = "won" if left == 1 else "%s pegs left" % value_text(left)
    challenge = "challenge " + value_text(b["challenge"]) if b.get("challenge") else ""
    return "  start %-24s %-16s %s  %s" % (start, challenge, what, time_text(b))


def solution_of(rows: int, game: dict[str, Any]) -> dict[str, Any]:
    """A kept game as a solution file's object (pegboard.solve.solution_file): its start, its moves."""
    from pegcore.geometry import Board

    board = Board(rows)
    start = game.get("start")
    gap = [h for h in range(1, board.holes + 1) if h not in start] if isinstance(start, list) else []
    sol: dict[str, Any] = {"rows": rows}
    if len(gap) == 1:
        sol["empty"] = gap[0]
    else:
        sol["start"] = start
    sol["moves"] = game.get("moves")  # check_solution says what is wrong with either
    return sol


def result_text(game: dict[str, Any]) -> str:
    r = game.get("result")
    if r == "abandoned":
        return "abandoned"
    text = "won" if r == 1 else "%s pegs left" % value_text(r)
    if game.get("challenge"):  # a game with a challenge: judged by it
        text += ", challenge %s %s" % (value_text(game["challenge"]), "met" if game.get("met") else
                                       "not judged" if game.get("met") is None else "missed")
    return text


def game_line(g: dict[str, Any], holes: int) -> str:
    """One kept game in the list: its number, start, moves, result and time."""
    when = time_text(g)
    return "%4s  start %-24s %2s moves  %s%s" % (value_text(g.get("n")), start_words(g.get("start"), holes),
                                                 length(g.get("moves")), result_text(g), "  " + when if when else "")


def start_words(start: Any, holes: int) -> str:
    """A start as a player says it: "hole 1 empty" for a full board less one, else its pegs."""
    gap = [h for h in range(1, holes + 1) if h not in start] if isinstance(start, list) else []
    if len(gap) == 1 and len(start) == holes - 1:
        return "hole %d empty" % gap[0]
    return "pegs " + holes_text(start, ",")


def run(args: argparse.Namespace) -> int:
    export = gif = None
    if args.export:
        export = _game_number("--export", args.export[0]), args.export[1]
        check_output("--export", export[1])
    if args.gif:
        gif = _game_number("--gif", args.gif[0]), args.gif[1]
        check_output("--gif", gif[1], ".gif")
    with connect(args) as b:
        rows, games = fetch(b)
        bests = fetch_bests(b) if not (export or gif) else None
    by_n = {g["n"]: g for g in games if type(g.get("n")) is int}  # another n cannot be asked for
    for option, want in (("--export", export), ("--gif", gif)):
        if want and want[0] not in by_n:
            raise UsageError("%s %d: the board keeps games %s" % (
                option, want[0], "%d..%d" % (min(by_n), max(by_n)) if by_n else "none yet"))
    if export:
        from pegboard.solve.solution_file import check_solution

        sol = solution_of(rows, by_n[export[0]])
        check_solution(dict(sol), export[1])  # every move legal from its start (pegcore rules)
        with open(export[1], "w", encoding="utf-8") as f:
            f.write(json.dumps(sol) + "\n")
    if gif:
        from pegboard.pictures.svg import solution_gif
        from pegboard.solve.solution_file import check_solution
        from pegcore.geometry import Board
        from pegcore.moves import validate_moves

        checked = check_solution(solution_of(rows, by_n[gif[0]]), gif[1])
        board = Board(rows)
        start = 0
        for h in checked["start"]:
            start |= 1 << (h - 1)
        try:
            solution_gif(board, start, validate_moves(board, start, checked["moves"])[1], gif[1])
        except OSError as e:
            raise UsageError("cannot write %s: %s" % (gif[1], e)) from None
    if args.json:
        print(json.dumps({"rows": rows, "games": games, "bests": bests}))
    elif not (export or gif):
        if not games:
            print("no finished or abandoned game kept yet")
        holes = rows * (rows + 1) // 2
        for g in games:
            print(game_line(g, holes))
        if bests:
            print("personal bests (fewest pegs, then fastest; a challenge's only when met):")
            for best in bests:
                print(best_line(best, holes))
    else:
        for option, want in (("exported", export), ("animated", gif)):
            if want:
                print("game %d %s to %s" % (want[0], option, want[1]))
    return 0
