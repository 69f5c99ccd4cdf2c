"""The board unplugged while the page shows it: the page says so, the moves made meanwhile are caught
up when it is back (the protocol module's resync), whether the hub kept waiting for it (a short
unplug) or gave up and `pegboard web` found it again through a new hub (a long one)."""

from __future__ import annotations

import time

from websupport import browser, board, open_page, wait_page, web  # noqa: F401 - fixtures
from support import jump

from test_web_page import solution


def _unplugged_and_back(page, sim, moves, made, away_s):
    sim.control("unplug")
    wait_page(page, "document.body.classList.contains('offline')", what="the page saying the board is gone")
    assert "gone" in page.inner_text("#conn")
    for mv in moves:  # the game goes on on the board meanwhile: the firmware follows the pegs
        jump(sim, mv)
    time.sleep(away_s)
    sim.control("replug")
    n = made + len(moves)
    wait_page(page, "(pegboardPage.st.moves || []).length === %d" % n, timeout=20, what="the page catching up")
    wait_page(page, "!document.body.classList.contains('offline')", what="the page saying the board is back")
    resync = page.evaluate("pegboardPage.events.filter(e => e.event === 'resync').pop()")
    assert resync["reason"] == "reconnect" and resync["missed"] == moves, resync
    assert "caught up: %d moves made meanwhile" % len(moves) in page.inner_text("#log")


def test_the_page_says_the_board_is_gone_and_catches_up_when_it_is_back(browser, board, web):  # noqa: F811
    moves = solution()
    page = open_page(browser, web.page)
    wait_page(page, "pegboardPage.st.mode === 'play'", what="the game")
    jump(board, moves[0])
    wait_page(page, "(pegboardPage.st.moves || []).length === 1", what="the first move")
    # a short unplug: the hub waits for the board and says when it is back
    _unplugged_and_back(page, board, moves[1:3], 1, 0.2)
    # a long one: the hub gives up after 5 s and ends; pegboard web finds the board again
    _unplugged_and_back(page, board, moves[3:5], 3, 6.5)
    # and the page plays on
    page.click("#hole-%d" % moves[5][0])
    page.click("#hole-%d" % moves[5][2])
    page.click("#hole-%d" % moves[5][1])
    wait_page(page, "(pegboardPage.st.moves || []).length === 6", what="a move by clicks after the replug")
    assert not page.errors
