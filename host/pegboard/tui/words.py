"""The board's events in plain words, for people: the mirror's log, `mirror --plain`, `monitor`."""

from __future__ import annotations

from typing import Any

from pegboard.pictures.text import move_text

VERDICTS = {"genius": "genius!", "purty smart": "purty smart", "just plain dumb": "just plain dumb",
            "eg-no-ra-moose": "eg-no-ra-moose"}

GUIDE_OFF = {"done": "solution complete", "different_move": "a different move was made",
             "undo": "a move was undone", "stopped": "stopped", "new_game": "a new game started",
             "setup": "the game ended"}

SETUP_WHY = {"emptied": "the board was emptied: game abandoned, free play",
             "game_over": "the game is over: free play",
             "request": "the game ended: the board shows the position to set up"}


def start_text(e: dict[str, Any]) -> str:
    """A new_game or resumed event's start: "hole 5 empty", or the pegs of a hand-set start."""
    if e.get("empty"):
        text = "hole %s empty" % e["empty"]
    else:
        text = "from pegs in %s" % ", ".join(str(h) for h in e.get("start") or [])
    if e.get("finish"):
        text += ", finish in hole %s" % e["finish"]
    return text


def pegs(n: Any) -> str:
    """"1 peg", "3 pegs"."""
    return "%s peg%s" % (n, "" if n == 1 else "s")


def hint_text(h: dict[str, Any]) -> str:
    """A hint event or reply: the move and whether one peg can still be left."""
    if h.get("move") is None:
        return "hint: no jump left (%s)" % (pegs(h.get("best_left")) if h.get("best_left") else "the board is empty")
    if h.get("solvable"):
        return "hint: %s" % move_text(h["move"])
    return "hint: %s (one peg is out of reach: best is %s left)" % (move_text(h["move"]), pegs(h.get("best_left")))


def game_over_text(pegs_left: int, verdict: str | None) -> str:
    left = "one peg left" if pegs_left == 1 else "%s left" % pegs(pegs_left)
    head = "You won" if pegs_left == 1 else "Game over"
    return "%s: %s%s" % (head, left, " — %s" % VERDICTS.get(verdict, verdict) if verdict else "")


def event_text(e: dict[str, Any]) -> str | None:
    """One event as a sentence, or None for events a person need not read (button presses)."""
    name = e.get("event")
    if name == "new_game":
        return "new game: %s" % start_text(e)
    if name == "setup":
        return SETUP_WHY.get(str(e.get("reason")), "free play: %s" % e.get("reason"))
    if name == "setup_done":
        return "the position is set: a game starts from it"
    if name == "lift":
        return "peg lifted from %s" % e.get("hole")
    if name == "place":
        return "peg placed in %s" % e.get("hole")
    if name == "move":
        return "%s (%s left)" % (move_text(e["move"]), pegs(e.get("pegs_left")))
    if name == "undo":
        return "undo: %s taken back" % move_text(e["move"])
    if name == "illegal":
        return "illegal placement at %s: put it back" % ", ".join(str(h) for h in e.get("holes", []))
    if name == "recovered":
        return "the pegs make sense again"
    if name == "game_over":
        text = game_over_text(e.get("pegs_left", 0), e.get("verdict"))
        if e.get("in_finish") is not None:
            text += " (in the finish hole)" if e["in_finish"] else " (not in the finish hole)"
        return text
    if name == "hint":
        return hint_text(e)
    if name == "button":
        return None if e.get("pressed") else "hint button pressed (%s ms)" % e.get("ms")
    if name == "demo_step":
        return "demo %s: %s" % (e.get("step"), move_text(e["move"]))
    if name == "demo_done":
        return "demo stopped" if e.get("stopped") else "demo done"
    if name == "guide_step":
        return "guide %s: %s done, %s to go" % (e.get("step"), move_text(e["move"]), e.get("remaining"))
    if name == "guide_off":
        return "guide off: %s" % GUIDE_OFF.get(str(e.get("reason")), e.get("reason"))
    if name == "overflow":
        return "too many sensor changes at once: the board re-read every hole"
    if name == "resumed":
        return "game resumed after power loss: %s at the start, %d moves" % (
            start_text(e), len(e.get("moves", [])))
    if name == "sensors":
        return "sensors: pegs in %s" % (", ".join(str(h) for h in e.get("pegs", [])) or "no hole")
    if name == "error":
        return "the board hit an error and carries on: %s" % e.get("message")
    if name == "reconnected":
        return "reconnected on %s" % e.get("port")
    if name == "rebooted":
        return "the board restarted"
    if name == "resync":
        return None
    return "%s %s" % (name, {k: v for k, v in e.items() if k not in ("event", "seq")})


def batch_text(events: list[dict[str, Any]]) -> list[str]:
    """Events that arrived together, in words; a run of pegs placed (or lifted) is one line, as
    filling the board for a new game would otherwise take a screenful."""
    out: list[str] = []
    run: tuple[str, list[str]] | None = None
    for e in events:
        name = e.get("event")
        if name in ("lift", "place"):
            if run and run[0] == name:
                run[1].append(str(e.get("hole")))
                continue
            if run:
                out.append(_run_text(*run))
            run = (name, [str(e.get("hole"))])
            continue
        if run:
            out.append(_run_text(*run))
            run = None
        text = event_text(e)
        if text:
            out.append(text)
    if run:
        out.append(_run_text(*run))
    return out


def _run_text(name: str, holes: list[str]) -> str:
    if len(holes) == 1:
        return event_text({"event": name, "hole": holes[0]}) or ""
    return "pegs %s %s" % ("lifted from" if name == "lift" else "placed in", ", ".join(holes))


MODE_WORDS = {"setup": "setting up", "play": "playing", "illegal": "illegal placement", "over": "game over",
              "demo": "showing", "guide": "guiding"}


def mode_text(st: dict[str, Any], count: int) -> str:
    """The mode the board is in, and why, for the status line."""
    mode = st.get("mode")
    if st.get("target"):
        return ("setting up a position (%s): put pegs in the green holes, take the orange ones out"
                % pegs(len(st["target"])))
    if mode == "setup":
        return ("free play: %s set by hand (hints are about them); play from here: g (live view), "
                "`pegboard play`, or the board's button held 3 s" % pegs(count))
    words = MODE_WORDS.get(str(mode), mode)
    if st.get("empty_start"):
        start = "from hole %s" % st["empty_start"]
    else:
        start = "from a hand-set start of %s" % pegs(len(st.get("start") or []))
    if st.get("finish"):
        start += ", finish in hole %s" % st["finish"]
    return "%s: %s, %s" % (words, pegs(count), start)
