"""`pegboard puzzle`, the terminal UI's z and the page's z (issue "coach", item 4) on the simulated
board: each sets up a graded puzzle, says which in words as the board's reply and event give it,
and the board waits for its position; `--today` asks for the puzzle of this computer's date."""

import argparse
import asyncio
import datetime
import json

import pytest

from test_tui import _log, _until
from websupport import browser, board, open_page, wait_page, web  # noqa: F401 - fixtures

from pegboard.commands.puzzle import request_args
from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from pegboard.tui.app import BoardApp
from pegcore.puzzlefile import PuzzleTable, path_for
from pegcore.rules import holes_of
from pegfw.puzzles import of_day

TABLE = PuzzleTable(path_for(5), 15)


def test_pegboard_puzzle_sets_up_the_next_one_a_grade_a_number_and_says_it(cli):
    with Simulator() as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        code, out, _ = cli("puzzle", "--json", "--port", sim.data_path)
        r = json.loads(out)
        assert code == 0 and r["n"] == 1 and r["grade"] == 1 and not r["solved"]
        mask, finish = TABLE.puzzle(0)
        assert r["pegs"] == holes_of(mask) and r["finish"] == (finish or None)
        code, out, _ = cli("state", "--json", "--port", sim.data_path)
        assert json.loads(out)["target"] == r["pegs"]  # the board waits for the puzzle's position
        code, out, _ = cli("puzzle", "--grade", "3", "--port", sim.data_path)
        assert code == 0 and out.startswith("puzzle %d of %d, grade 3 (tricky): " % (TABLE.first(3) + 1, TABLE.count))
        assert "Set the pegs as lit" in out
        code, out, _ = cli("puzzle", "--number", "7", "--json", "--port", sim.data_path)
        assert code == 0 and json.loads(out)["n"] == 7
        for bad, word in ((["--grade", "0"], "grades are 1"), (["--number", "0"], "numbered from 1")):
            code, _, err = cli("puzzle", *bad, "--port", sim.data_path)
            assert code == 2 and word in err, (bad, err)
        with pytest.raises(SystemExit) as stop:  # argparse's own refusal: one way of choosing at a time
            cli("puzzle", "--today", "--grade", "2", "--port", sim.data_path)
        assert stop.value.code == 2
        code, out, _ = cli("puzzle", "--number", "999", "--json", "--port", sim.data_path)
        assert code == 2 and json.loads(out)["error"] == "bad_args"


def test_today_is_the_days_since_1970_and_the_board_picks_that_days_puzzle():
    args = argparse.Namespace(grade=None, number=None, today=True)
    day = request_args(args, datetime.date(2026, 11, 28))["day"]
    assert day == 20785  # 2026-11-28
    assert 1 + of_day(TABLE, day) in range(1, TABLE.count + 1)
    assert request_args(argparse.Namespace(grade=None, number=None, today=False)) == {}


def test_the_tuis_z_sets_up_a_puzzle_and_the_log_names_it():
    with Simulator() as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")

        async def scenario():
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=(100, 40)) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the game")
                await pilot.press("z")
                await _until(pilot, lambda: "puzzle 1 of %d, grade 1 (easy)" % TABLE.count in _log(app), "the puzzle")
                await _until(pilot, lambda: app.state.get("target") == holes_of(TABLE.puzzle(0)[0]), "its position")
                await pilot.press("q")

        asyncio.run(scenario())


def test_the_pages_z_sets_up_a_puzzle(browser, board, web):  # noqa: F811
    board.control("fill", empty=1)
    board.control("wait_idle")
    page = open_page(browser, web.page)
    wait_page(page, "pegboardPage.st.mode === 'play'", what="the game")
    page.keyboard.press("z")
    wait_page(page, "document.getElementById('log').textContent.includes('puzzle 1 of')", what="the puzzle")
    wait_page(page, "pegboardPage.st.mode === 'setup' && !!pegboardPage.st.target", what="its position to set")
    assert page.evaluate("pegboardPage.st.target") == holes_of(TABLE.puzzle(0)[0])
    assert not page.errors
