"""Commands that run something on the board and follow it: `demo`, `guide`, `watch`."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pegboard.commands.boardargs import add_port, connect, stopped_on_interrupt
from pegboard.commands.cli import Subcommands, UsageError
from pegboard.pictures.text import move_text
from pegboard.commands.position import check_board_size, set_up
from pegboard.solve.solution_file import SolutionError, load_solution
from pegboard.tui.words import event_text


def register(sub: Subcommands) -> None:
    p = sub.add_parser("demo", help="let the board demonstrate a solution on its LEDs",
                       description="Plays a solution on the board's LEDs: from FILE (from the file's start), "
                                   "or the board's own best line from where the pegs stand.")
    add_port(p)
    p.add_argument("file", nargs="?", help="solution file {\"rows\":5,\"empty\":4,\"moves\":[[4,2,1],...]} "
                                           "(or \"start\": [holes] for a hand-set start)")
    p.add_argument("--from-solver", action="store_true", help="the board's own solution (the default without FILE)")
    p.set_defaults(func=demo)
    p = sub.add_parser("guide", help="guide a player through a solution file, move by move",
                       description="Uploads FILE; the board lights each move in turn and waits for the player "
                                   "to make it with real pegs. A different move is lit to be put back; play on "
                                   "instead and the guide follows with a new line from there; an undo steps it "
                                   "back. It ends when the line is played out, the game ends, or Ctrl-C. If the pegs "
                                   "are not the file's start, the board first shows how to set it up (as "
                                   "`pegboard setup FILE`).")
    add_port(p)
    p.add_argument("file", help="solution file")
    p.set_defaults(func=guide)
    p = sub.add_parser("watch", help="watch the solver search on the board's LEDs")
    add_port(p)
    p.add_argument("--speed", type=int, default=150, help="ms per step, 1..10000 (default 150)")
    p.add_argument("--step", action="store_true", help="single-step: each button press (or Enter) is one step")
    p.set_defaults(func=watch)


def _print(args: argparse.Namespace, e: dict[str, Any], text: str) -> None:
    print(json.dumps(e) if args.json else text, flush=True)


def demo(args: argparse.Namespace) -> int:
    req: dict[str, Any] = {}
    if args.file:
        if args.from_solver:
            raise UsageError("give a FILE or --from-solver, not both")
        try:
            sol = load_solution(args.file)
        except SolutionError as e:
            raise UsageError(str(e)) from None
        req = {"start": sol["start"], "moves": sol["moves"]}
    with connect(args) as b:
        if args.file:
            check_board_size(b, sol, args.file)
        with stopped_on_interrupt(b, "demo"):  # from its request on: a Ctrl-C at any moment stops it
            r = b.request("demo", **req)
            n = len(r["moves"])
            if not args.json:
                print("the board is demonstrating %d moves (Ctrl-C or its button stops it)" % n, flush=True)
            for ev in b.events(timeout=None):
                if ev.get("event") == "demo_step":
                    _print(args, ev, "%2d/%d  %s" % (ev["step"], n, move_text(ev["move"])))
                elif ev.get("event") == "demo_done":
                    _print(args, ev, "stopped" if ev.get("stopped") else "done")
                    return 0
    return 0


def guide(args: argparse.Namespace) -> int:
    try:
        sol = load_solution(args.file)
    except SolutionError as e:
        raise UsageError(str(e)) from None
    with connect(args) as b:
        check_board_size(b, sol, args.file)
        st = b.request("state")
        if st.get("start") != sol["start"] or st["moves"] or st["mode"] not in ("play", "guide"):
            set_up(b, sol["start"], args.json)  # the board lights what to fill and take out; a game starts
        b.request("guide", moves=sol["moves"])
        print("make the lit move: blue peg over pink into green (%d moves)" % len(sol["moves"]), flush=True)
        with stopped_on_interrupt(b, "guide"):
            for ev in b.events(timeout=None):
                if ev.get("event") == "guide_step":
                    _print(args, ev, "%2d. %s  ✓" % (ev["step"], move_text(ev["move"])))
                elif ev.get("event") in ("guide_astray", "guide_back", "guide_line"):
                    _print(args, ev, event_text(ev) or "")
                elif ev.get("event") == "guide_off":
                    reason = str(ev["reason"])
                    _print(args, ev, {"done": "solution complete", "game_over": "the game is over",
                                      "stopped": "stopped"}.get(reason, reason))
                    return 0 if reason == "done" else 1
    return 0


def watch(args: argparse.Namespace) -> int:
    if not 1 <= args.speed <= 10000:
        raise UsageError("--speed must be 1..10000 ms per step (--step for single steps)")
    with connect(args) as b:
        with stopped_on_interrupt(b, "solver show"):  # from its request on: a Ctrl-C at any moment stops it
            b.request("watch", **({"step": True} if args.step else {"speed": args.speed}))
            if args.step:
                print("single-step: press Enter for each step, Ctrl-C to stop", flush=True)
                try:
                    while True:
                        input()
                        print("step %d" % b.request("watch", step=True)["step"], flush=True)
                except EOFError:
                    b.request("stop")
            else:
                print("the board is showing the search; Ctrl-C stops it", flush=True)
                done = b.wait_for("watch_done", timeout=1e9)  # the search ends, or the button stops it
                print("the solver show ended%s" % (" (stopped)" if done.get("stopped") else ""), flush=True)
    return 0
