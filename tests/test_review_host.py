"""`pegboard review`, the terminal UI's v and the page's v (issue "coach", item 1): after a lost
game on the simulated board each says, in words, which move lost the win and one that would have
kept it, as the board's own reply gives them; and the board then waits for the position before it."""

import asyncio
import json
import random

import pytest
from test_fw_review import lost_game
from test_tui import _log, _until

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from pegboard.tui.app import BoardApp
from pegcore.geometry import Board
from pegcore.rules import holes_of

B = Board(5)


def lose_a_game(sim, seed=4):
    """A game from hole 1 played to a lost end by hand; (jumps, k)."""
    start, jumps, k = lost_game(random.Random(seed), empty=1)
    sim.control("fill", empty=1)
    sim.control("wait_idle")
    for j in jumps:
        for cmd, hole in (("lift", B.jump_from[j]), ("place", B.jump_to[j]), ("lift", B.jump_over[j])):
            sim.control(cmd, hole=hole + 1)
        sim.control("wait_idle")
    return start, jumps, k


@pytest.fixture
def lost():
    with Simulator() as sim:
        yield (sim,) + lose_a_game(sim)


def test_review_says_the_move_that_lost_the_win_and_a_better_one(cli, lost):
    sim, start, jumps, k = lost
    code, out, _ = cli("review", "--json", "--port", sim.data_path)
    r = json.loads(out)
    assert code == 0 and r["verdict"] == "lost_at" and r["move_number"] == k
    code, out, _ = cli("review", "--port", sim.data_path)
    f, o, t = B.move_of(jumps[k - 1])
    assert code == 0 and out.startswith("move %d of the game, %d → %d over %d, lost the win (one peg left); "
                                        % (k, f, t, o)), out
    bf, bo, bt = r["better"]
    assert "%d → %d over %d would have kept it" % (bf, bt, bo) in out and "set the pegs as lit" in out
    code, out, _ = cli("state", "--json", "--port", sim.data_path)
    assert json.loads(out)["target"] == r["before"]  # the board waits for the position before it
    code, _, err = cli("review", "x", "--port", sim.data_path)
    assert code == 2 and "N is a game number" in err
    code, out, _ = cli("review", "9", "--json", "--port", sim.data_path)
    assert code == 2 and json.loads(out)["error"] == "bad_args"


def test_the_tuis_v_reviews_the_lost_game(lost):
    sim, start, jumps, k = lost

    async def scenario():
        app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
        async with app.run_test(size=(100, 40)) as pilot:
            await _until(pilot, lambda: app.state.get("mode") == "over", "the lost game")
            await pilot.press("v")
            await _until(pilot, lambda: "lost the win" in _log(app), "the review")
            assert "move %d of the game" % k in _log(app)
            await _until(pilot, lambda: (app.state.get("show") or {}).get("kind") == "review", "its lights")
            masks = [start]
            for j in jumps:
                masks.append(masks[-1] ^ B.flip[j])
            assert app.state["show"]["pegs"] == holes_of(masks[k - 1])
            # with no key pressed, the screen follows the lights: the move played, then the better one
            await _until(pilot, lambda: (app.state.get("show") or {}).get("lost") is False, "the better move shown")
            better = app.state["show"]["move"]
            await _until(pilot, lambda: "★" in str(app.query_one("#hole-%d" % better[0]).label), "its peg drawn ★")
            await pilot.press("q")

    asyncio.run(scenario())
