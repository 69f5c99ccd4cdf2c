"""The live terminal UI of the board (`pegboard mirror`, `pegboard play`): LED colours as the
board sends them, pegs, mode, an event log, hint/demo/stop/watch keys, and a solution browser.
In play mode (the simulated board) clicking a hole lifts or places a peg, as a hand would."""

from __future__ import annotations

import json
from typing import Any, Callable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, RichLog, Static

from pegcore.geometry import Board as Geometry
from pegcore.rules import mask_of
from pegboard.client import Board, BoardError
from pegboard.render import move_text, render_board


def _visible(rgb: list[int]) -> Color:
    # LEDs run at ~40 % brightness: lift dim colours so the terminal shows what the eye sees
    m = max(rgb) if rgb else 0
    if m == 0:
        return Color(20, 20, 20)
    k = 255 / m if m < 128 else 1.0
    return Color(*(min(255, int(c * k)) for c in rgb))


class BoardApp(App[int]):
    CSS = """
    #board { width: 44; height: auto; padding: 1; }
    .row { height: 3; align-horizontal: center; }
    .hole { min-width: 6; width: 6; margin: 0 1; }
    #status { height: auto; padding: 0 1; }
    #browser { height: auto; padding: 0 1; border: round $accent; }
    #log { border: round $primary; }
    """
    BINDINGS = [
        Binding("h", "hint", "Hint"),
        Binding("d", "demo", "Demo"),
        Binding("s", "stop", "Stop"),
        Binding("w", "watch", "Watch solver"),
        Binding("n", "step", "Step"),
        Binding("b", "browse", "Solution"),
        Binding("left_square_bracket", "back", "◀"),
        Binding("right_square_bracket", "forward", "▶"),
        Binding("p", "press", "Button"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, board: Board, hand: Callable[..., dict[str, Any]] | None = None,
                 title: str = "pegboard") -> None:
        super().__init__()
        self.board = board
        self.hand = hand  # the simulator's control port (play mode), or None on a real board
        self.state: dict[str, Any] = {}
        self.rows = 5
        self.solution: list[list[int]] = []
        self.sol_start = 0
        self.sol_pos = 0
        self.title = title
        self._dirty = True

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="board"):
                n = 1
                for r in range(self.rows):
                    with Horizontal(classes="row"):
                        for _ in range(r + 1):
                            yield Button(str(n), id="hole-%d" % n, classes="hole")
                            n += 1
                yield Static("", id="status")
                yield Static("b: show the board's solution, [ ] to step through it", id="browser")
            yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_state()
        self.set_interval(0.05, self.poll)
        self.set_interval(0.25, self._refresh_if_needed)

    # -- data ----------------------------------------------------------------------------
    def logline(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def poll(self) -> None:
        try:
            events = self.board.poll(0)
        except BoardError as e:
            self.logline("! %s" % e)
            return
        for e in events:
            name = e.get("event")
            rest = {k: v for k, v in e.items() if k not in ("event", "seq")}
            self.logline("%s %s" % (name, json.dumps(rest) if rest else ""))
            self._dirty = True

    def _refresh_if_needed(self) -> None:
        if self._dirty or self.state.get("mode") == "demo":
            self.refresh_state()

    def refresh_state(self) -> None:
        self._dirty = False
        try:
            self.state = self.board.request("state")
        except BoardError as e:
            self.logline("! state: %s" % e)
            return
        pegs = set(self.state.get("pegs", []))
        lights = self.state.get("lights") or []
        for h in range(1, self.rows * (self.rows + 1) // 2 + 1):
            btn = self.query_one("#hole-%d" % h, Button)
            btn.label = ("●" if h in pegs else "○") + str(h)
            if h - 1 < len(lights):
                btn.styles.background = _visible(lights[h - 1])
        st = self.state
        text = "mode: %s   pegs: %d   start: %s" % (st.get("mode"), len(pegs), st.get("empty_start"))
        if st.get("moves"):
            text += "\nmoves: " + " ".join("%d-%d" % (m[0], m[2]) for m in st["moves"][-8:])
        if st.get("illegal"):
            text += "\nillegal placement at %s" % st["illegal"]
        self.query_one("#status", Static).update(text)

    # -- actions ------------------------------------------------------------------------
    def _ask(self, cmd: str, **args: Any) -> dict[str, Any] | None:
        try:
            r = self.board.request(cmd, **args)
        except BoardError as e:
            self.logline("! %s: %s" % (cmd, e))
            return None
        self._dirty = True
        return r

    def action_hint(self) -> None:
        r = self._ask("hint")
        if r and r["move"]:
            self.logline("hint: %s%s" % (move_text(r["move"]), "" if r["solvable"] else
                                         " (lost: best is %d pegs)" % r["best_left"]))

    def action_demo(self) -> None:
        self._ask("demo")

    def action_stop(self) -> None:
        self._ask("stop")

    def action_watch(self) -> None:
        self._ask("watch", speed=150)

    def action_step(self) -> None:
        if self.state.get("mode") == "demo":
            self._ask("watch", step=True)
        else:
            self._ask("watch", step=True)

    def action_press(self) -> None:
        if self.hand is None:
            self.logline("the hint button is on the board itself")
            return
        self.hand("press", ms=100)

    def action_browse(self) -> None:
        r = self._ask("solve")
        if r is None:
            return
        self.solution = r["moves"]
        self.sol_start = mask_of(self.state.get("position", self.state.get("pegs", [])))
        self.sol_pos = 0
        self._show_browser()

    def action_forward(self) -> None:
        if self.sol_pos < len(self.solution):
            self.sol_pos += 1
            self._show_browser()

    def action_back(self) -> None:
        if self.sol_pos > 0:
            self.sol_pos -= 1
            self._show_browser()

    def _show_browser(self) -> None:
        g = Geometry(self.rows)
        m = self.sol_start
        for mv in self.solution[:self.sol_pos]:
            m ^= (1 << (mv[0] - 1)) | (1 << (mv[1] - 1)) | (1 << (mv[2] - 1))
        head = "solution step %d/%d" % (self.sol_pos, len(self.solution))
        if 0 < self.sol_pos:
            head += ": " + move_text(self.solution[self.sol_pos - 1])
        self.query_one("#browser", Static).update(head + "\n" + render_board(g, m))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.hand is None or not event.button.id:
            return
        h = int(event.button.id.split("-")[1])
        pegs = set(self.state.get("pegs", []))
        try:
            self.hand("lift" if h in pegs else "place", hole=h)
            self.hand("wait_idle")
        except Exception as e:  # the hand's errors are shown, not fatal
            self.logline("! %s" % e)
        self.refresh_state()
