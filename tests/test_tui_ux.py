"""The terminal UI's look and words (issue "ux"): the board as large as its pane, at any terminal
size; every role of a hole told by a symbol as well as a colour (colours told apart with
colour-blind eyes, symbols readable on them); space steps any watch; the log names what the lights
show, in words; every panel has a key that closes it, in the footer."""

import asyncio
import re
import contextlib
import itertools
import math
import threading
import time

from support import hand, jump, pilot_until as _until
from textual.color import Color

from pegboard.link.client import BoardClient
from pegboard.pictures.text import move_text
from pegboard.sim.simulator import Simulator
from pegboard.tui.app import BoardApp, hole_size
from pegboard.tui.roles import ROLES, contrast, hole_role, legend, shown_jump
from pegboard.tui.words import batch_text, count, event_text, mode_text, pegs, start_text, stop_text
from pegfw import colors
from pegfw.lights import Limiter

SMALL, LARGE = (80, 24), (100, 32)


# -- helpers ----------------------------------------------------------------------------------
def _log(app):
    return "\n".join(app.logged)


def screen_text(app):
    """The screen as plain text: what a player sees with every colour taken away (the same
    picture export_screenshot() draws, without its styles). The compositor is not Textual's public API:
    pyproject.toml pins Textual's major version for it."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def board_rows(app):
    """The board's part of the screen, as plain text: the hole labels of each row, top down."""
    r = app.query_one("#board").region
    lines = [line[r.x:r.right] for line in screen_text(app)[r.y:r.bottom]]
    return [line.split() for line in lines if line.strip()]


def _tokens(app):
    return {int(t[1:]): t[0] for row in board_rows(app) for t in row}


def _lights(frame, brightness=40):
    """A frame of pegfw.colors as the state reply sends it: after the brightness and current limit."""
    return [[c >> 16, c >> 8 & 255, c & 255] for c in Limiter(400, brightness).limit(frame)]


class FakeBoard:
    """Answers info and state as a board would (the state given); no events."""

    def __init__(self, rows=5, state=None):
        self.closed = threading.Event()
        self.rows = rows
        self.state = dict(state or {"mode": "play", "pegs": [], "lights": []}, ok=True)

    def request(self, cmd, **args):
        if cmd == "info":
            return {"ok": True, "rows": self.rows, "holes": self.rows * (self.rows + 1) // 2,
                    "firmware": "test", "runtime": "fake"}
        return self.state if cmd == "state" else {"ok": True}

    def poll(self, timeout=0.0):
        self.closed.wait(timeout)  # as a port's read: until something comes (nothing will) or it closes
        return []

    def close(self):
        self.closed.set()


@contextlib.contextmanager
def _filled_sim(empty=1):
    with Simulator() as sim:
        sim.control("fill", empty=empty)
        sim.control("wait_idle")
        yield sim


# -- 2. roles: a symbol and a colour each -----------------------------------------------------
def test_every_role_has_its_own_symbol_readable_on_its_colour():
    symbols = [r.symbol for r in ROLES.values()]
    assert len(set(symbols)) == len(symbols) == 10  # nothing rests on colour alone
    for name, r in ROLES.items():
        assert len(r.symbol) == 1 and r.symbol.strip(), name
        assert contrast(r.fg, r.bg) >= 3.0, (name, contrast(r.fg, r.bg))  # WCAG 1.4.11: 3:1


# Machado, Oliveira & Fernandes (2009), severity 1, on linear RGB
CVD = {"protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
       "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))}


def _lab(color, matrix=None):
    c = Color.parse(color)
    lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in (c.r, c.g, c.b)]
    if matrix:
        lin = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_role_colours_stay_apart_for_red_green_colour_blindness():
    """Every two roles' colours differ by at least ΔE 12 (CIE76) as a protanope or a deuteranope
    sees them; the pairs the old palette confused are far apart."""
    for kind, matrix in CVD.items():
        for a, b in itertools.combinations(ROLES, 2):
            d = math.dist(_lab(ROLES[a].bg, matrix), _lab(ROLES[b].bg, matrix))
            assert d >= 12, (kind, a, b, round(d, 1))
    for a, b in (("empty", "from"), ("to", "landing")):
        assert math.dist(_lab(ROLES[a].bg), _lab(ROLES[b].bg)) >= 25, (a, b)


def test_the_legend_shows_every_role_symbol_and_words():
    text = legend().plain
    for r in ROLES.values():
        assert " %s  %s" % (r.symbol, r.words) in text
    assert "empty" in text and len(text.splitlines()) == 5
    assert max(len(line) for line in text.splitlines()) <= 32  # the side strip at 80 columns


def test_state_tells_what_the_led_cannot():
    """The lifted peg (its hole dark), the wooden theme's pegs (lit red, blue and yellow) and the
    celebration's colours: each hole's role comes from the state (tests/test_roles_from_state.py
    checks it against the firmware's lights)."""
    lights = _lights([colors.EMPTY, colors.WOODEN[1], colors.WOODEN[2], colors.WOODEN[0], colors.ERROR])  # by hole
    st = {"lights": lights, "brightness": 40, "lifted": 1, "theme": "wooden", "pegs": [2, 3, 4, 5], "illegal": [5]}
    assert [hole_role(h, st) for h in range(1, 6)] == ["lifted", "peg", "peg", "peg", "illegal"]
    over = {"lights": _lights([0x00FF00, colors.PEG, 0x123456]), "brightness": 40, "mode": "over", "pegs": [2],
            "show": {"kind": "over", "verdict": "genius"}}
    assert [hole_role(h, over) for h in (1, 2, 3)] == ["empty", "peg", "empty"]  # the rainbow is no peg


def _every_role_state():
    frame = [colors.EMPTY, colors.PEG, colors.EMPTY, colors.LANDING, colors.PENDING, colors.ERROR,
             colors.HINT_FROM, colors.HINT_OVER, colors.HINT_TO] + [colors.PEG] * 6
    return {"mode": "play", "pegs": [2, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15], "lifted": 3, "illegal": [6],
            "landing": [4], "pull": [5], "show": {"kind": "hint", "move": [7, 8, 9], "lost": False},
            "lights": _lights(frame), "brightness": 40, "position": [], "moves": []}


def test_every_role_reads_without_colour_on_screen():
    """The plain text of the screen (no colour at all) names every role of a board lit with all
    of them: the symbols alone tell them apart."""
    async def scenario():
        app = BoardApp(FakeBoard(5, _every_role_state()))
        async with app.run_test(size=SMALL) as pilot:
            await _until(pilot, lambda: len(_tokens(app)) == 15 and _tokens(app)[7] == "★", "the lit board")
            assert board_rows(app) == [["○1"], ["●2", "↑3"], ["◎4", "⊗5", "✕6"], ["★7", "◆8", "◇9", "●10"],
                                       ["●11", "●12", "●13", "●14", "●15"]]
            screen = "\n".join(screen_text(app))
            for r in ROLES.values():
                assert "%s  %s" % (r.symbol, r.words) in screen  # the legend, on screen
            await pilot.press("q")

    asyncio.run(scenario())


def test_a_real_game_reads_without_colour_hint_lifted_jumped_illegal():
    """On the simulated board: the hint, a lifted peg and where it may land, a jumped peg to pull,
    an illegal placement, each read from the screen's plain text."""
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                assert set(_tokens(app).values()) == {"○", "●"} and _tokens(app)[1] == "○"
                await pilot.press("h")
                await _until(pilot, lambda: "★" in _tokens(app).values(), "the hint on screen")
                hint = next(e for e in app.logged if e.startswith("hint: "))
                f, t, o = (int(w) for w in hint.split()[1:6:2])  # "hint: 4 → 1 over 2"
                seen = _tokens(app)
                assert (seen[f], seen[o], seen[t]) == ("★", "◆", "◇")
                assert {seen[h] for h in seen if h not in (f, o, t)} == {"●"}
                await pilot.press("s")
                await _until(pilot, lambda: "★" not in _tokens(app).values(), "the hint stopped")
                assert "hint stopped" in _log(app)
                hand(sim, ("lift", 4))
                await _until(pilot, lambda: _tokens(app)[4] == "↑", "the lifted peg")
                assert _tokens(app)[1] == "◎"
                hand(sim, ("place", 1))
                await _until(pilot, lambda: _tokens(app)[2] == "⊗", "the jumped peg to pull")
                assert (_tokens(app)[1], _tokens(app)[4]) == ("●", "○")
                hand(sim, ("lift", 2))
                for m in ([6, 5, 4], [1, 3, 6], [7, 4, 2]):
                    jump(sim, m)
                hand(sim, ("place", 1))  # no jump lands there, no undo refills it
                await _until(pilot, lambda: _tokens(app)[1] == "✕", "the illegal placement")
                assert "illegal placement at 1" in _log(app)
                await pilot.press("q")

    asyncio.run(scenario())


# -- 1. the board as large as its pane --------------------------------------------------------
def test_hole_size_fills_the_pane_and_keeps_rows_half_a_hole_in():
    for rows in (5, 6, 7):
        last = (0, 0)
        for width, height in ((44, 13), (46, 14), (64, 23), (90, 40), (150, 60)):
            w, h, gx, gy = hole_size(rows, width, height)
            assert rows * (w + gx) - gx <= width and rows * h + (rows - 1) * gy <= height
            assert (w + gx) % 2 == 0 and w >= 3  # each row half a pitch in; a label fits
            assert (w, h) >= last
            last = (w, h)
        assert last[1] >= 4  # a big terminal: big holes
    assert hole_size(5, 46, 14)[1] == 2  # 80x24: two lines a hole


def _hole_regions(app, rows):
    return [app.query_one("#hole-%d" % h).region for h in range(1, rows * (rows + 1) // 2 + 1)]


def test_the_board_takes_most_of_the_screen_and_resizes_with_it():
    for rows in (5, 7):
        async def scenario(rows=rows):
            app = BoardApp(FakeBoard(rows, {"mode": "play", "pegs": [], "lights": []}))
            holes = rows * (rows + 1) // 2
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: len(app.query(".hole")) == holes, "the holes")
                sizes = {}
                for size in (SMALL, LARGE, (120, 40), SMALL):
                    await pilot.resize_terminal(*size)
                    board = app.query_one("#board")
                    await _until(pilot, lambda b=board, s=size: b.region.right <= s[0] and
                                 _hole_regions(app, rows)[-1].height == hole_size(rows, *b.content_size)[1],
                                 "the holes sized to %s" % (size,))
                    await pilot.pause(0.05)
                    regions = _hole_regions(app, rows)
                    assert all(board.region.contains_region(r) for r in regions), size
                    for a, b in itertools.combinations(regions, 2):
                        assert not a.overlaps(b), (size, a, b)
                    assert board.region.width >= 0.55 * size[0]  # the log is a side strip
                    assert app.query_one("#log").region.width < board.region.width
                    for h in range(1, holes + 1):
                        label = str(app.query_one("#hole-%d" % h).label)
                        assert label.endswith(str(h)) and regions[h - 1].width >= len(label)
                    sizes[size] = (regions[0].width, regions[0].height)
                    assert app.query_one("#howto").region.bottom <= size[1] - 1
                assert sizes[LARGE] > sizes[SMALL] and sizes[(120, 40)] >= sizes[LARGE]
                await pilot.press("q")

        asyncio.run(scenario())


# -- 3. space steps any watch ------------------------------------------------------------------
def _steps(app):
    return [int(m) for m in re.findall(r"search step (\d+)", _log(app))]


async def _named_step_is_lit(pilot, app, n):
    """The log names step n's move, and it is the jump the board lights (its state's show)."""
    line = [x for x in app.logged if x.startswith("search step %d:" % n)][-1]
    m = re.search(r"(tries|takes back) (\d+) → (\d+) over (\d+)$", line)
    assert m, line
    key, hole = ("tried", int(m[3])) if m[1] == "tries" else ("taken_back", int(m[2]))
    await _until(pilot, lambda: (app.state.get("show") or {}).get(key) == hole, "the named step lit: %s" % line)


def test_space_steps_a_watch_started_with_w():
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                await pilot.press("w")
                await _until(pilot, lambda: "solver's search (space" in _log(app), "the watch")
                await pilot.press("space")
                await _until(pilot, lambda: "goes on from here a step at a time" in _log(app), "stepping")
                first = _steps(app)[-1]  # where the search had got to: it goes on from there
                for n in (1, 2):
                    await pilot.press("space")
                    await _until(pilot, lambda n=n: _steps(app)[-1:] == [first + n], "step %d" % n)
                await _named_step_is_lit(pilot, app, first + 2)
                assert "running" not in _log(app) and "!" not in _log(app)
                assert app.state["mode"] == "demo"
                assert "◎ a jump tried, ✕ taken back" in str(app.query_one("#status").render())
                await pilot.press("s")
                await _until(pilot, lambda: "the solver's search stopped" in _log(app), "the watch stopped")
                # space with no watch running starts one a step at a time
                await pilot.press("space")
                await _until(pilot, lambda: _log(app).count("a step at a time: space steps") == 2, "a new watch")
                await pilot.press("space")
                await _until(pilot, lambda: _steps(app)[-1:] == [1], "its first step")
                await _named_step_is_lit(pilot, app, 1)
                await pilot.press("q")

    asyncio.run(scenario())


# -- 4. the log in step with the lights, in words ----------------------------------------------
def _spy_states(app):
    """Each state the app draws during a demo, with the demo line logged last before it."""
    seen = []
    draw = app._show_state

    def spy(st):
        draw(st)
        lines = [x for x in app.logged if x.startswith("demo move")]
        if st.get("mode") == "demo" and lines:
            seen.append((shown_jump(st), lines[-1]))
    app._show_state = spy
    return seen


def _in_step(seen):
    lit = [(move, line) for move, line in seen if move]
    assert len({tuple(m) for m, _ in lit}) >= 2, seen
    for move, line in lit:
        assert line.endswith(move_text(move)), (move, line)  # the move lit is the one the log names


def test_the_demo_log_names_the_move_lit_now():
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            seen = _spy_states(app)
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                await pilot.press("d")
                await _until(pilot, lambda: "demo move 3 of 13: " in _log(app), "the demo's third move")
                moves = app.demo
                for k in (1, 2, 3):
                    assert "demo move %d of 13: %s" % (k, move_text(moves[k - 1])) in app.logged
                await pilot.press("s")
                await _until(pilot, lambda: "demo stopped" in _log(app), "the demo stopped")
                _in_step(seen)
                await pilot.press("q")

    asyncio.run(scenario())


def test_a_demo_started_on_the_board_is_told_from_its_state():
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            seen = _spy_states(app)
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                sim.control("press", ms=1000)  # held 0.8-3 s: the board's own demo
                await _until(pilot, lambda: "demo move 2: " in _log(app), "the demo's second move")
                assert "demo move 1: " in _log(app) and app.demo is None
                assert re.search(r"button held 1\.\d s: the board demonstrates", _log(app))  # (1.0 s, later on a busy machine)
                await pilot.press("s")
                await _until(pilot, lambda: "demo stopped" in _log(app), "the demo stopped")
                _in_step(seen)
                await pilot.press("q")

    asyncio.run(scenario())


def test_words_not_python():
    """No repr on screen: None, dicts, True; counts in words."""
    odd = [{"event": "watch_done", "stopped": True}, {"event": "selftest_done", "stopped": False},
           {"event": "setup", "reason": None}, {"event": "new_game", "empty": None, "start": None},
           {"event": "resumed", "empty": None, "start": [2, 3], "moves": [[4, 2, 1]]},
           {"event": "quiet", "seconds": 120}, {"event": "quiet_done", "hint_table": True},
           {"event": "something_new", "seq": 4, "a_b": None, "c": {"d": True}, "e": [1, 2]},
           {"event": "guide_step", "step": 3, "move": [4, 2, 1], "remaining": 0},
           {"event": "guide_off", "reason": None}, {"event": "error", "message": None}, {"event": "refused", "message": None},
           {"event": "reconnected", "port": None}]
    lines = batch_text(odd)
    for line in lines:
        for bad in ("None", "{", "}", "True", "False", "[", "_"):
            assert bad not in line, line
    assert lines[0] == "the solver's search stopped" and lines[1] == "self-test done"
    assert "1 move" in lines[4] and "1 moves" not in lines[4]
    assert lines[7] == "something new: a b none, c d yes, e 1 2"
    assert start_text({"empty": None, "start": None}) == "from the pegs as they stand"
    assert [pegs(n) for n in (0, 1, 2)] == ["no pegs", "1 peg", "2 pegs"] and count(1, "move") == "1 move"
    assert stop_text({"stopped": "hint"}) == "hint stopped" and stop_text({"stopped": None}) == "nothing to stop"
    assert stop_text({"stopped": "demo"}) is None  # demo_done says so
    assert event_text({"event": "hint", "move": None, "best_left": 1}) == "hint: no jump left (1 peg on the board)"
    assert "None" not in mode_text({"mode": None}, 0) and "no pegs" in mode_text({"mode": "over"}, 0)
    # a board that has not read its pegs yet is not free play on an empty board
    assert mode_text({"mode": "starting", "pegs": []}, 0) == "the board is starting: it has not read its pegs yet"
    # a demo step: the move lit now when the demo's moves are known, else the move made
    moves = [[4, 2, 1], [6, 5, 4]]
    step = {"event": "demo_step", "step": 1, "move": [4, 2, 1]}
    assert event_text(step, moves) == "demo move 2 of 2: 6 → 4 over 5"
    assert event_text(dict(step, step=2, move=[6, 5, 4]), moves) == "demo: all 2 moves made"
    assert event_text(step) == "demo: move 1 made: 4 → 1 over 2"


# -- 5. every panel has a key that closes it ---------------------------------------------------
def _footer(app):
    return {k.description: k for k in app.query("FooterKey")}


def test_the_solution_browser_closes_with_escape_or_b_shown_in_the_footer():
    async def scenario():
        with _filled_sim() as sim:
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: app.state.get("mode") == "play", "the first state")
                browser = app.query_one("#browser")
                for close in ("escape", "b"):
                    await pilot.press("b")
                    await _until(pilot, lambda: browser.display and "Close" in _footer(app), "the browser")
                    assert "Solution" not in _footer(app)
                    await _until(pilot, lambda: all(k.region.right <= SIZE_W for k in app.query("FooterKey")),
                                 "the footer to fit")
                    assert "b/esc" in str(_footer(app)["Close"].render())
                    await pilot.press(close)
                    await _until(pilot, lambda: not browser.display and "Solution" in _footer(app),
                                 "the browser closed by %s" % close)
                    assert "Close" not in _footer(app)
                await pilot.press("right_square_bracket")  # a closed browser does not step
                assert app.sol_pos == 0
                await pilot.press("q")

    asyncio.run(scenario())


SIZE_W = SMALL[0]


def test_r_browses_the_games_the_board_keeps_and_steps_their_moves():
    """Issue "records": two games played on the simulated board, emptied after each; r opens the
    newest in the browser, `,` goes to the older one, [ ] step its moves; b closes it."""
    async def scenario():
        with Simulator() as sim:
            client = BoardClient(sim.data_path)
            for empty, move in ((1, (4, 2, 1)), (4, (1, 2, 4))):
                sim.control("fill", empty=empty)
                sim.control("wait_idle")
                jump(sim, move)
                sim.control("clear")
                sim.control("wait_idle")
            end = time.monotonic() + 30  # the board calls an emptied board's game abandoned once it stays empty (a loaded machine: later)
            while client.request("records")["total"] < 2:
                assert time.monotonic() < end, "the second game was not kept"
                time.sleep(0.1)
            client.close()
            app = BoardApp(BoardClient(sim.data_path), hand=sim.control)
            async with app.run_test(size=SMALL) as pilot:
                await _until(pilot, lambda: bool(app.state), "the first state")
                browser = app.query_one("#browser")
                await pilot.press("r")
                await _until(pilot, lambda: browser.display and app.game_at == 1, "the newest game")
                assert "game 2 of 2 (abandoned" in app.sol_title and app.solution == [[1, 2, 4]]
                await pilot.press("right_square_bracket")
                assert app.sol_pos == 1
                await pilot.press("comma")
                assert app.game_at == 0 and app.solution == [[4, 2, 1]] and app.sol_pos == 0
                await _until(pilot, lambda: all(k.region.right <= SMALL[0] for k in app.query("FooterKey")),
                             "the footer to fit")
                await pilot.press("b")
                await _until(pilot, lambda: not browser.display, "the browser closed")
                await pilot.press("q")

    asyncio.run(scenario())
