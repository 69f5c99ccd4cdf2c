"""Issue "guard2", findings 6 and 9: what a board (or a program posing as one) sends is shown as
the text it is, never read as Textual markup (no hyperlink, no style, no MarkupError ending the
UI), and a field of the wrong type is shown as sent, never a crash: in the terminal UI's status
line, log and games browser, in the words every view shares and in `pegboard games`. And a hostile
settings.toml (a board of 100000 rows, a 3 MB value) is refused by `pegboard sim` with one line
before anything big is built. Each test is an attack that worked before its fix."""

import asyncio
import itertools
import threading

import pytest
from support import pegboard_cli, pilot_until as _until

from pegboard.tui.app import BoardApp
from pegboard.tui.words import batch_text, event_text, mode_text, puzzle_text, review_text, stop_text

WIDE = (160, 40)  # the hostile text on one line of the status
LINK_BAIT = "[link='https://evil.example/x']press here[/link][reverse]boo"
BAD_TAG = "[/nope] [b]bold?[/b]"
# a value of every JSON type where the board's words expect another
HOSTILE = ["[b]x[/b]", "", 7, -3, 2.5, None, True, [], [1, "a"], [[1, 2]], {}, {"k": [1]}]


class HostileBoard:
    """A board that answers info and state with what the test gives, sends each event batch once
    and answers `records` with one page of the given games."""

    def __init__(self, state, events=(), games=None):
        self.closed = threading.Event()
        self.state = dict(state, ok=True)
        self.batches = [list(events)] if events else []
        self.games = games

    def request(self, cmd, **args):
        if cmd == "info":
            return {"ok": True, "rows": 5, "holes": 15, "firmware": "test", "runtime": "fake"}
        if cmd == "state":
            return self.state
        if cmd == "records" and self.games is not None:
            return {"ok": True, "games": self.games, "page": 0, "pages": 1, "rows": 5}
        return {"ok": True}

    def poll(self, timeout=0.0):
        if self.batches:
            return self.batches.pop(0)
        self.closed.wait(timeout)  # as a port's read: until something comes (nothing will) or it closes
        return []

    def close(self):
        self.closed.set()


def _strips(app):
    """The screen's lines as drawn (the compositor: see tests/test_tui_ux.py screen_text)."""
    return list(app.screen._compositor.render_strips())


def _screen(app):
    return "\n".join(strip.text for strip in _strips(app))


def _links(app):
    return [seg.text for strip in _strips(app) for seg in strip if seg.style and seg.style.link]


def _styled_as(app, text, attribute):
    """Segments on screen holding part of `text` drawn with a style attribute (reverse, bold)."""
    return [seg.text for strip in _strips(app) for seg in strip
            if seg.text.strip() and seg.text.strip() in text and seg.style and getattr(seg.style, attribute)]


def _run(board, scenario, size=WIDE):
    async def run():
        app = BoardApp(board)
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: bool(app.state), "the first state")
            await scenario(app, pilot)
            assert app.is_running  # the hostile text did not end the UI
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.parametrize("mode", [LINK_BAIT, BAD_TAG])
def test_a_boards_mode_is_shown_as_its_text_with_no_link_or_style(mode):
    async def scenario(app, pilot):
        await _until(pilot, lambda: mode in _screen(app), "the mode, literally, in the status line")
        assert _links(app) == []
        assert _styled_as(app, mode, "reverse") == [] and _styled_as(app, mode, "bold") == []

    _run(HostileBoard({"mode": mode, "pegs": [], "lights": []}), scenario)


def test_a_banner_and_log_lines_from_hostile_events_are_text_and_the_ui_runs_on():
    events = [{"event": "new_game", "puzzle": "[b]n[/b]", "empty": "[/nope]"},
              {"event": "puzzle", "n": "[b]one[/b]", "finish": "[i]4[/i]", "grade": [1], "count": None},
              {"event": "move", "move": "[reverse]4-1", "pegs_left": "[b]13[/b]"},
              {"event": ["a", "list"], "seq": 3},
              {"event": "game_over", "pegs_left": 3, "verdict": LINK_BAIT}]  # last: the banner stays

    async def scenario(app, pilot):
        await _until(pilot, lambda: len(app.logged) >= 6, "the hostile events' lines")
        log = "\n".join(app.logged)
        for text in ("[b]n[/b]", "[/nope]", "[b]one[/b]", "[i]4[/i]", "[reverse]4-1", "[b]13[/b]"):
            assert text in log
        assert LINK_BAIT in app.banner and LINK_BAIT in _screen(app)
        assert _links(app) == [] and _styled_as(app, LINK_BAIT, "reverse") == []

    _run(HostileBoard({"mode": "over", "pegs": [], "lights": []}, events), scenario)


def test_the_games_browser_shows_hostile_kept_games_as_sent():
    games = [{"n": "[b]7[/b]", "result": "[link='https://evil.example']won[/link]", "seconds": "[i]soon[/i]",
              "moves": "[reverse]x", "start": 5},
             {"n": 8, "result": [1], "seconds": None, "moves": [[4, 2, 1], "x", [1, "a", 3]], "start": None}]

    async def scenario(app, pilot):
        browser = app.query_one("#browser")
        await pilot.press("r")
        await _until(pilot, lambda: browser.display and app.game_at == 1, "the newest kept game")
        for _ in range(4):  # step its moves: the one that can be drawn, then past the rest
            await pilot.press("right_square_bracket")
        await pilot.press("comma")
        await _until(pilot, lambda: app.game_at == 0, "the older game")
        await pilot.press("right_square_bracket")
        shown = _screen(app)
        for text in ("[b]7[/b]", "[link='https://evil.example']won[/link]", "[i]soon[/i]"):
            assert text in app.sol_title and text in shown
        assert _links(app) == [] and _styled_as(app, "[b]7[/b]", "bold") == []

    _run(HostileBoard({"mode": "setup", "pegs": [], "lights": []}, games=games), scenario)


# -- the words every view shares: a field of any type, never a crash ----------------------------

EVENTS = ["new_game", "resumed", "setup", "setup_done", "lift", "place", "move", "undo", "illegal", "recovered",
          "game_over", "puzzle", "puzzle_solved", "best", "challenge", "hint", "button", "demo_step", "demo_done",
          "watch_done", "selftest_done", "guide_step", "guide_astray", "guide_back", "guide_line", "guide_off",
          "overflow", "sensors", "quiet", "quiet_done", "error", "tune", "refused", "reconnected", "rebooted",
          "resync", "unknown_one"]
FIELDS = ["event", "empty", "start", "finish", "puzzle", "retry", "reason", "hole", "holes", "move", "moves",
          "pegs_left", "pegs", "verdict", "challenge", "met", "in_finish", "seconds", "n", "count", "grade",
          "solved", "solved_count", "done", "before", "reachable", "solvable", "best_left", "pressed", "ms",
          "step", "stopped", "remaining", "message", "hint_table", "name", "port", "game", "move_number",
          "played", "better"]
# each event as the board sends it: one field at a time is then made hostile
GOOD = {"new_game": {"empty": 5, "puzzle": 2}, "resumed": {"empty": 5, "moves": [[4, 2, 1]]},
        "move": {"move": [4, 2, 1], "pegs_left": 13}, "undo": {"move": [4, 2, 1]},
        "game_over": {"pegs_left": 2, "verdict": "genius", "challenge": "leave:2", "met": True, "seconds": 9},
        "puzzle": {"n": 1, "count": 30, "grade": 2, "finish": 13, "pegs": [1, 2], "done": False},
        "best": {"pegs": 1, "seconds": 30, "before": {"pegs": 2, "seconds": 40}},
        "hint": {"move": [4, 2, 1], "solvable": True, "challenge": "finish:13"},
        "demo_step": {"step": 1, "move": [4, 2, 1]}, "guide_step": {"step": 1, "move": [4, 2, 1], "remaining": 3},
        "guide_back": {"step": 1, "move": [4, 2, 1]}, "guide_astray": {"move": [4, 2, 1]},
        "guide_line": {"moves": [[4, 2, 1]], "solvable": True}, "button": {"pressed": False, "ms": 900}}


def _hostile_events():
    for name, field, value in itertools.product(EVENTS, FIELDS, HOSTILE):
        for base in (GOOD.get(name, {}), {}):
            e = dict(base, event=name)
            e[field] = value
            yield e


def test_every_event_with_any_field_of_any_type_is_words():
    for e in _hostile_events():
        for demo in (None, [[4, 2, 1]]):
            text = event_text(e, demo)
            assert text is None or isinstance(text, str), e
        assert all(isinstance(line, str) for line in batch_text([e, e])), e


def test_a_hostile_value_is_shown_as_what_it_is():
    assert "[b]x[/b]" in event_text({"event": "puzzle_solved", "n": "[b]x[/b]"})
    assert "puzzle x" in event_text({"event": "new_game", "puzzle": "x", "empty": 5})
    assert "x" in event_text({"event": "move", "move": "x", "pegs_left": 3})
    assert event_text({"event": "game_over", "pegs_left": "7", "verdict": ["a"]}) == "Game over: 7 pegs left — a"


REPLY_FIELDS = ["mode", "target", "show", "start", "empty_start", "finish", "stopped", "n", "count", "grade",
                "pegs", "solved", "solved_count", "done", "game", "verdict", "move_number", "played", "better"]


def test_the_state_stop_puzzle_and_review_replies_with_any_field_of_any_type_are_words():
    good_review = {"verdict": "lost_at", "game": 3, "finish": 13, "move_number": 2, "played": [4, 2, 1],
                   "better": [6, 3, 1]}
    for field, value in itertools.product(REPLY_FIELDS, HOSTILE):
        for base in ({}, {"mode": "demo", "show": {"kind": "demo"}}, good_review, GOOD["puzzle"]):
            reply = dict(base, **{field: value})
            for text in (mode_text(reply, 3), stop_text(reply), puzzle_text(reply), review_text(reply)):
                assert text is None or isinstance(text, str), reply


# -- `pegboard games`: every field of every kept game, of any type --------------------------------

GAME = {"n": 1, "start": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "moves": [[4, 2, 1]], "result": 13,
        "seconds": 12, "challenge": "leave:2", "met": False}
SHOWN = ("n", "start", "moves", "result", "seconds", "challenge")  # a game's fields the list prints
BEST = {"empty": 1, "start": GAME["start"], "pegs": 2, "seconds": 30, "challenge": "leave:2"}


class RecordsClient:
    """A board's `records` and `bests` replies as the test gives them (one page each)."""

    def __init__(self, kept, bests=(), **reply):
        self.records = dict({"games": kept, "pages": 1, "rows": 5}, **reply)
        self.bests = list(bests)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def request(self, cmd, **args):
        if cmd == "info":
            return {"ok": True, "capabilities": ["bests"]}
        if cmd == "bests":
            return {"ok": True, "bests": self.bests, "pages": 1}
        return dict(self.records, ok=True)


def _games(monkeypatch, capsys, client, *argv):
    from pegboard.commands import games as games_cmd
    from pegboard.commands.cli import main

    monkeypatch.setattr(games_cmd, "connect", lambda args: client)
    code = main(["games", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("field", sorted(set(GAME) | set(BEST)))
def test_pegboard_games_lists_a_kept_game_and_a_best_with_any_field_of_any_type(field, monkeypatch, capsys):
    for value in HOSTILE:
        game, best = dict(GAME), dict(BEST)
        for kept in (game, best):
            if field in kept:
                kept[field] = value
        code, out, err = _games(monkeypatch, capsys, RecordsClient([game], [best]))
        assert code == 0 and err == "", (field, value, err)
        if isinstance(value, str) and value and field in SHOWN:
            assert value in out, (field, value, out)


@pytest.mark.parametrize("reply", [{"games": "x"}, {"games": [7, None]}, {"pages": "2"}, {"rows": "five"},
                                   {"rows": 100000}, {"games": None}])
def test_pegboard_games_says_what_is_wrong_with_a_malformed_records_reply(reply, monkeypatch, capsys):
    code, out, err = _games(monkeypatch, capsys, RecordsClient([GAME], **reply))
    assert code in (0, 1), (code, err)
    assert "Traceback" not in err and len(err.splitlines()) <= 1


# -- finding 9: a hostile settings.toml for `pegboard sim` ---------------------------------------

@pytest.mark.parametrize("line, key", [("PEGBOARD_ROWS = 100000", "PEGBOARD_ROWS"),
                                       ("PEGBOARD_ROWS = -1", "PEGBOARD_ROWS"),
                                       ('PEGBOARD_THEME = "%s"' % ("x" * 3_000_000), "PEGBOARD_THEME"),
                                       ("JUNK = %s" % ("9" * 2000), "JUNK")])
def test_pegboard_sim_refuses_a_hostile_setting_in_one_line(tmp_path, runtime_env, line, key):
    settings = tmp_path / "settings.toml"
    settings.write_text('PEGBOARD_PIXEL_PIN = "GP16"\n%s\n' % line)
    p = pegboard_cli(runtime_env, "sim", "--settings", str(settings), timeout=60)
    assert p.returncode == 2, p.stderr[-2000:]
    assert len(p.stderr.splitlines()) == 1 and key in p.stderr and "Traceback" not in p.stderr, p.stderr[:300]
    assert p.stdout == ""  # refused before the simulator started


def test_the_simulator_refuses_rows_its_geometry_has_no_board_for(tmp_path):
    from pegcore.geometry import MAX_ROWS, MIN_ROWS

    from pegboard.sim.errors import SimError
    from pegboard.sim.simulator import Simulator

    for rows in (MIN_ROWS - 1, MAX_ROWS + 1, 100000):
        settings = tmp_path / "settings.toml"
        settings.write_text("PEGBOARD_ROWS = %d\n" % rows)
        with pytest.raises(SimError, match="PEGBOARD_ROWS"):
            Simulator(settings=settings)


def test_a_settings_file_of_thousands_of_keys_is_refused(tmp_path):
    from pegboard.sim.settings import SettingsError, raw_settings, read_settings

    settings = tmp_path / "settings.toml"
    settings.write_text("".join("KEY_%d = %d\n" % (n, n) for n in range(5000)))  # E2BIG as environment variables
    for read in (read_settings, raw_settings):
        with pytest.raises(SettingsError, match="more than"):
            read(settings)
