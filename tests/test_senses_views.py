"""Issue "senses", the views: the terminal UI and the page animate the very patterns the board's
lights follow (pegcore.rolemotion) when its roles are "motion", switch them with a key, and tell
(the page: play, once allowed) the board's tunes."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

from websupport import browser, board, open_page, wait_page, web  # noqa: F401 - fixtures

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from pegboard.tui.app import BoardApp
from pegboard.tui.roles import hole_look, moving_look
from pegboard.tui.words import event_text
from pegcore.rolemotion import FULL, PATTERNS, level
from pegfw.sound import TUNES

STATIC = Path(__file__).resolve().parent.parent / "host" / "pegboard" / "web" / "static"


def _table(name):
    text = (STATIC / "senses.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"/\*%s\*/(.*?)/\*END\*/" % name, text).group(1))


def test_the_pages_patterns_and_tunes_are_the_boards():
    assert _table("PATTERNS") == {k: [v[0], list(v[1])] for k, v in PATTERNS.items()}
    assert _table("TUNES") == {k: [list(n) for n in v] for k, v in TUNES.items()}


def test_the_terminals_hole_follows_its_roles_level_in_time():
    st = {"pegs": [2, 3], "landing": [1], "lifted": 4, "roles": "motion"}
    _, steady, _ = hole_look(1, st)
    for ms in range(0, 4096, 64):
        _, bg, fg = moving_look(1, st, ms)
        lv = level("landing", ms)
        assert (bg.r, bg.g, bg.b) == (steady.r * lv // FULL, steady.g * lv // FULL, steady.b * lv // FULL)
    assert moving_look(2, st, 300)[1] == hole_look(2, st)[1]  # a peg stays steady


def test_tunes_in_words_and_a_click_left_to_its_move():
    assert event_text({"event": "tune", "name": "win"}) == "♪ the board plays its win tune"
    assert event_text({"event": "tune", "name": "click"}) is None


def test_the_terminals_m_key_turns_the_boards_roles_to_motion_and_its_holes_move():
    async def scenario():
        with Simulator() as sim:
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            sim.control("lift", hole=4)  # 1 may be landed in
            app = BoardApp(BoardClient(sim.data_path))
            async with app.run_test(size=(80, 24)) as pilot:
                end = time.monotonic() + 20
                while app.state.get("landing") != [1]:
                    assert time.monotonic() < end, "the lifted peg's landing"
                    await pilot.pause(0.05)
                await pilot.press("m")
                while app.state.get("roles") != "motion":
                    assert time.monotonic() < end, "roles in motion"
                    await pilot.pause(0.05)
                seen = set()
                for _ in range(40):  # 4 s: a whole breath of the landing's pattern
                    await pilot.pause(0.1)
                    c = app.query_one("#hole-1").styles.background
                    seen.add((c.r, c.g, c.b))
                assert len(seen) >= 3, seen
                await pilot.press("m")
                while app.state.get("roles") != "colour":
                    assert time.monotonic() < end + 10, "roles by colour"
                    await pilot.pause(0.05)

    asyncio.run(scenario())


def test_the_pages_m_animates_the_roles_and_its_sound_plays_the_boards_tunes(browser, board, web):  # noqa: F811
    page = open_page(browser, web.page)
    wait_page(page, "pegboardPage.st.mode === 'play'", what="the game")
    assert page.get_attribute("#sound", "aria-pressed") == "false"  # muted until the user allows it
    page.keyboard.press("m")
    wait_page(page, "pegboardPage.st.roles === 'motion'", what="roles in motion")
    assert page.get_attribute("#roles", "aria-pressed") == "true"
    page.click("#hole-4")  # lifted: 1 may be landed in
    wait_page(page, "document.querySelector('#hole-1').getAttribute('data-role') === 'landing'", what="the landing")
    fills = set()
    for _ in range(40):
        fills.add(page.get_attribute("#hole-1 circle", "fill"))
        page.wait_for_timeout(100)
    assert len(fills) >= 3, fills
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.click("#hole-1")
    page.click("#hole-2")  # the jump 4 over 2 into 1: the board clicks, and so does the page
    wait_page(page, "pegboardPage.sound.played.some(function (p) { return p[0] === 'click'; })",
              what="the page to play the board's click")
    assert not page.errors


def test_the_sound_commands_tunes_are_the_boards():
    from pegboard.commands.senses import TUNES as NAMES

    assert set(NAMES) == set(TUNES)
