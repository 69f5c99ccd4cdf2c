"""The live terminal UI of the board (`pegboard mirror`, `pegboard run`): the holes as the board
lights them, a legend, the events in plain words, a win/lost banner, a solution browser and keys
for the board's requests. A BoardLink thread owns the port and posts what arrives; this app only
draws. With a hand (the simulator's control port) clicking a hole lifts or places a peg, as a hand
would; on a real board the player moves real pegs and the screen follows.

Each hole shows its role (peg, empty, hint, ...) by a symbol as well as a colour, so nothing rests
on colour alone (pegboard.tui.roles)."""

from __future__ import annotations

import time
from typing import Any, Callable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.widgets import Button, Footer, Header, RichLog, Static

from pegcore.geometry import Board
from pegcore.rules import mask_of
from pegboard.tui.board_link import BoardLink
from pegboard.tui.roles import ROLES, hole_look, legend, moving_look, shown_jump
from pegboard.tui.watch_steps import WatchSteps
from pegboard.link.client import BoardClient
from pegboard.pictures.text import move_text, render_numbered
from pegboard.solve.lost_words import board_words
from pegboard.tui.words import (batch_text, board_holes, board_moves, clock_text, count, demo_move_text,
                                game_over_text, holes_text, length, mode_text, moves_line, review_text, start_text,
                                stop_text, value_text)


# four lines at 80 columns: the holes get the rest
HOW_HAND = ("Move: click (or Enter, space on) the peg that jumps, the hole it lands in, then the peg "
            "jumped over; arrows or a hole's number move the cursor. c clears, g plays from there, "
            "r lists kept games, v where a lost game went wrong, z sets a puzzle, m roles in motion.")
HOW_BOARD = ("Move the real pegs: lift the jumping peg, put it in the empty hole, pull the jumped one. "
             "Take every peg out to end a game; set any pegs and press g to play from there; "
             "r shows the games the board keeps, v where a lost game went wrong, z sets a puzzle, "
             "m roles in motion.")
WATCH_HELP = "search: ◎ a jump tried, ✕ taken back (space steps)"  # one line at 80 columns


# -- the board's size -------------------------------------------------------------------------
MAX_HOLE_HEIGHT = 6
LOG_KEPT = 1000
MOTION_S = 0.04  # how often the roles' patterns are redrawn (the board's frames are 20 ms apart)


def hole_size(rows: int, width: int, height: int) -> tuple[int, int, int, int]:
    """(width, height, gap across, gap down) of the largest holes whose triangle of `rows` rows fits
    in width x height cells. A cell is about twice as tall as wide: holes sit ~2.3 cells apart
    across for each cell down, and their pitch across is even, so every row is half a hole in."""
    for h in range(MAX_HOLE_HEIGHT, 0, -1):
        if rows * (h + 1) - 1 > height:  # a blank line between rows
            continue
        ideal = max(6, 2 * round(1.15 * (h + 1)))
        for pitch in (ideal, ideal - 2):  # a little narrower, else smaller: never tall and thin
            gx = 3 if pitch >= 10 else 1
            if rows * pitch - gx <= width:
                return pitch - gx, h, gx, 1
    return 3, 1, 1, 0  # a very small pane: the labels just fit, rows touch


class HoleBoard(Vertical):
    """The triangle of holes, sized to its pane again on every resize."""

    def __init__(self, rows: int) -> None:
        super().__init__(id="board")
        self.rows = rows

    def compose(self) -> ComposeResult:
        n = 1
        for r in range(self.rows):
            holes = []
            for _ in range(r + 1):
                b = Button(ROLES["empty"].symbol + str(n), id="hole-%d" % n, classes="hole")
                b.can_focus = False  # space and enter are keys here, not clicks on the last hole
                b.styles.line_pad = 0  # the label may fill a small hole (CSS takes no 0 here)
                holes.append(b)
                n += 1
            yield Horizontal(*holes, classes="row")

    def on_resize(self, event: Resize) -> None:
        self.fit()

    def fit(self) -> None:
        size = self.content_size
        w, h, gx, gy = hole_size(self.rows, size.width, size.height)
        for r, row in enumerate(self.query(".row")):
            row.styles.height = h
            row.styles.margin = (0, 0, gy if r < self.rows - 1 else 0, 0)
            for i, hole in enumerate(row.children):
                hole.styles.width = w
                hole.styles.height = h
                hole.styles.margin = (0, 0, 0, gx if i else 0)


class LinkMessage(Message):
    """Something from the BoardLink thread (see pegboard.tui.board_link for the kinds)."""

    def __init__(self, item: tuple[Any, ...]) -> None:
        super().__init__()
        self.item = item


class BoardApp(App[int]):
    ENABLE_COMMAND_PALETTE = False  # its footer key would cover Quit at 80 columns
    CSS_PATH = "app.tcss"
    BINDINGS = [
        Binding("h", "hint", "Hint"),
        Binding("d", "demo", "Demo"),
        Binding("w", "watch", "Watch"),
        Binding("s", "stop", "Stop"),
        Binding("n", "new_game", "New"),  # (short: the footer fits 80 columns)
        Binding("g", "play_here", "Play"),
        Binding("c", "clear", "Clear", show=False),
        Binding("b", "browse", "Solution"),  # while the browser is open b closes it: the next line
        Binding("b", "close", "Close", key_display="b/esc"),
        Binding("escape", "close", "Close", show=False),
        # the games the board keeps, in the browser (, and . go between them): told in the how-to
        # line, as the footer has no room left at 80 columns
        Binding("r", "games", "Games", show=False),
        Binding("v", "review", "Review", show=False),  # where a lost game went wrong: said at game over
        Binding("z", "puzzle", "Puzzle", show=False),  # the next unsolved graded puzzle (its event says which)
        Binding("m", "roles", "roles in motion", show=False),  # a pattern in time each, here and on the board
        Binding("comma", "game(-1)", "older game", show=False),
        Binding("full_stop", "game(1)", "newer game", show=False),
        Binding("p", "press", "Button"),
        Binding("q", "quit", "Quit"),
        Binding("left_square_bracket", "step_back", "step back", show=False),
        Binding("right_square_bracket", "forward", "step on", show=False),
        Binding("space", "step", "solver step", show=False),  # and lift/place where no watch runs
        # (priority: the log would take the arrows and Enter to scroll)
        Binding("enter", "pick", "Move", key_display="⏎", priority=True),
        Binding("up", "cursor(-1, 0)", "hole above", show=False, priority=True),
        Binding("down", "cursor(1, 0)", "hole below", show=False, priority=True),
        Binding("left", "cursor(0, -1)", "hole left", show=False, priority=True),
        Binding("right", "cursor(0, 1)", "hole right", show=False, priority=True),
        # a hole's number typed digit by digit (Enter moves, as the cursor does)
        *(Binding(str(d), "digit(%d)" % d, "hole %d" % d, show=False, priority=True) for d in range(10)),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),  # as in every other command
    ]

    def __init__(self, board: BoardClient, hand: Callable[..., dict[str, Any]] | None = None,
                 title: str = "pegboard", rows: int = 5) -> None:
        super().__init__()
        self.board = board
        self.hand = hand  # the simulator's control port (play mode), or None on a real board
        self.link = BoardLink(board, self._from_link, hand)
        self.state: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.rows = rows
        self.sensed: set[int] = set()  # pegs as the last state (and our own clicks since) say
        self.solution: list[list[int]] = []
        self.sol_start = 0
        self.sol_pos = 0
        self.browsing = False  # the solution browser is open
        self.sol_title = "solution"  # what the browser shows: a solution, or a kept game
        self.games: list[dict[str, Any]] = []  # the games the board keeps (r), oldest first
        self.game_at = -1  # the one in the browser (-1: none)
        self.banner = ""
        self.logged: list[str] = []
        self.started = False  # this UI started a demo or watch: quitting stops it
        self.watching = False  # a watch this UI started runs
        self.watch_steps: WatchSteps | None = None  # the board's watch replayed here, to name its steps
        self.watch_at_speed = False  # the watch this UI started runs at a speed (space steps it from there)
        self.demo: list[list[int]] | None = None  # the running demo's moves, when this UI started it
        self.demo_made = 0  # moves the running demo has made (its demo_step events)
        self.demo_lit: tuple[int, list[int]] | None = None  # the lit move last logged (a demo of unknown moves)
        self.gone: str | None = None  # the port of a board that went away, until it is back
        self.cursor: int | None = None  # the hole the keys act on (shown once a key moves it)
        self.typed = (0, 0.0)  # a hole number being typed: (so far, when its last digit came)
        self.clock = time.monotonic  # what "within a second" is timed by (a test sets its own)
        self.title = title

    # -- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield HoleBoard(self.rows)
                # the board's words are text, never markup: a mode of "[link=...]" is shown as sent
                yield Static("", id="banner", markup=False)
                yield Static("connecting to the board...", id="status", markup=False)
                yield Static(HOW_HAND if self.hand else HOW_BOARD, id="howto")
            with Vertical(id="side"):
                yield Static(legend(), id="legend")
                yield Static("", id="browser", markup=False)
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer(compact=True)  # every key fits in 80 columns (9 keys: 88 columns at the default padding)

    def on_mount(self) -> None:
        self.link.start()
        self.set_interval(MOTION_S, self._motion_tick)

    def on_unmount(self) -> None:
        self.link.stop()
        if self.link.is_alive():
            self.link.join(2)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the footer shows "Solution" while the browser is shut, "Close" in its place while open
        if action == "close":
            return self.browsing
        if action == "browse":
            return not self.browsing
        if action == "pick":  # (room in the footer for Close: the browser's own keys step it)
            return not self.browsing
        return True

    # -- from the link ------------------------------------------------------------------------
    def _from_link(self, item: tuple[Any, ...]) -> None:
        self.post_message(LinkMessage(item))  # thread-safe: runs on_link_message in the UI

    async def on_link_message(self, msg: LinkMessage) -> None:
        kind = msg.item[0]
        if kind == "info":
            await self._set_info(msg.item[1])
        elif kind == "state":
            self._show_state(msg.item[1])
        elif kind == "events":
            self._events(msg.item[1])
        elif kind == "reply":
            self._reply(msg.item[1], msg.item[2])
        elif kind == "error":
            self.logline("! " + msg.item[1])
        elif kind == "gone":
            self._gone(msg.item[1], msg.item[2])
        elif kind == "back":
            self._back()

    def logline(self, text: str) -> None:
        self.logged.append(text)  # as written: the log on screen wraps it
        del self.logged[:-LOG_KEPT]
        self.query_one("#log", RichLog).write(text)

    def _gone(self, port: str, why: str) -> None:
        """The board went away: the holes dimmed, the status says so, until it is back (info)."""
        self.gone = port
        self.query_one(HoleBoard).add_class("gone")
        self.query_one("#status", Static).update("board gone: waiting for it at %s" % port)
        self.logline("! the board at %s is gone (%s): waiting for it" % (port, why))

    def _back(self) -> None:
        if self.gone:
            self.logline("the board is back")
            self.gone = None
            self.query_one(HoleBoard).remove_class("gone")
            self._show_status(self.state)

    async def _set_info(self, info: dict[str, Any]) -> None:
        self.info = info
        self.logline("connected: firmware %s on %s, %s holes" % (info.get("firmware", "?"), info.get("runtime", "?"),
                                                                  info.get("holes", "?")))
        rows = info.get("rows")
        if isinstance(rows, int) and rows != self.rows:
            self.rows = rows
            await self.query_one(HoleBoard).remove()  # the old holes' ids must be gone before the new ones come
            await self.query_one("#left").mount(HoleBoard(rows), before=0)

    def _events(self, events: list[dict[str, Any]]) -> None:
        # a demo this UI did not start: its steps are told from the lights (_log_lit_move)
        told = [e for e in events if self.demo is not None or e.get("event") != "demo_step"]
        for line in batch_text(told, self.demo):
            self.logline(line)
        for e in events:
            self._event(e)

    def _event(self, e: dict[str, Any]) -> None:
        name = e.get("event")
        if name == "game_over":
            self._set_banner(game_over_text(e.get("pegs_left", 0), e.get("verdict")), won=e.get("pegs_left") == 1)
            left = e.get("pegs_left", 0)
            if (type(left) is int and left > 1) or e.get("in_finish") is False:
                self.logline("v (or the board's button) shows where the win was lost")
            else:
                self.logline("z (or three quick presses of the board's button) sets up a graded puzzle")
        elif name in ("new_game", "undo", "resumed"):
            self._set_banner("")
        elif name == "demo_step":
            step = e.get("step")
            self.demo_made = step if type(step) is int else 0
        elif name == "demo_done":
            self.started = False
            self.demo, self.demo_made, self.demo_lit = None, 0, None
        elif name == "watch_done":
            self.started = self.watching = False

    def _reply(self, cmd: str, reply: dict[str, Any]) -> None:
        if cmd == "solve":
            self.sol_title, self.game_at = "solution", -1
            self.solution = board_moves(reply.get("moves"), self._holes())
            self.sol_start = mask_of(board_holes(self.state.get("position"), self._holes()))
            self.sol_pos = 0
            self._show_browser()
        elif cmd == "demo":
            self._demo_started(board_moves(reply.get("moves"), self._holes()))
        elif cmd == "watch":
            self._watch_reply(reply)
        elif cmd == "stop":
            text = stop_text(reply)
            if text:
                self.logline(text)
        elif cmd == "play":
            self.logline("playing from here: %s" % start_text(reply))
        elif cmd == "review":
            self.logline(review_text(reply))
        elif cmd == "records":
            self._records_page(reply)
        if cmd in ("demo", "watch"):
            self.started = True

    def _search_step_text(self, n: Any) -> str:
        """Step n of the board's watch, with its move: the board's search runs from the position it
        follows, so the same core search run here names it."""
        position = board_holes(self.state.get("position"), self._holes())
        if not isinstance(n, int) or not position:
            return "search step %s" % value_text(n)
        mask = mask_of(position)
        if self.watch_steps is None or (self.watch_steps.rows, self.watch_steps.mask) != (self.rows, mask):
            self.watch_steps = WatchSteps(self.rows, mask)
        return self.watch_steps.text(n)

    def _demo_started(self, moves: list[list[int]]) -> None:
        self.demo, self.demo_made = moves, 0
        self.logline("the board demonstrates %s (s stops it)" % count(len(moves), "move"))
        if moves:
            self.logline(demo_move_text(1, moves[0], len(moves)))  # lit as the reply comes

    def _watch_reply(self, reply: dict[str, Any]) -> None:
        self.watching = True
        if "step" in reply and self.watch_at_speed:  # the board goes on from where its watch is
            self.watch_at_speed = False
            self.logline("the search goes on from here a step at a time: space steps, s stops it")
            self.logline(self._search_step_text(reply["step"]))
        elif "step" in reply:
            self.logline(self._search_step_text(reply["step"]))
        elif reply.get("restarted"):
            self.logline("the search starts again from this position, a step at a time: space steps")
        elif reply.get("speed") == 0:
            self.logline("the board shows the solver's search a step at a time: space steps, s stops it")
        else:
            self.watch_at_speed = True
            self.logline("the board shows the solver's search (space: a step at a time, s stops it)")

    def _set_banner(self, text: str, won: bool = False) -> None:
        # its line stays when empty (as the status's 3 do): the holes keep their size
        self.banner = text
        w = self.query_one("#banner", Static)
        w.update(text)
        w.set_class(bool(text) and won, "won")
        w.set_class(bool(text) and not won, "lost")

    def _holes(self) -> int:
        return self.rows * (self.rows + 1) // 2

    def _show_state(self, st: dict[str, Any]) -> None:
        self.state = st
        self.sensed = set(board_holes(st.get("pegs"), self._holes()))
        if not self._paint_holes(st):
            return
        mode = st.get("mode")
        if mode == "demo" and self.demo is None:
            self._log_lit_move(st)
        self._show_status(st)
        if mode == "over":
            if not self.banner:
                left = length(st.get("position", []))
                self._set_banner(game_over_text(left, None), won=left == 1)
        elif mode == "play" and st.get("solvable") is False:
            if not self.banner:
                self._set_banner("Lost: one peg left is out of reach (h: best move)")
                why = board_words(board_holes(st.get("position"), self._holes()), self._holes())
                if why:
                    self.logline("lost: " + why)
        elif mode in ("setup", "play"):
            self._set_banner("")

    def _look(self, h: int, st: dict[str, Any]) -> tuple[str, Color, Color]:
        """Hole h's look; with the board's roles "motion", at its role's level now (as its LED)."""
        if st.get("roles") == "motion":
            return moving_look(h, st, int(self.clock() * 1000))
        return hole_look(h, st)

    def _motion_tick(self) -> None:
        """The roles' patterns in time, redrawn between the board's states (roles "motion")."""
        if self.state.get("roles") == "motion":
            self._paint_holes(self.state)

    def _paint_holes(self, st: dict[str, Any]) -> bool:
        """Every hole's symbol and colours from `st` (False: the rows are being rebuilt)."""
        for h in range(1, self._holes() + 1):
            try:
                btn = self.query_one("#hole-%d" % h, Button)
            except Exception:  # the rows are being rebuilt
                return False
            symbol, bg, fg = self._look(h, st)
            btn.label = symbol + str(h)
            btn.styles.background = bg
            btn.styles.color = fg
            btn.styles.text_style = "reverse bold underline" if h == self.cursor else "none"
        return True

    def _log_lit_move(self, st: dict[str, Any]) -> None:
        """A demo this UI did not start (the board's button, another program): the move it lights."""
        jump = shown_jump(st)
        if jump and (self.demo_made + 1, jump) != self.demo_lit:
            self.demo_lit = (self.demo_made + 1, jump)
            self.logline(demo_move_text(self.demo_made + 1, jump))

    def _show_status(self, st: dict[str, Any]) -> None:
        lines = [mode_text(st, len(self.sensed))]
        if self.watching and st.get("mode") == "demo":
            lines.append(WATCH_HELP)
        if st.get("moves"):
            lines.append(moves_line(st["moves"]))
        if st.get("illegal"):
            lines.append("illegal placement at %s" % holes_text(st["illegal"]))
        self.query_one("#status", Static).update("\n".join(lines))

    # -- actions ------------------------------------------------------------------------------
    def action_hint(self) -> None:
        self.link.ask("hint")

    def action_roles(self) -> None:
        self.link.ask("roles", name="colour" if self.state.get("roles") == "motion" else "motion")

    def action_review(self) -> None:
        self.link.ask("review")

    def action_puzzle(self) -> None:
        self.link.ask("puzzle")  # the board's `puzzle` event says which, in the log

    def action_demo(self) -> None:
        self.link.ask("demo")

    def action_stop(self) -> None:
        self.link.ask("stop")

    def action_watch(self) -> None:
        self.link.ask("watch", speed=150)

    def action_step(self) -> None:
        # a watch runs, or nobody plays from the keys yet: space steps (or starts) a watch;
        # once the cursor is out, space lifts and places as Enter does
        if self.watching or self.state.get("mode") == "demo" or self.cursor is None:
            self.link.step_watch()
        else:
            self.action_pick()

    # -- play from the keyboard: a cursor over the holes, as a click ---------------------------
    def _place(self, h: int) -> tuple[int, int]:
        r = 0
        while (r + 1) * (r + 2) // 2 < h:
            r += 1
        return r, h - 1 - r * (r + 1) // 2

    def _move_cursor(self, h: int) -> None:
        self.cursor = h
        self._show_state(self.state)
        if self.hand is not None:
            self.query_one("#status", Static).update(
                "\n".join([mode_text(self.state, len(self.sensed)), "hole %d: %s (Enter lifts or places)"
                           % (h, "a peg" if h in self.sensed else "empty")]))

    def action_cursor(self, down: int, right: int) -> None:
        self.typed = (0, 0.0)
        if self.cursor is None:
            self._move_cursor(1)
            return
        r, i = self._place(self.cursor)
        r = min(max(r + down, 0), self.rows - 1)
        i = min(max(i + right, 0), r)
        self._move_cursor(r * (r + 1) // 2 + i + 1)

    def action_digit(self, d: int) -> None:
        """A hole by its number: digits typed within a second make one number (1 then 2: hole 12)."""
        so_far, when = self.typed
        now = self.clock()
        n = so_far * 10 + d if so_far and now - when < 1.0 and so_far * 10 + d <= self._holes() else d
        self.typed = (n, now)
        if 1 <= n <= self._holes():
            self._move_cursor(n)

    def action_pick(self) -> None:
        """Lift the peg under the cursor, or place one in its empty hole: as a click on it."""
        self.typed = (0, 0.0)  # the next digit starts a new number
        if self.cursor is None:
            self._move_cursor(1)
            return
        self._toggle(self.cursor)

    def action_press(self) -> None:
        if self.hand is None:
            self.logline("the hint button is on the board itself")
            return
        self.link.move("press", ms=100)

    def action_play_here(self) -> None:
        self.link.ask("play")

    def action_clear(self) -> None:
        if self.hand is None:
            self.logline("take the pegs out of the board by hand: the game ends when it is empty")
            return
        self.sensed = set()
        self.link.move("clear")

    def action_new_game(self) -> None:
        if self.hand is None:
            self.logline("New game: put a peg in every hole but one; the board starts the game by itself.")
            return
        empty = self.state.get("empty_start") or 1
        self.logline("new game: filling every hole but %d" % empty)
        self.link.move("fill", empty=empty)

    def action_browse(self) -> None:
        self.link.ask("solve")

    def action_games(self) -> None:
        self.games = []
        self.link.ask("records", page=0)

    def _records_page(self, reply: dict[str, Any]) -> None:
        page, pages = reply.get("page", 0), reply.get("pages", 0)
        if page == 0:
            self.games = []
        games = reply.get("games")
        self.games += [g for g in games if isinstance(g, dict)] if isinstance(games, list) else []
        if type(page) is int and type(pages) is int and page + 1 < pages:
            self.link.ask("records", page=page + 1)
        elif not self.games:
            self.logline("the board keeps no finished game yet")
        else:
            self._open_game(len(self.games) - 1)

    def _open_game(self, k: int) -> None:
        g = self.games[k]
        self.game_at = k
        self.solution = board_moves(g.get("moves"), self._holes())
        self.sol_start = mask_of(board_holes(g.get("start"), self._holes()))
        self.sol_pos = 0
        result = g.get("result")
        left = "abandoned" if result == "abandoned" else count(result, "peg") + " left"
        if g.get("seconds") is not None:
            left += " in " + clock_text(g["seconds"])
        unreadable = length(g.get("moves")) != len(self.solution)
        self.sol_title = "game %s of %d (%s, %s)%s" % (
            value_text(g.get("n", k + 1)), len(self.games), left,
            ", . other games" if len(self.games) > 1 else "the only one",
            "\nits moves as kept: %s" % value_text(g.get("moves")) if unreadable else "")
        self._show_browser()

    def action_game(self, step: int) -> None:
        if self.browsing and self.game_at >= 0 and 0 <= self.game_at + step < len(self.games):
            self._open_game(self.game_at + step)

    def action_close(self) -> None:
        self.browsing = False
        self.game_at = -1
        self.query_one("#browser", Static).display = False
        self.refresh_bindings()

    def action_forward(self) -> None:
        if self.browsing and self.sol_pos < len(self.solution):
            self.sol_pos += 1
            self._show_browser()

    def action_step_back(self) -> None:  # not action_back: that is Textual's "previous screen"
        if self.browsing and self.sol_pos > 0:
            self.sol_pos -= 1
            self._show_browser()

    async def action_quit(self) -> None:
        if self.started and self.state.get("mode") == "demo":
            self.link.ask("stop")  # what this UI started does not outlive it
            for _ in range(20):
                if self.link.jobs.empty():
                    break
                await self._sleep(0.025)
        self.exit(0)

    async def _sleep(self, s: float) -> None:
        import asyncio

        await asyncio.sleep(s)

    def _show_browser(self) -> None:
        g = Board(self.rows)
        m = self.sol_start
        for mv in self.solution[:self.sol_pos]:
            m ^= (1 << (mv[0] - 1)) | (1 << (mv[1] - 1)) | (1 << (mv[2] - 1))
        head = "%s\nmove %d/%d" % (self.sol_title, self.sol_pos, len(self.solution)) if self.game_at >= 0 else \
            "solution %d/%d" % (self.sol_pos, len(self.solution))
        head += (": " + move_text(self.solution[self.sol_pos - 1])) if self.sol_pos else "  ([ ] step)"
        last = self.solution[self.sol_pos - 1] if self.sol_pos else None
        key = "\n◇ it landed  ◌ emptied" if last else ""
        w = self.query_one("#browser", Static)
        w.update(head + "\n" + render_numbered(g, m, last) + key)
        w.display = True
        if not self.browsing:
            self.browsing = True
            self.refresh_bindings()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not event.button.id or not event.button.id.startswith("hole-"):
            return
        self._toggle(int(event.button.id.split("-")[1]))

    def _toggle(self, h: int) -> None:
        if self.hand is None:
            self.logline("lift and place the real pegs: the screen follows the board")
            return
        # decide from our own clicks too: the state reply for the last click may not be in yet
        if h in self.sensed:
            self.sensed.discard(h)
            self.link.move("lift", hole=h)
        else:
            self.sensed.add(h)
            self.link.move("place", hole=h)
