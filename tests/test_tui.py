"""The Textual UI driven by Textual's pilot against the simulated board: it follows moves made by
hand with no key pressed, plays a whole game to a win by clicks, fits 80x24, and its keys work."""

import asyncio
import contextlib
import time

from support import pilot_until as _until

from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from textual.color import Color

from pegboard.tui.app import BoardApp
from pegboard.tui.roles import ROLES
from pegboard.tui.words import batch_text, event_text

SIZE = (80, 24)


@contextlib.contextmanager
def _filled_sim(link=None):
    with Simulator(link=link) as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        yield sim


def _log(app):
    return "\n".join(app.logged)  # the lines as written (the log on screen wraps them)


def _label(app, hole):
    return str(app.query_one("#hole-%d" % hole).label)


def test_mirror_follows_moves_made_by_hand_with_no_key_pressed():
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path))  # a mirror: no hand, the pegs move on the "board"
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                assert _label(app, 1) == "○1" and _label(app, 4) == "●4"
                for cmd, hole in (("lift", 4), ("place", 1), ("lift", 2)):
                    sim.control(cmd, hole=hole)
                await _until(pilot, lambda: app.state.get("moves") == [[4, 2, 1]], "the move")
                await _until(pilot, lambda: "4 → 1 over 2 (13 pegs left)" in _log(app), "the log line")
                assert _label(app, 1) == "●1" and _label(app, 2) == "○2" and _label(app, 4) == "○4"
                # the hint button on the board: its event and its lights arrive by themselves
                sim.control("press", ms=100)
                await _until(pilot, lambda: "hint: " in _log(app), "the hint")
                src = int(_log(app).split("hint: ")[1].split()[0])
                await _until(pilot, lambda: app.state["lights"][src - 1][2] > 2 * max(app.state["lights"][src - 1][:2]),
                             "the hint's lights")
                await _until(pilot, lambda: _label(app, src) == "★%d" % src, "the hint's symbol")
                # the "from" peg in the hint's colour, not the empty holes' grey
                assert app.query_one("#hole-%d" % src).styles.background == Color.parse(ROLES["from"].bg)
                # two more moves, the second one loses: the banner says so at once
                for src, over, dst in ((6, 5, 4), (13, 9, 6)):
                    for cmd, hole in (("lift", src), ("place", dst), ("lift", over)):
                        sim.control(cmd, hole=hole)
                    sim.control("wait_idle")
                await _until(pilot, lambda: app.banner.startswith("Lost"), "the lost banner")
                assert app.query_one("#banner").display and app.query_one("#banner").has_class("lost")
                # a click on a real board moves nothing: the screen says what to do
                await pilot.click("#hole-6")
                await pilot.pause(0.2)
                assert "lift and place the real pegs" in _log(app)
                # new game on a real board: words, not pegs
                await pilot.press("n")
                assert "every hole but one" in _log(app)
                await pilot.press("q")

    asyncio.run(scenario())


def test_set_a_position_with_the_mouse_and_play_from_it():
    """c clears the simulated board (the game ends: free play), clicks set pegs, the hint is about
    them, g plays from there; the status line says which mode and why."""
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                await pilot.press("c")
                await _until(pilot, lambda: app.state.get("mode") == "setup" and not app.state.get("pegs"),
                             "the emptied board in setup")
                assert "abandoned" in _log(app) or "emptied" in _log(app)
                for h in (4, 5, 13):
                    await pilot.click("#hole-%d" % h)
                await _until(pilot, lambda: app.state.get("position") == [4, 5, 13], "the pegs set by clicks")
                assert "free play: 3 pegs" in str(app.query_one("#status").render())
                await pilot.press("h")
                await _until(pilot, lambda: "hint: 4 → 6 over 5" in _log(app), "the hint on the clicked pegs")
                await pilot.press("g")
                await _until(pilot, lambda: app.state.get("mode") == "play", "the game from here")
                assert app.state.get("start") == [4, 5, 13]
                assert "hand-set start of 3 pegs" in str(app.query_one("#status").render())
                assert "playing from here" in _log(app)
                await pilot.press("q")

    asyncio.run(scenario())


def _winning_moves_from_5():
    g = Geometry(5)
    return [g.move_of(j) for j in Solver(g).solution(start_mask(g, 5))]


def test_whole_game_to_a_win_by_clicks_at_80x24():
    moves = _winning_moves_from_5()

    async def scenario():
        with Simulator() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "setup", "the empty board")
                assert "free play" in str(app.query_one("#status").render())
                # new game: the simulated hand fills every hole but the start (1 by default)
                await pilot.press("n")
                await _until(pilot, lambda: app.state.get("empty_start") == 1, "a new game")
                # start from hole 5 instead: lift 5, put the peg back in 1
                await pilot.click("#hole-5")
                await pilot.click("#hole-1")
                await _until(pilot, lambda: app.state.get("empty_start") == 5, "the game from hole 5")
                for k, (src, over, dst) in enumerate(moves, 1):
                    for hole in (src, dst, over):  # as the screen says: jumping peg, landing hole, jumped peg
                        await pilot.click("#hole-%d" % hole)
                    await _until(pilot, lambda k=k: len(app.state.get("moves", [])) == k, "move %d" % k)
                await _until(pilot, lambda: app.banner.startswith("You won"), "the win banner")
                banner = str(app.query_one("#banner").render())
                assert "one peg left" in banner and "genius" in banner
                assert app.query_one("#banner").display
                assert "You won: one peg left" in _log(app)
                await pilot.press("q")

    asyncio.run(scenario())


def test_whole_game_to_a_win_from_the_keyboard_alone():
    """No mouse (a terminal that passes no clicks): a hole's number or the arrows move the cursor,
    Enter and space lift or place, as a click would."""
    moves = _winning_moves_from_5()

    async def scenario():
        with Simulator() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            now = [0.0]
            app.clock = lambda: now[0]  # the typing window by this clock, not by how fast a loaded machine runs
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "setup", "the empty board")
                await pilot.press("n")
                await _until(pilot, lambda: app.state.get("empty_start") == 1, "a new game")

                async def pick(hole, key="enter"):
                    for digit in str(hole):
                        await pilot.press(digit)
                    assert app.cursor == hole
                    await pilot.press(key)

                # start from hole 5: the arrows to it (the first shows the cursor on 1; down to 2,
                # down to 4, right to 5, up to 3, down to 5)
                await pilot.press("down", "down", "down", "right", "up")
                assert app.cursor == 3
                await pilot.press("down")
                assert app.cursor == 5
                assert "reverse" in str(app.query_one("#hole-5").styles.text_style)
                await pilot.press("space")
                await pick(1)
                await _until(pilot, lambda: app.state.get("empty_start") == 5, "the game from hole 5")
                for k, (src, over, dst) in enumerate(moves, 1):
                    for n, hole in enumerate((src, dst, over)):
                        await pick(hole, "space" if n == 1 else "enter")
                    await _until(pilot, lambda k=k: len(app.state.get("moves", [])) == k, "move %d" % k)
                await _until(pilot, lambda: app.banner.startswith("You won"), "the win banner")
                await pilot.press("1")
                now[0] += 2.0  # more than a second later: a new number, not 12
                await pilot.press("2")
                assert app.cursor == 2
                await pilot.press("q")

    asyncio.run(scenario())


def test_layout_at_80x24_shows_every_footer_key_and_the_whole_solution_browser():
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                shown = [b for b in app.BINDINGS if b.show and b.action != "close"]  # close: a panel open
                await _until(pilot, lambda: len(app.query("FooterKey")) == len(shown), "the footer")
                # a loaded machine can sample the footer between two layouts: wait for one that
                # fits (a footer that never fits fails here)
                await _until(pilot, lambda: all(k.region.right <= SIZE[0] for k in app.query("FooterKey")),
                             "the footer to fit in %d columns" % SIZE[0])
                keys = list(app.query("FooterKey"))
                assert len(keys) == len(shown) >= 8
                right = 0
                for key in keys:
                    assert key.region.x >= right and key.region.right <= SIZE[0], key.description
                    right = key.region.right
                assert {"Hint", "Demo", "Watch", "Stop", "New", "Play", "Move", "Solution", "Button", "Quit"} <= \
                    {k.description for k in keys}
                # every hole's number is whole on screen
                for h in range(1, 16):
                    assert _label(app, h).endswith(str(h))
                    assert app.query_one("#hole-%d" % h).region.width >= len(_label(app, h))
                # how to move is on screen
                howto = app.query_one("#howto")
                assert "the peg that jumps" in str(howto.render()) and "arrows" in str(howto.render())
                assert howto.region.bottom <= SIZE[1] - 1
                # the solution browser: 5 rows of board and its heading, all inside the screen
                await pilot.press("b")
                await _until(pilot, lambda: len(app.solution) == 13, "the solution")
                await pilot.press("right_square_bracket")
                await pilot.pause(0.1)
                browser = app.query_one("#browser")
                text = str(browser.render())
                assert text.startswith("solution 1/13: ") and len(text.splitlines()) == 7
                # every hole numbered, the move's holes marked: landed ◇, emptied ◌
                first = app.solution[0]
                cells = dict((int(c[1:]), c[0]) for c in " ".join(text.splitlines()[1:6]).split())
                assert sorted(cells) == list(range(1, 16))
                assert cells[first[2]] == "◇" and cells[first[0]] == cells[first[1]] == "◌"
                assert text.splitlines()[6] == "◇ it landed  ◌ emptied"
                assert browser.region.height >= 7 + 2 and browser.region.bottom <= SIZE[1] - 1
                await pilot.press("left_square_bracket")
                assert app.sol_pos == 0
                await pilot.press("q")

    asyncio.run(scenario())


def test_quitting_with_ctrl_c_stops_the_demo_the_ui_started():
    async def scenario():
        with _filled_sim() as sim:
            board = BoardClient(sim.data_path)
            app = BoardApp(board, hand=sim.control)
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                await pilot.press("d")
                await _until(pilot, lambda: "demo move 2 of" in _log(app), "the demo's second move")
                assert app.state["mode"] == "demo"
                await pilot.press("ctrl+c")  # quits, as Ctrl-C does in every command
            with BoardClient(sim.data_path) as b:
                assert b.request("state")["mode"] == "play"

    asyncio.run(scenario())


def test_rows_come_from_the_board(tmp_path):
    pins = ",".join("GP%d" % n for n in list(range(15)) + list(range(17, 23)))
    settings = tmp_path / "settings.toml"
    settings.write_text('PEGBOARD_ROWS = 6\nPEGBOARD_SENSORS = "gpio"\nPEGBOARD_SENSOR_PINS = "%s"\n'
                        'PEGBOARD_PIXEL_PIN = "GP16"\nPEGBOARD_BUTTON_PIN = "GP15"\n' % pins)

    async def scenario():
        with Simulator(settings=settings) as sim:
            sim.control("fill", empty=21)
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.info.get("rows") == 6, "info")
                await _until(pilot, lambda: len(app.query(".hole")) == 21, "21 holes")
                await _until(pilot, lambda: _label(app, 21) == "○21", "the 6-row state")
                # layout follows a frame after the mount: wait for it, then the last hole is inside the pane
                await _until(pilot, lambda: app.query_one("#hole-21").region.width >= 3, "the 6-row layout")
                assert app.query_one("#board").region.contains_region(app.query_one("#hole-21").region)
                await pilot.press("q")

    asyncio.run(scenario())


def test_events_in_plain_words():
    assert event_text({"event": "move", "move": [4, 2, 1], "pegs_left": 13}) == "4 → 1 over 2 (13 pegs left)"
    assert event_text({"event": "move", "move": [11, 12, 13], "pegs_left": 1}) == "11 → 13 over 12 (1 peg left)"
    assert event_text({"event": "game_over", "pegs_left": 1, "verdict": "genius"}).startswith("You won: one peg")
    assert "3 pegs left" in event_text({"event": "game_over", "pegs_left": 3, "verdict": "just plain dumb"})
    assert event_text({"event": "hint", "move": [6, 3, 1], "solvable": False, "best_left": 2}) == \
        "hint: 6 → 1 over 3 (one peg is out of reach: best is 2 pegs left)"
    assert event_text({"event": "button", "pressed": True}) is None
    fill = [{"event": "place", "hole": h} for h in (2, 3, 4)] + [{"event": "new_game", "empty": 1}]
    assert batch_text(fill) == ["pegs placed in 2, 3, 4", "new game: hole 1 empty"]


def test_a_board_that_goes_away_is_dimmed_and_named_then_followed_again(tmp_path):
    """The mirror's board is unplugged: within a second the holes are dimmed and the status names
    the port; plugged back, the mirror follows it again with no key pressed."""
    async def scenario():
        # the port's stable name, as `pegboard sim` gives it: a replug's new pty is another path, and the
        # old one may be handed to any other program meanwhile (another test's simulator, run in parallel)
        with _filled_sim(link=str(tmp_path / "pegboard")) as sim:
            app = BoardApp(BoardClient(sim.link_path))
            async with app.run_test(size=SIZE) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                sim.control("unplug")
                t = time.monotonic()
                await _until(pilot, lambda: app.query_one("#board").has_class("gone"), "the board dimmed", 5)
                assert time.monotonic() - t < 1.5
                status = str(app.query_one("#status").render())
                assert status.startswith("board gone: waiting for it at ") and "/" in status
                assert app.query_one("#hole-2").styles.opacity < 1
                assert _log(app).count("is gone") == 1
                sim.control("replug")
                await _until(pilot, lambda: not app.query_one("#board").has_class("gone"), "the board back", 20)
                assert "the board is back" in _log(app)
                sim.control("lift", hole=4)
                await _until(pilot, lambda: _label(app, 4) == "↑4", "the mirror following again")
                await pilot.press("q")

    asyncio.run(scenario())
