"""The board's events in plain words, for people: the mirror's log, `mirror --plain`, `monitor`.

Every value comes from the board, or from a program posing as one: a field of the wrong type (a
string where a number goes, a number where a list goes, None) is shown as what it is, never a
crash (value_text), and a move or a list of holes is drawn only when it is one."""

from __future__ import annotations

from typing import Any

from pegboard.pictures.text import move_text

VERDICTS = {"genius": "genius!", "purty smart": "purty smart", "just plain dumb": "just plain dumb",
            "eg-no-ra-moose": "eg-no-ra-moose"}

GUIDE_OFF = {"done": "solution complete", "different_move": "a different move was made",
             "undo": "a move was undone", "stopped": "stopped", "new_game": "a new game started",
             "setup": "the game ended", "game_over": "the game is over"}

SETUP_WHY = {"emptied": "the board was emptied: game abandoned, free play",
             "game_over": "the game is over: free play",
             "request": "the game ended: the board shows the position to set up",
             "review": "the board lights where the win was lost",
             "puzzle": "the board lights the puzzle's position to set up"}


def start_text(e: dict[str, Any]) -> str:
    """A new_game or resumed event's start: "hole 5 empty", or the pegs of a hand-set start."""
    if e.get("empty"):
        text = "hole %s empty" % value_text(e["empty"])
    elif e.get("start"):
        text = "from pegs in %s" % holes_text(e["start"])
    else:  # never "None" on screen: the board sent no start
        text = "from the pegs as they stand"
    if e.get("finish"):
        text += ", finish in hole %s" % value_text(e["finish"])
    return text


def count(n: Any, word: str) -> str:
    """"no moves", "1 move", "3 moves"."""
    if n == 0:
        return "no %ss" % word
    return "%s %s%s" % (value_text(n), word, "" if n == 1 else "s")


def pegs(n: Any) -> str:
    """"no pegs", "1 peg", "3 pegs"."""
    return count(n, "peg")


def holes_text(holes: Any, sep: str = ", ") -> str:
    """[2, 4, 5] -> "2, 4, 5"; anything but a list as what it is."""
    if not isinstance(holes, list):
        return "" if holes is None else value_text(holes)
    return sep.join(value_text(h) for h in holes)


def length(v: Any) -> Any:
    """How many a list holds; anything else as it is (for count: "7 moves", "x moves")."""
    return len(v) if isinstance(v, list) else value_text(v)


def board_holes(value: Any, holes: int) -> list[int]:
    """The hole numbers (1..holes) in a list the board sent; nothing else in it can be drawn."""
    return [h for h in value if type(h) is int and 1 <= h <= holes] if isinstance(value, list) else []


ANY_HOLE = 1 << 30  # the largest hole number where the board's size is not known


def is_move(move: Any, holes: int = ANY_HOLE) -> bool:
    """[from, over, to], each a hole number (1..holes)."""
    return isinstance(move, list) and len(move) == 3 and len(board_holes(move, holes)) == 3


def board_moves(value: Any, holes: int) -> list[list[int]]:
    """The moves in a list the board sent that can be drawn on `holes` holes."""
    return [m for m in value if is_move(m, holes)] if isinstance(value, list) else []


def board_move_text(move: Any) -> str:
    """A move the board sent, [from, over, to]: "4 → 1 over 2"; anything else as what it is."""
    return move_text(move) if is_move(move) else value_text(move)


def challenge_text(c: Any) -> str:
    """A challenge ("finish:13", "leave:3", "most:10", "most") in words."""
    if not c:
        return "no challenge"
    if not isinstance(c, str):
        return "challenge %s" % value_text(c)
    kind, _, n = c.partition(":")
    if kind == "finish":
        return "the last peg in hole %s" % n
    if kind == "leave":
        return "leave exactly %s" % pegs(int(n) if n.isdigit() else n)
    return "the reverse game: leave as many pegs as you can" + (" (%s)" % n if n else "")


def hint_text(h: dict[str, Any]) -> str:
    """A hint event or reply: the move and whether one peg can still be left (or the challenge met)."""
    if h.get("challenge"):
        if h.get("move") is None:
            return "hint: %s can no longer be met" % challenge_text(h["challenge"]) if h.get("reachable") is False \
                else "hint: no jump left"
        return "hint: %s (toward %s)" % (board_move_text(h.get("move")), challenge_text(h["challenge"]))
    if h.get("move") is None:
        left = h.get("best_left")
        return "hint: no jump left (%s)" % ("%s on the board" % pegs(left) if left else "the board is empty")
    if h.get("solvable"):
        return "hint: %s" % board_move_text(h.get("move"))
    return "hint: %s (one peg is out of reach: best is %s left)" % (board_move_text(h.get("move")),
                                                                   pegs(h.get("best_left")))


def game_over_text(pegs_left: Any, verdict: Any) -> str:
    left = "one peg left" if pegs_left == 1 else "%s left" % pegs(pegs_left)
    head = "You won" if pegs_left == 1 else "Game over"
    said = VERDICTS.get(verdict, value_text(verdict)) if isinstance(verdict, str) else value_text(verdict)
    return "%s: %s%s" % (head, left, " — %s" % said if verdict else "")


def clock_text(seconds: Any) -> str:
    """A game's time as a clock says it: 0:42, 12:05, 1:02:03 (not a number: as it is)."""
    if not isinstance(seconds, int):
        return value_text(seconds)
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return "%d:%02d:%02d" % (h, m, s) if h else "%d:%02d" % (m, s)


def time_text(e: dict[str, Any]) -> str:
    """A game over's time on the board's clock: " in 1:23" (nothing from firmware that keeps none)."""
    return " in %s" % clock_text(e["seconds"]) if isinstance(e.get("seconds"), int) else ""


def best_text(e: dict[str, Any]) -> str:
    """A `best` event: a new personal best for the game's start (and challenge), with the one it beat."""
    text = "a new personal best for this start: %s in %s" % (pegs(e.get("pegs")), clock_text(e.get("seconds") or 0))
    was = e.get("before")
    if isinstance(was, dict):
        text += " (before: %s in %s)" % (pegs(was.get("pegs")), clock_text(was.get("seconds") or 0))
    return text


GRADES = {1: "easy", 2: "fair", 3: "tricky", 4: "hard", 5: "hardest"}


def puzzle_text(r: dict[str, Any]) -> str:
    """A `puzzle` reply or event in words: which puzzle, its grade, its goal, what to set."""
    goal = "one peg left in hole %s" % value_text(r["finish"]) if r.get("finish") else "one peg left"
    level = r.get("grade")
    grade = "grade %s (%s)" % (value_text(level), GRADES.get(level, "?") if type(level) is int else "?")
    text = "puzzle %s of %s, %s: %s from pegs %s" % (value_text(r.get("n")), value_text(r.get("count")), grade, goal,
                                                        holes_text(r.get("pegs"), ","))
    if r.get("solved"):
        text += " (solved before)"
    text += "; %s of %s solved" % (value_text(r.get("solved_count", 0)), value_text(r.get("count")))
    if "done" in r:
        text += ". The pegs are set: play" if r["done"] else ". Set the pegs as lit: a game starts from them"
    return text


def review_text(r: dict[str, Any]) -> str:
    """A `review` reply in words: the move that lost the win, and one that would have kept it."""
    goal = "one peg in hole %s" % value_text(r["finish"]) if r.get("finish") else "one peg left"
    which = "game %s" % value_text(r["game"]) if r.get("game") else "the game"
    if r.get("verdict") == "lost_from_start":
        return "%s could not end with %s from its start: no move lost it" % (which, goal)
    if r.get("verdict") != "lost_at":
        return "%s never lost its win (%s was still possible after every move)" % (which, goal)
    return ("move %s of %s, %s, lost the win (%s); %s would have kept it. The board lights the position "
            "before it: set the pegs as lit to play on from there"
            % (value_text(r.get("move_number")), which, board_move_text(r.get("played")), goal,
               board_move_text(r.get("better"))))


def event_text(e: dict[str, Any], demo: list[list[int]] | None = None) -> str | None:
    """One event as a sentence, or None for events a person need not read (button presses).
    `demo`: the moves of the running demo, when known (its reply): a demo step then names the move
    the board lights now, not the one it has just finished."""
    name = e.get("event")
    if not isinstance(name, str):
        return fields_text(e)
    if name == "new_game":
        kind = "puzzle %s" % value_text(e["puzzle"]) if e.get("puzzle") else "retry" if e.get("retry") else "new game"
        return "%s: %s" % (kind, start_text(e))
    if name == "setup":
        return SETUP_WHY.get(str(e.get("reason")), "free play")
    if name == "setup_done":
        return "the position is set: a game starts from it"
    if name == "lift":
        return "peg lifted from %s" % e.get("hole")
    if name == "place":
        return "peg placed in %s" % e.get("hole")
    if name == "move":
        return "%s (%s left)" % (board_move_text(e.get("move")), pegs(e.get("pegs_left")))
    if name == "undo":
        return "undo: %s taken back" % board_move_text(e.get("move"))
    if name == "illegal":
        return "illegal placement at %s: put it back" % holes_text(e.get("holes"))
    if name == "recovered":
        return "the pegs make sense again"
    if name == "game_over":
        text = game_over_text(e.get("pegs_left", 0), e.get("verdict"))
        if e.get("challenge"):
            met = e.get("met")
            text += "; challenge (%s) %s" % (challenge_text(e["challenge"]),
                                             "met" if met else "not judged" if met is None else "missed")
        elif e.get("in_finish") is not None:
            text += " (in the finish hole)" if e["in_finish"] else " (not in the finish hole)"
        return text + time_text(e)
    if name == "puzzle":
        return puzzle_text(e)
    if name == "puzzle_solved":
        return "puzzle %s solved: the board keeps it" % e.get("n")
    if name == "best":
        return best_text(e)
    if name == "challenge":
        if not e.get("challenge"):
            return "challenge taken off: the game is scored as usual"
        can = {True: "", False: " (it can no longer be met from here)", None: ""}.get(e.get("reachable"), "")
        return "challenge: %s%s" % (challenge_text(e["challenge"]), can)
    if name == "hint":
        return hint_text(e)
    if name == "button":
        return None if e.get("pressed") else button_text(e.get("ms"))
    if name == "demo_step":
        return demo_step_text(e, demo)
    if name in DONE:
        return "%s %s" % (DONE[name], "stopped" if e.get("stopped") else "done")
    if name == "guide_step":
        left = e.get("remaining")
        return "guide %s: %s done, %s" % (value_text(e.get("step")), board_move_text(e.get("move")),
                                          "that was the last" if left == 0 else "%s to go" % left)
    if name == "guide_astray":
        return ("%s is not the guide's move: put it back as lit (fill the green holes, take out the orange "
                "peg), or play on and the guide follows" % board_move_text(e.get("move")))
    if name == "guide_back":
        step = e.get("step") or 0
        return "guide back at move %s%s" % (step + 1 if type(step) is int else value_text(step),
                                            ": " + board_move_text(e.get("move")) if e.get("move") else "")
    if name == "guide_line":
        moves = e.get("moves") or []
        if e.get("solvable") is None:
            return "the guide found no line from here: %s" % value_text(e.get("message") or "it gave up")
        return "the guide follows a new line from here: %s%s" % (
            count(length(moves), "move"),
            "" if e.get("solvable") else " (one peg is out of reach: it leaves the fewest)")
    if name == "guide_off":
        return "guide off: %s" % GUIDE_OFF.get(str(e.get("reason")), value_text(e.get("reason")))
    if name == "overflow":
        return "too many sensor changes at once: the board re-read every hole"
    if name == "resumed":
        return "game resumed after power loss: %s at the start, %s" % (
            start_text(e), count(length(e.get("moves", [])), "move"))
    if name == "sensors":
        return "sensors: pegs in %s" % (holes_text(e.get("pegs")) or "no hole")
    if name == "quiet":
        return "the board is being updated: hints are off for %s s" % e.get("seconds")
    if name == "quiet_done":
        return "the update is over: hints are on again" if e.get("hint_table") else \
            "the update is over, but the hint table did not open"
    if name == "error":
        return "the board hit an error and carries on: %s" % value_text(e.get("message"))
    if name == "tune":
        return TUNES.get(str(e.get("name")))
    if name == "refused":
        return "the button's request was refused: %s" % value_text(e.get("message"))
    if name == "reconnected":
        return "reconnected on %s" % (e.get("port") or "its port")
    if name == "rebooted":
        return "the board restarted"
    if name == "resync":
        return None
    return fields_text(e)


def button_text(ms: Any) -> str:
    """The board's button released after `ms`: what the board does for that long a press."""
    held = ms if isinstance(ms, int) else 0
    if held >= 3000:
        return "the board's button held %.1f s: play from here" % (held / 1000)
    if held >= 800:
        return "the board's button held %.1f s: the board demonstrates" % (held / 1000)
    return "hint button pressed (%s ms)" % ms


# shows whose end is an event of its own: `<kind>_done`, `stopped` true when stop (or the button) ended it
# a tune the board's piezo played (a click needs no words: its move is told)
TUNES = {"buzz": "♪ the board buzzes", "win": "♪ the board plays its win tune",
         "lost": "♪ the board plays its lost-game tune", "best": "♪ the board chirps: a new personal best"}
DONE = {"demo_done": "demo", "watch_done": "the solver's search", "selftest_done": "self-test"}


def demo_step_text(e: dict[str, Any], demo: list[list[int]] | None) -> str:
    """The board sends demo_step when a move is over and the next one lights up: with the demo's
    moves, name the one lit now; without them, say which one was made."""
    step = e.get("step")
    if demo is not None and isinstance(step, int) and step >= 0:
        if step < len(demo):
            return demo_move_text(step + 1, demo[step], len(demo))
        return "demo: all %s made" % count(len(demo), "move")
    return "demo: move %s made: %s" % (value_text(step), board_move_text(e.get("move")))


def demo_move_text(n: int, move: Any, total: int | None = None) -> str:
    """The demo's move lit now: "demo move 2 of 13: 6 → 4 over 5"."""
    return "demo move %d%s: %s" % (n, " of %d" % total if total else "", board_move_text(move))


def fields_text(e: dict[str, Any]) -> str:
    """An event this version has no sentence for, in words all the same (no Python reprs)."""
    parts = ["%s %s" % (k.replace("_", " "), value_text(v)) for k, v in e.items() if k not in ("event", "seq")]
    return "%s%s" % (value_text(e.get("event", "?")).replace("_", " "), ": " + ", ".join(parts) if parts else "")


def value_text(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return " ".join(value_text(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join("%s %s" % (k, value_text(x)) for k, x in v.items()) or "none"
    return str(v)


STOPPED = {"hint": "hint stopped", "over": "the game-over lights stopped", "search": "search stopped",
           "setup": "setting up stopped: free play"}


def stop_text(reply: dict[str, Any]) -> str | None:
    """A stop request's answer; None when the thing stopped says so by its own event (demo_done,
    watch_done, selftest_done, guide_off)."""
    was = reply.get("stopped")
    if not was:
        return "nothing to stop"
    if was in ("demo", "watch", "selftest", "guide"):
        return None
    return STOPPED.get(str(was), "%s stopped" % value_text(was))


def batch_text(events: list[dict[str, Any]], demo: list[list[int]] | None = None) -> list[str]:
    """Events that arrived together, in words; a run of pegs placed (or lifted) is one line, as
    filling the board for a new game would otherwise take a screenful. `demo`: as for event_text."""
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
        text = event_text(e, demo)
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
              "demo": "a show running", "guide": "guiding"}
SHOW_WORDS = {"demo": "demo running", "watch": "the solver's search running", "selftest": "self-test running"}


def moves_line(moves: Any) -> str:
    """The status line's moves so far, the last six: "moves (8): … 4-1 6-4 11-4 1-6 12-5 14-12"."""
    if not isinstance(moves, list):
        return "moves: %s" % value_text(moves)
    shown = " ".join("%d-%d" % (m[0], m[2]) if is_move(m) else value_text(m) for m in moves[-6:])
    return "moves (%d): %s%s" % (len(moves), "… " if len(moves) > 6 else "", shown)


def mode_text(st: dict[str, Any], n: int) -> str:
    """The mode the board is in, and why, for the status line."""
    mode = st.get("mode")
    if st.get("target"):
        return ("setting up a position (%s): fill the holes lit green (◎), take out the pegs lit "
                "orange (⊗)" % pegs(length(st["target"])))
    if mode == "starting":
        return "the board is starting: it has not read its pegs yet"
    if mode == "setup":
        return ("free play: %s set by hand (hints are about them); play from here: g (live view), "
                "`pegboard play`, or the board's button held 3 s" % pegs(n))
    words = MODE_WORDS.get(str(mode), str(mode or "waiting for the board"))
    if mode == "demo":  # which show: the state says (its `show`)
        show = st.get("show")
        words = SHOW_WORDS.get(str(show.get("kind") if isinstance(show, dict) else show), words)
    parts = [pegs(n)]
    if st.get("empty_start"):
        parts.append("from hole %s" % value_text(st["empty_start"]))
    elif st.get("start"):
        parts.append("from a hand-set start of %s" % pegs(length(st["start"])))
    if st.get("finish"):
        parts.append("finish in hole %s" % value_text(st["finish"]))
    return "%s: %s" % (words, ", ".join(parts))
