"""Small board commands: `ports`, `state`, `hint`, `stop`, `selftest`."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pegboard.commands.boardargs import add_port, connect, describe_state, stopped_on_interrupt
from pegboard.commands.cli import Subcommands
from pegboard.pictures.text import move_text
from pegboard.solve.lost_words import board_words
from pegboard.tui.words import pegs


def register(sub: Subcommands) -> None:
    p = sub.add_parser("ports", help="list the boards found: CircuitPython serial ports and running simulators, "
                                       "and which programs use each",
                       epilog="exit status: 0 done, 2 bad usage")  # it starts nothing: no Ctrl-C to tell of
    p.set_defaults(func=ports)
    p = sub.add_parser("state", help="show the board's pegs, mode and moves")
    add_port(p)
    p.set_defaults(func=state)
    p = sub.add_parser("hint", help="ask the board for the best move (it lights it too); in a lost game, why "
                                    "it is lost where a short proof exists")
    add_port(p)
    p.set_defaults(func=hint)
    p = sub.add_parser("stop", help="stop a demonstration, guide or show on the board")
    add_port(p)
    p.set_defaults(func=stop)
    p = sub.add_parser("selftest", help="LED chase and a live sensor readout (bring-up); names the holes whose "
                                          "sensor never answered, or that answered for another hole")
    add_port(p)
    p.add_argument("--seconds", type=int, default=None,
                   help="how long it runs, 1..300 (default 10; 60 with --hole, 120 with --in-order)")
    p.add_argument("--hole", type=int, metavar="N",
                   help="bring-up of one pixel-and-sensor module: hole N's pixel alone shows red, green, blue in "
                        "turn while its sensor is reported live (a module on the breadboard jig is hole 1)")
    p.add_argument("--in-order", action="store_true",
                   help="take every peg out, then place one in hole 1, 2, 3 ... in order: names holes reported "
                        "swapped or as another hole, and holes that never answered")
    p.add_argument("--report", action="store_true",
                   help="instead, print the board's own measurements (free heap now and lowest, longest "
                        "loop pass, last hint's latency) beside the estimates published for it")
    p.set_defaults(func=selftest)


def ports(args: argparse.Namespace) -> int:
    from pegboard.link.hub_link import hub_for
    from pegboard.link.ports import candidates
    from pegboard.link.runtime_file import STALE_BEAT_S, running

    found = candidates()
    sims = running()
    if not found and not sims:
        print("no CircuitPython boards found, and no simulator running (try `pegboard sim`)")
        return 1

    def use(port: str) -> str:
        hub = hub_for(port)
        users = hub.get("users") if hub else None
        return "in use by: %s" % ", ".join(users) if users else "free"

    for c in found:
        if c.data_port:
            print("%-20s data   %s (by its %s); %s" % (c.device, c.description, c.why or "place", use(c.device)))
        else:
            print("%-20s        %s (the REPL console: pegboard does not use it)" % (c.device, c.description))
    for s in sims:
        quiet = "; NOT ANSWERING for %.0f s" % s["beat_age"] if s["beat_age"] > STALE_BEAT_S else ""
        print("%-20s data   pegboard sim (pid %d, control port %s)%s; %s"
              % (s["data"], s["pid"], s.get("control"), quiet, use(s["data"])))
    return 0


def state(args: argparse.Namespace) -> int:
    with connect(args) as b:
        st = b.request("state")
    print(json.dumps(st) if args.json else describe_state(st))
    return 0


def hint(args: argparse.Namespace) -> int:
    with connect(args) as b:
        h = b.request("hint")
        finish = _lost_target(h)
        # lost: the reason is worked out here, from the position the board holds
        st = b.request("state") if not args.json and finish is not False else None
    if args.json:
        print(json.dumps(h))
    elif h.get("challenge"):  # toward the game's challenge, not one peg left
        if h["move"] is not None:
            print("hint: %s (the challenge %s %s)" % (move_text(h["move"]), h["challenge"],
                                                     "is still within reach" if h.get("reachable") else
                                                     "is out of reach: this is the best move left"))
        else:
            print("the challenge %s can no longer be met" % h["challenge"] if h.get("reachable") is False
                  else "no jump left")
    elif h["move"] is None:
        print("no jump left: the board is empty" if not h["best_left"] else "no jump left: %s" % pegs(h["best_left"]))
    elif h["solvable"]:
        print("hint: %s (one peg left is still possible)" % move_text(h["move"]))
    else:
        print("lost: one peg is out of reach; best is %s left. Try %s" % (pegs(h["best_left"]), move_text(h["move"])))
    if st is not None and finish is not False:
        _why(st, finish)
    return 0


def _lost_target(h: dict[str, Any]) -> int | None | bool:
    """The target a hint reply says is lost, whose reason is worth giving: None (one peg
    anywhere), a finish hole (a finish:H challenge), or False (none: won, winnable, no jump left,
    or a challenge that is not about one peg)."""
    if h.get("challenge"):
        kind, _, hole = h["challenge"].partition(":")
        return int(hole) if kind == "finish" and hole.isdigit() and h.get("reachable") is False else False
    return None if h["move"] is not None and h["solvable"] is False else False


def _why(state: dict[str, Any], finish: int | None) -> None:
    """The reason the position in `state` cannot be won (one peg, in `finish` if given), if known."""
    why = board_words(state.get("position") or [], len(state.get("lights") or []), finish)
    if why:
        print("why: %s" % why)


# what `stop` stopped, in words (the board names it: docs/protocol.md, `stop`)
STOPPED = {"demo": "the demonstration stopped", "guide": "the guide stopped", "hint": "the hint stopped",
           "watch": "the solver's show stopped", "selftest": "the self-test stopped",
           "setup": "the setup stopped (the board no longer waits for those pegs)",
           "search": "the board's search stopped", "over": "the game-over show stopped"}


def stop(args: argparse.Namespace) -> int:
    with connect(args) as b:
        r = b.request("stop")
    what = r.get("stopped")
    print(json.dumps(r) if args.json else STOPPED.get(what, "the %s stopped" % what) if what else
          "nothing was running")
    return 0


def report(st: dict) -> str:
    """The board's own figures, to hold against the RP2040 estimates in the README."""
    def val(k: str, unit: str) -> str:
        v = st.get(k)
        return "n/a (this runtime has no heap of its own)" if v is None else "%s %s" % (format(v, ","), unit)

    hint = "no hint yet" if st.get("last_hint_ms") is None else val("last_hint_ms", "ms")
    bounce = st.get("button_debounce_ms")
    if bounce and st.get("last_hint_ms") is not None:
        hint += " from the button's debounced release (the debounce adds %s-%s ms before it)" % tuple(bounce)
    return "\n".join([
        "the board's own figures since start-up (%s loop passes, %s loop errors):"
        % (format(st.get("loops", 0), ","), st.get("errors", 0)),
        "  free heap now      %s" % val("free_heap", "bytes"),
        "  free heap lowest   %s" % val("free_heap_lowest", "bytes"),
        "  longest loop pass  %s" % val("longest_pass_ms", "ms"),
        "  last hint latency  %s" % hint,
        "compare them with the RP2040 estimates in the README (\"Measured figures\")"])


def selftest(args: argparse.Namespace) -> int:
    from pegboard.commands.cli import UsageError
    from pegboard.hardware.bringup import SensorLog

    if args.report:
        with connect(args) as b:
            st = b.request("stats")
        print(json.dumps(st) if args.json else report(st))
        return 0
    if args.hole is not None and args.in_order:
        raise UsageError("--hole and --in-order are two different tests: give one")
    secs = args.seconds if args.seconds is not None else 120 if args.in_order else 60 if args.hole else 10
    if not 1 <= secs <= 300:
        raise UsageError("--seconds must be 1..300")
    if args.hole is not None and args.hole < 1:
        raise UsageError("--hole must be a hole number, 1 or more")
    with connect(args) as b:
        with stopped_on_interrupt(b, "self-test"):  # from its request on: a Ctrl-C at any moment stops it
            r = b.request("selftest", seconds=secs, **({} if args.hole is None else {"hole": args.hole}))
            log = SensorLog(r["pixels"], r["pegs"])
            print("pegs now: %s" % (", ".join(map(str, r["pegs"])) or "none"), flush=True)
            if args.hole is not None:
                print("hole %d's pixel alone shows red, green, blue in turn, a second each: another order, another "
                      "pixel or none: hardware/README.md, \"Troubleshooting\"" % args.hole)
                print("hold a peg (its magnet) over hole %d's sensor and take it away: each change is shown for %d s "
                      "(Ctrl-C stops)" % (args.hole, secs), flush=True)
            else:
                print("LED chase on %d pixels: a white dot runs along holes 1..%d, then every pixel shows red, green, "
                      "blue. A dark chain, a dot that stops part way or other colours: hardware/README.md, "
                      "\"Troubleshooting\"" % (r["pixels"], r["pixels"]))
                if args.in_order:
                    print("take every peg out, then place one in hole 1, 2, 3 ... %d, in that order, one at a time "
                          "(%d s, Ctrl-C stops)" % (r["pixels"], secs), flush=True)
                else:
                    print("lift and place the peg of every hole: each sensor change is shown for %d s, then the holes "
                          "that never changed are named (Ctrl-C stops)" % secs, flush=True)
            end = time.monotonic() + secs
            empty_said = False
            lights = True  # the self-test's show still runs on the board
            while time.monotonic() < end:
                for e in b.poll(0.2):
                    ev = e.get("event")
                    if ev in ("lift", "place"):  # every sensor change, whatever runs on the board
                        said = log.change(e["hole"], ev == "place")
                    elif ev == "sensors":  # the self-test's own snapshots (while its show runs)
                        said = log.take(e["pegs"])
                    elif ev == "new_game":  # its pegs are a snapshot too; it ends the light show
                        said = log.take(e["start"])
                    else:
                        said = []
                        if ev == "selftest_done":
                            lights = False
                        if ev == "selftest_done" and e.get("stopped"):
                            print("  (the board ended the self-test's lights: a new game or a stop; the readout "
                                  "goes on)", flush=True)
                    for line in said:
                        print("  " + line, flush=True)
                if args.in_order and log.empty_seen and not empty_said:
                    empty_said = True
                    print("  the board reads empty: now place the pegs in order, from hole 1", flush=True)
                if args.in_order and len(log.placed) == log.holes:
                    break
            if lights and args.in_order and len(log.placed) == log.holes:
                b.request("stop")  # every hole answered: no need to wait out the time
    if args.hole is not None:
        problems, lines = log.hole_report(args.hole)
    elif args.in_order:
        problems, lines = log.order_report()
    else:
        problems, lines = log.free_report()
    for line in lines:
        print(line)
    return 1 if problems else 0
