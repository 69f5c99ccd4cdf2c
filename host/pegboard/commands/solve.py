"""`pegboard solve`: solve, count and enumerate on the PC with the same core the chip runs."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from typing import Callable, Iterator

from pegcore.geometry import MAX_ROWS, MIN_ROWS, Board, start_mask
from pegcore.memo import BitSet, memo_set
from pegcore.search import SolutionSearch
from pegcore.solver import Solver

from pegboard.commands.cli import Subcommands, UsageError, check_output
from pegboard.progress import Progress
from pegboard.solve.lost_words import reason_json
from pegboard.solve.methods import CORE, METHODS, Stats
from pegboard.solve.methods import search as method_search
from pegboard.pictures.text import move_text, render_board


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "solve", help="solve, count or list solutions on the PC",
        description="Solve the board from a single empty hole. Prints each jump and the board after "
                    "it, or counts/streams solutions. Exit 1 when there is no solution (saying why, where a "
                    "short proof exists: docs/solve-methods.md). Colour the holes "
                    "(row + column, counted from 0) mod 3: every jump changes each colour's peg count by one, so some "
                    "starts and finishes are ruled out without searching (10 of the 28 starts on 7 rows).")
    p.add_argument("--rows", type=int, default=5,
                   help="rows of the triangle, %d..%d (default 5)" % (MIN_ROWS, MAX_ROWS))
    p.add_argument("--empty", default="1", metavar="H|all", help="the empty hole at the start, or 'all' (default 1)")
    p.add_argument("--finish", type=int, metavar="H", help="hole the last peg must end in (default anywhere)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="count the solutions instead of showing one (up to 6 rows)")
    mode.add_argument("--all", action="store_true", help="stream every solution, one per line")
    mode.add_argument("--min-moves", action="store_true",
                      help="a solution with the fewest moves (a run of jumps by one peg is one move; up to 6 rows)")
    p.add_argument("--method", choices=(CORE,) + METHODS, metavar="METHOD",
                   help="the search for one solution: core, recursive (depth first by recursion), iterative "
                        "(depth first, explicit stack) or breadth (breadth first by levels, keeping every position: "
                        "memory-heavy), each with a set of positions already reached, up to 6 rows; default "
                        "core, the core's own search (colour-parity pruning; docs/solve-methods.md)")
    p.add_argument("--stats", action="store_true",
                   help="also give the search's positions visited, time and peak memory (tracemalloc peak on "
                        "the host, from a second, traced run)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--svg", metavar="FILE", help="also draw the solution step by step into an SVG file")
    p.add_argument("--gif", metavar="FILE",
                   help="also animate the solution into a GIF file (FILE.gif, 480 px wide or more)")
    p.add_argument("--colours", choices=("plain", "pegs"), default="plain",
                   help="the pegs of --svg/--gif: plain (all brown, default) or pegs (each peg in the colour it keeps "
                        "as it jumps, as the board's `pegs` theme lights it)")
    p.set_defaults(func=run)


def _parse(args: argparse.Namespace) -> tuple[Board, list[int]]:
    try:
        board = Board(args.rows)
    except ValueError as e:
        raise UsageError("--rows: %s" % e) from None
    if args.empty == "all":
        empties = list(range(1, board.holes + 1))
    else:
        try:
            empties = [board.check_hole(int(args.empty))]
        except ValueError:
            raise UsageError("--empty must be a hole 1..%d or 'all', not %r" % (board.holes, args.empty)) from None
    if args.finish is not None:
        try:
            board.check_hole(args.finish)
        except ValueError as e:
            raise UsageError("--finish: %s" % e) from None
    if args.min_moves and board.rows >= 7:
        raise UsageError("--min-moves on %d rows is out of reach here (too many positions); "
                         "leave it out to get one solution" % board.rows)
    if (args.method or args.stats) and (args.count or args.all or args.min_moves):
        raise UsageError("--method/--stats are about the search for one solution: not with --count, --all "
                         "or --min-moves")
    if args.method in METHODS and board.rows >= 7:
        raise UsageError("--method %s on %d rows is out of reach here: the plain searches do not prune by "
                         "colour parity, and a start with no solution means visiting every reachable position; "
                         "leave out --method (or --method %s)" % (args.method, board.rows, CORE))
    if args.gif and not args.gif.lower().endswith(".gif"):
        raise UsageError("--gif %s: the file name must end in .gif (it is an animated GIF)" % args.gif)
    if args.colours != "plain" and not (args.svg or args.gif):
        raise UsageError("--colours %s colours the pictures: use it with --svg or --gif" % args.colours)
    if (args.svg or args.gif) and (args.count or args.all or args.empty == "all"):
        raise UsageError("--svg/--gif draw one solution: use them with a single --empty and no --count/--all")
    # checked before the search: a long solve must not end in "cannot write"
    if args.svg:
        check_output("--svg", args.svg, ".svg")
    if args.gif:
        check_output("--gif", args.gif, ".gif")
    return board, empties


def run(args: argparse.Namespace) -> int:
    board, empties = _parse(args)
    with _quick_interrupt():
        if args.count:
            return _count(board, empties, args)
        if args.all:
            return _stream_all(board, empties, args)
        return _solve(board, empties, args)


@contextlib.contextmanager
def _quick_interrupt() -> Iterator[None]:
    """Ctrl-C ends a long search at once: unwinding it would first free its memo, millions of
    entries, which takes seconds. Nothing is lost: results are printed as they are found."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(*_: object) -> None:
        try:
            sys.stderr.write("\ninterrupted\n")
            sys.stdout.flush()
        finally:
            os._exit(130)

    old = signal.signal(signal.SIGINT, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _where(finish: int | None) -> str:
    return "" if finish is None else " finishing in %d" % finish


def _count(board: Board, empties: list[int], args: argparse.Namespace) -> int:
    counts: dict[int, int]
    if board.rows <= 6:
        from pegboard.solve.fastsolve import count_all

        bar = Progress("counting")
        try:
            counts = count_all(board, empties, args.finish, bar if board.rows >= 6 else None)
        finally:
            bar.close()
    else:
        solver = Solver(board, args.finish)
        if any(solver.possible(start_mask(board, e)) for e in empties):
            raise UsageError("counting every solution on %d rows is out of reach here (too many positions); "
                             "leave out --count to get one solution" % board.rows)
        counts = {e: 0 for e in empties}  # every start ruled out by colour parity
    for e in empties:
        if args.json:
            print(json.dumps({"rows": board.rows, "empty": e, "finish": args.finish, "count": counts[e]}))
        else:
            print("%d solutions from hole %d%s" % (counts[e], e, _where(args.finish)))
    if len(empties) > 1 and not args.json:
        print("%d in all" % sum(counts.values()))
    return 0


def all_solutions(board: Board, solver: Solver, mask: int) -> Iterator[list[int]]:
    """Every solution from mask, depth first, skipping dead branches (explicit stack)."""
    flip = board.flip
    path: list[int] = []
    stack = [(mask, iter(_winning_jumps(board, solver, mask)))]
    while stack:
        m, it = stack[-1]
        j = next(it, None)
        if j is None:
            stack.pop()
            if path:
                path.pop()
            continue
        c = m ^ flip[j]
        path.append(j)
        if c & (c - 1) == 0:
            yield list(path)
            path.pop()
            continue
        stack.append((c, iter(_winning_jumps(board, solver, c))))


def _winning_jumps(board: Board, solver: Solver, m: int) -> list[int]:
    from pegcore.rules import legal_jumps

    # counts (memoised per position) are fastest while they fit; bigger boards ask only "solvable?"
    if board.rows <= 6:
        return [j for j in legal_jumps(board, m) if solver.count(m ^ board.flip[j])]
    return [j for j in legal_jumps(board, m) if solver.solvable(m ^ board.flip[j])]


def _stream_all(board: Board, empties: list[int], args: argparse.Namespace) -> int:
    solver = Solver(board, args.finish)
    found = 0
    out = sys.stdout
    for e in empties:
        for jumps in all_solutions(board, solver, start_mask(board, e)):
            moves = [board.move_of(j) for j in jumps]
            if args.json:
                out.write(json.dumps({"rows": board.rows, "empty": e, "moves": moves}) + "\n")
            else:
                out.write("%d: %s\n" % (e, " ".join("%d-%d" % (m[0], m[2]) for m in moves)))
            found += 1
    if not found:
        message = "no solution from %s%s" % (_starts(empties), _where(args.finish))
        why = reason_json(board, start_mask(board, empties[0]), args.finish) if len(empties) == 1 else None
        if why:
            message += ": " + why["text"]
        if args.json:
            print(json.dumps({"ok": False, "error": "no_solution", "message": message, "rows": board.rows,
                              **({"reason": why} if why else {})}))
        print(message, file=sys.stderr)
        return 1
    return 0


def _starts(empties: list[int]) -> str:
    return "hole %d" % empties[0] if len(empties) == 1 else "any hole"


def _solutions(board: Board, empties: list[int], args: argparse.Namespace
               ) -> Iterator[tuple[int, list[int] | None, int | None, Stats | None]]:
    """(empty, jumps or None, fewest moves or None, the search's stats or None) per start, each as
    soon as it is found; a progress bar on big boards (on a terminal: the start hole and the
    positions searched). With --method or --stats, the chosen search (pegboard.solve.methods),
    measured, a fresh one per start."""
    solver = Solver(board, args.finish, memo_limit=0)  # for fmask and possible(): no memo of its own
    dead = memo_set(board.holes)  # lost positions, shared by the starts' searches as Solver's own
    bar = Progress("solving") if board.rows >= 6 else None
    try:
        for k, e in enumerate(empties):
            if bar:
                bar(k, len(empties), "hole %d" % e)
            start = start_mask(board, e)
            got: tuple[int, list[int] | None, int | None, Stats | None]
            if args.method or args.stats:
                if bar:
                    bar(k, len(empties), "hole %d: %s search" % (e, args.method or CORE))
                jumps, stats = method_search(args.method or CORE, board, start, solver.fmask, memory=args.stats)
                got = (e, jumps, None, stats)
            elif not args.min_moves:
                def searched(nodes: int, k: int = k, e: int = e) -> None:
                    if bar:
                        bar(k, len(empties), "hole %d: %s positions searched" % (e, format(nodes, ",")))

                got = (e, solution(board, start, solver.fmask, dead, searched), None, None)
            else:
                # the numpy engine: the core's search (Solver.min_moves) takes minutes on 6 rows
                from pegboard.solve.fastsolve import min_moves

                found = min_moves(board, e, args.finish, bar if len(empties) == 1 else None) \
                    if solver.possible(start) else None
                got = (e, None, None, None) if found is None else (e, found[1], found[0], None)
            if bar:
                bar.clear()
            yield got
    finally:
        if bar:
            bar.close()


def solution(board: Board, start: int, fmask: int, dead: BitSet | set[int],
             searched: Callable[[int], None] | None = None, slice_nodes: int = 1 << 16) -> list[int] | None:
    """Solver.solution's search (the core's SolutionSearch, `dead` its memo of lost positions kept
    across starts), run a slice at a time: after each, `searched(positions so far)`. One start
    on 8 rows can take half a minute."""
    if start in dead:
        return None
    search = SolutionSearch(board, start, dead=dead, fmask=fmask)
    while not search.advance(slice_nodes):
        if searched:
            searched(search.nodes)
    if search.jumps is None:
        dead.add(start)
    return search.jumps


def _solve(board: Board, empties: list[int], args: argparse.Namespace) -> int:
    status = 0
    for e, jumps, moves_count, stats in _solutions(board, empties, args):
        start = start_mask(board, e)
        if jumps is None:
            why = reason_json(board, start, args.finish)  # the reason it is lost, where one is known
            message = "no solution from hole %d%s" % (e, _where(args.finish))
            if why:
                message += ": " + why["text"]
            if args.json:
                print(json.dumps({"ok": False, "error": "no_solution", "message": message, "rows": board.rows,
                                  "empty": e, "finish": args.finish, **({"reason": why} if why else {}),
                                  **_method_fields(args, stats)}), flush=True)
            elif stats:
                _print_stats(args, e, stats)
            print(message, file=sys.stderr, flush=True)
            status = 1  # the solver said no
            continue
        moves = [board.move_of(j) for j in jumps]
        if args.json:
            obj: dict[str, object] = {"rows": board.rows, "empty": e, "finish": args.finish, "moves": moves}
            if moves_count is not None:
                obj["min_moves"] = moves_count
                obj["groups"] = group_moves(moves)
            obj.update(_method_fields(args, stats))
            print(json.dumps(obj), flush=True)
        else:
            _print_solution(board, start, jumps, e, moves_count)
            if stats:
                _print_stats(args, e, stats)
        if args.svg:
            from pegboard.pictures.svg import solution_svg

            try:
                with open(args.svg, "w", encoding="utf-8") as f:
                    f.write(solution_svg(board, start, jumps, colours=args.colours))
            except OSError as e:
                raise UsageError("cannot write %s: %s" % (args.svg, e.strerror)) from None
            if not args.json:
                print("wrote %s: the solution step by step (%d moves)" % (args.svg, len(jumps)))
        if args.gif:
            from pegboard.pictures.svg import solution_gif

            try:
                solution_gif(board, start, jumps, args.gif, colours=args.colours)
            except OSError as e:
                raise UsageError("cannot write %s: %s" % (args.gif, e)) from None
            if not args.json:
                print("wrote %s: the solution animated (%d moves)" % (args.gif, len(jumps)))
    return status


def _method_fields(args: argparse.Namespace, stats: Stats | None) -> dict[str, object]:
    """The JSON fields --method/--stats add: the method, and the stats when asked for."""
    if not (args.method or args.stats):
        return {}
    out: dict[str, object] = {"method": args.method or CORE}
    if args.stats and stats is not None:
        out["stats"] = stats.as_json()
    return out


def _print_stats(args: argparse.Namespace, empty: int, stats: Stats) -> None:
    if args.stats:
        print("stats (%s search from hole %d): %s" % (args.method or CORE, empty, stats.text()), flush=True)


def group_moves(moves: list[list[int]]) -> list[list[list[int]]]:
    """The jumps grouped into moves: a run of jumps by the same peg (each starting where the last
    landed) is one move."""
    groups: list[list[list[int]]] = []
    for mv in moves:
        if groups and groups[-1][-1][2] == mv[0]:
            groups[-1].append(mv)
        else:
            groups.append([mv])
    return groups


def _print_solution(board: Board, start: int, jumps: list[int], empty: int, moves_count: int | None) -> None:
    head = "Solution from hole %d (%d jumps" % (empty, len(jumps))
    head += ", %d moves)" % moves_count if moves_count is not None else ")"
    print(head)
    moves = [board.move_of(j) for j in jumps]
    if moves_count is not None:
        # which jumps make each move: a peg jumping again at once is still one move
        for n, group in enumerate(group_moves(moves), 1):
            print("  move %d: %s" % (n, "; ".join(move_text(mv) for mv in group)))
    print(render_board(board, start))
    m = start
    for k, j in enumerate(jumps, 1):
        m ^= board.flip[j]
        print()
        print("%2d. %s" % (k, move_text(board.move_of(j))))
        print(render_board(board, m))
    sys.stdout.flush()
