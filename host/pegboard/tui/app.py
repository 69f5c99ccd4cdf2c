"""The live terminal UI of the board (`pegboard mirror`, `pegboard run`): the holes in the colours
the board lights them, a legend, the events in plain words, a win/lost banner, a solution browser
and keys for the board's requests. A BoardLink thread owns the port and posts what arrives; this
app only draws. With a hand (the simulator's control port) clicking a hole lifts or places a peg,
as a hand would; on a real board the player moves real pegs and the screen follows."""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Footer, Header, RichLog, Static

from pegcore.geometry import Board
from pegcore.rules import mask_of
from pegboard.tui.board_link import BoardLink
from pegboard.link.client import BoardClient
from pegboard.pictures.text import move_text, render_board
from pegboard.tui.words import batch_text, game_over_text, mode_text, start_text

EMPTY_LED = (0, 0, 20)  # pegfw.colors.EMPTY: shown neutral here, so it never looks like the hint's blue
DARK = Color(32, 32, 32)

LEGEND = [
    [("●", None), (" peg  ", None), ("○", None), (" empty  ", None), ("  ", "#ff963c"), (" lit peg  ", None),
     ("  ", "#ffffff"), (" demo", None)],
    [("  ", "#0050ff"), (" hint: jump this ", None), ("  ", "#ff00c8"), (" over this ", None),
     ("  ", "#00ff78"), (" into here", None)],
    [("  ", "#00ff00"), (" lifted peg may land  ", None), ("  ", "#ff3c00"), (" pull this peg", None)],
    [("  ", "#ff0000"), (" illegal placement, or lost", None)],
]

HOW_HAND = ("To move: click the peg that jumps, then the empty hole it lands in, then the peg it "
            "jumped over (to take it out). Click a hole again to put a peg back. To set a position: "
            "c clears the board, clicks add and remove pegs, g plays from there.")
HOW_BOARD = ("Move the real pegs on the board: this screen follows it. Lift the jumping peg, put it in "
             "the empty hole, pull the jumped peg. Take every peg out to end a game; set any pegs and "
             "press g (or hold the board's button 3 s) to play from there.")


def _visible(rgb: list[int]) -> Color:
    # LEDs run at ~40 % brightness: lift dim colours so the terminal shows what the eye sees
    if not rgb or max(rgb) == 0 or tuple(rgb) == EMPTY_LED:
        return DARK
    m = max(rgb)
    k = 255 / m if m < 128 else 1.0
    r, g, b = (min(255, int(c * k)) for c in rgb[:3])
    return Color(r, g, b)


def _legend() -> Text:
    text = Text()
    for n, line in enumerate(LEGEND):
        if n:
            text.append("\n")
        for words, bg in line:
            text.append(words, style="on %s" % bg if bg else "")
    return text


class LinkMessage(Message):
    """Something from the BoardLink thread (see pegboard.tui.board_link for the kinds)."""

    def __init__(self, item: tuple[Any, ...]) -> None:
        super().__init__()
        self.item = item


class BoardApp(App[int]):
    ENABLE_COMMAND_PALETTE = False  # its footer key would cover Quit at 80 columns
    CSS = """
    #left { width: 34; height: 1fr; }
    #board { height: auto; padding: 1 0 0 0; }
    .row { height: 1; align-horizontal: center; }
    .row.spaced { height: 2; }
    .hole { width: 5; min-width: 5; height: 1; border: none; padding: 0; margin: 0 1 0 0; }
    #banner { height: auto; padding: 0 1; text-style: bold; background: $success; display: none; }
    #banner.lost { background: $error; }
    #status { height: auto; padding: 0 1; }
    #howto { height: auto; padding: 0 1; color: $text-muted; }
    #right { width: 1fr; height: 1fr; }
    #legend { height: auto; padding: 0 1; }
    #browser { height: auto; padding: 0 1; border: round $accent; display: none; }
    #log { height: 1fr; border: round $primary; }
    """
    BINDINGS = [
        Binding("h", "hint", "Hint"),
        Binding("d", "demo", "Demo"),
        Binding("w", "watch", "Watch"),
        Binding("s", "stop", "Stop"),
        Binding("n", "new_game", "New game"),
        Binding("g", "play_here", "Play here"),
        Binding("c", "clear", "Clear", show=False),
        Binding("b", "browse", "Solution"),
        Binding("p", "press", "Button"),
        Binding("q", "quit", "Quit"),
        Binding("left_square_bracket", "step_back", "step back", show=False),
        Binding("right_square_bracket", "forward", "step on", show=False),
        Binding("space", "step", "solver step", show=False),
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
        self.banner = ""
        self.started = False  # this UI started a demo or watch: quitting stops it
        self.title = title

    # -- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield Vertical(*self._hole_rows(), id="board")
                yield Static("", id="banner")
                yield Static("connecting to the board...", id="status")
                yield Static(HOW_HAND if self.hand else HOW_BOARD, id="howto")
            with Vertical(id="right"):
                yield Static(_legend(), id="legend")
                yield Static("", id="browser")
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer(compact=True)  # every key fits in 80 columns (9 keys: 88 columns at the default padding)

    def _hole_rows(self) -> list[Horizontal]:
        out = []
        n = 1
        for r in range(self.rows):
            holes = []
            for _ in range(r + 1):
                b = Button(HOLE_GLYPH + str(n), id="hole-%d" % n, classes="hole")
                b.can_focus = False  # space and enter are keys here, not clicks on the last hole
                holes.append(b)
                n += 1
            spaced = " spaced" if self.rows <= 6 and r < self.rows - 1 else ""
            out.append(Horizontal(*holes, classes="row" + spaced))
        return out

    def _left_width(self) -> int:
        return max(34, self.rows * 6 + 2)

    def on_mount(self) -> None:
        self.query_one("#left").styles.width = self._left_width()
        self.link.start()

    def on_unmount(self) -> None:
        self.link.stop()
        self.link.join(2)

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
            for line in batch_text(msg.item[1]):
                self.logline(line)
            for e in msg.item[1]:
                self._event(e)
        elif kind == "reply":
            self._reply(msg.item[1], msg.item[2])
        elif kind == "error":
            self.logline("! " + msg.item[1])

    def logline(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    async def _set_info(self, info: dict[str, Any]) -> None:
        self.info = info
        self.logline("connected: firmware %s on %s, %s holes" % (info.get("firmware"), info.get("runtime"),
                                                                  info.get("holes")))
        rows = info.get("rows")
        if isinstance(rows, int) and rows != self.rows:
            self.rows = rows
            self.query_one("#left").styles.width = self._left_width()  # before the holes, so they never overflow
            box = self.query_one("#board", Vertical)
            await box.remove_children()  # the old holes' ids must be gone before the new ones come
            await box.mount(*self._hole_rows())

    def _event(self, e: dict[str, Any]) -> None:
        name = e.get("event")
        if name == "game_over":
            self._set_banner(game_over_text(e.get("pegs_left", 0), e.get("verdict")), won=e.get("pegs_left") == 1)
        elif name in ("new_game", "undo", "resumed"):
            self._set_banner("")
        elif name == "demo_done":
            self.started = False

    def _reply(self, cmd: str, reply: dict[str, Any]) -> None:
        if cmd == "solve":
            self.solution = reply["moves"]
            self.sol_start = mask_of(self.state.get("position", []))
            self.sol_pos = 0
            self._show_browser()
        elif cmd == "demo":
            self.logline("the board demonstrates %d moves (s stops it)" % len(reply.get("moves", [])))
        elif cmd == "watch" and "step" not in reply:
            self.logline("the board shows the solver's search (s stops it, space steps)")
        elif cmd == "stop":
            self.logline("stopped %s" % (reply.get("stopped") or "nothing"))
        elif cmd == "play":
            self.logline("playing from here: %s" % start_text(reply))
        if cmd in ("demo", "watch"):
            self.started = True

    def _set_banner(self, text: str, won: bool = False) -> None:
        self.banner = text
        w = self.query_one("#banner", Static)
        w.update(text)
        w.display = bool(text)
        w.set_class(not won, "lost")

    def _show_state(self, st: dict[str, Any]) -> None:
        self.state = st
        self.sensed = set(st.get("pegs", []))
        lights = st.get("lights") or []
        for h in range(1, self.rows * (self.rows + 1) // 2 + 1):
            try:
                btn = self.query_one("#hole-%d" % h, Button)
            except Exception:  # the rows are being rebuilt
                return
            btn.label = (PEG_GLYPH if h in self.sensed else HOLE_GLYPH) + str(h)
            bg = _visible(lights[h - 1]) if h - 1 < len(lights) else DARK
            btn.styles.background = bg
            btn.styles.color = Color(0, 0, 0) if bg.brightness > 0.5 else Color(230, 230, 230)
        mode = st.get("mode")
        lines = [mode_text(st, len(self.sensed))]
        if st.get("moves"):
            lines.append("moves: " + " ".join("%d-%d" % (m[0], m[2]) for m in st["moves"][-6:]))
        if st.get("illegal"):
            lines.append("illegal placement at %s" % ", ".join(map(str, st["illegal"])))
        self.query_one("#status", Static).update("\n".join(lines))
        if mode == "over":
            if not self.banner:
                left = len(st.get("position", []))
                self._set_banner(game_over_text(left, None), won=left == 1)
        elif mode == "play" and st.get("solvable") is False:
            if not self.banner:
                self._set_banner("Lost: one peg left is out of reach now (h: the best move left)")
        elif mode in ("setup", "play"):
            self._set_banner("")

    # -- actions ------------------------------------------------------------------------------
    def action_hint(self) -> None:
        self.link.ask("hint")

    def action_demo(self) -> None:
        self.link.ask("demo")

    def action_stop(self) -> None:
        self.link.ask("stop")

    def action_watch(self) -> None:
        self.link.ask("watch", speed=150)

    def action_step(self) -> None:
        self.link.ask("watch", step=True)

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

    def action_forward(self) -> None:
        if self.sol_pos < len(self.solution):
            self.sol_pos += 1
            self._show_browser()

    def action_step_back(self) -> None:  # not action_back: that is Textual's "previous screen"
        if self.sol_pos > 0:
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
        head = "solution %d/%d" % (self.sol_pos, len(self.solution))
        head += (": " + move_text(self.solution[self.sol_pos - 1])) if self.sol_pos else "  ([ ] step)"
        w = self.query_one("#browser", Static)
        w.update(head + "\n" + render_board(g, m))
        w.display = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not event.button.id or not event.button.id.startswith("hole-"):
            return
        if self.hand is None:
            self.logline("lift and place the real pegs: the screen follows the board")
            return
        h = int(event.button.id.split("-")[1])
        # decide from our own clicks too: the state reply for the last click may not be in yet
        if h in self.sensed:
            self.sensed.discard(h)
            self.link.move("lift", hole=h)
        else:
            self.sensed.add(h)
            self.link.move("place", hole=h)


PEG_GLYPH = "●"
HOLE_GLYPH = "○"
