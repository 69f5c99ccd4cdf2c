"""The terminal UI's link to the board: one thread owns the serial client (and the simulator's hand,
if any), reads events as they arrive and hands everything to the UI through `post(message)`.
The UI never touches the port itself, so a slow reply or a pulled cable never freezes a key.

What it posts (plain tuples, the UI wraps them in Textual messages):
  ("info", reply)              once connected: rows, holes, firmware
  ("events", [event, ...])     as they arrive, then a fresh
  ("state", reply)             after every event batch and every request
  ("reply", cmd, reply)        a request's answer
  ("error", text)              a request the board refused
  ("gone", port, why)          the port failed (once, at once, while the link waits for the board)
  ("back",)                    it is open again
Events that arrive while a request waits for its reply are posted before that reply (and before
the state after it), in the order the board sent them: the log keeps step with the lights.

The board sends an event for every change of its pegs, so the picture is redrawn from events. Its
animations (a hint's blinking, a demo, the solver show, the self-test chase) change only LEDs and
send no event per frame: while one runs, and only then, the lights are re-read 4 times a second.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable

from pegboard.link.client import BoardClient, BoardError

# how long the firmware shows a hint (pegfw.shows.HintShow: 4 s, +1.2 s when lost)
HINT_SHOW_S = 5.4
ANIMATION_REREAD_S = 0.25
POLL_S = 0.03


# requests the board may answer only after a search in slices (21 and 28 holes): seconds to wait
LONG_REQUESTS = {"review": 120.0}

class BoardLink(threading.Thread):
    def __init__(self, board: BoardClient, post: Callable[[tuple[Any, ...]], None],
                 hand: Callable[..., dict[str, Any]] | None = None) -> None:
        super().__init__(name="pegboard-link", daemon=True)
        self.board = board
        self.post = post
        self.hand = hand
        self.jobs: queue.Queue[tuple[str, str, dict[str, Any]]] = queue.Queue()
        self.stopping = threading.Event()
        self.state: dict[str, Any] = {}
        self._animated_until = 0.0
        self._refreshed = 0.0
        self._gone = False  # told the UI the board is gone: told once, until it is back
        link = getattr(board, "link", None)
        if link is not None:  # the port's own hooks: the UI hears of a pulled cable at once
            was_back = link.on_back

            def back() -> None:
                if was_back:
                    was_back()
                self._back()
            link.on_lost = lambda: self._lost("the port failed")
            link.on_back = back

    def _lost(self, why: str) -> None:
        if not self._gone:
            self._gone = True
            self.post(("gone", self.board.port or "the board's port", why))

    def _back(self) -> None:
        if self._gone:
            self._gone = False
            self.post(("back",))

    # -- called from the UI thread ------------------------------------------------------------
    def ask(self, cmd: str, **args: Any) -> None:
        """Send a request to the board; its reply comes back as ("reply", cmd, reply)."""
        self.jobs.put(("board", cmd, args))

    def step_watch(self) -> None:
        """The solver's next step, whatever started the watch: the board turns a watch running at
        a speed into one stepped from where it is (firmware before that answered busy: then the
        watch is stopped and started again a step at a time)."""
        self.jobs.put(("step", "watch", {"step": True}))

    def move(self, cmd: str, **args: Any) -> None:
        """A hand on the simulated board (lift, place, fill, press ...)."""
        self.jobs.put(("hand", cmd, args))

    def stop(self) -> None:
        self.stopping.set()

    # -- the thread ---------------------------------------------------------------------------
    def run(self) -> None:
        connected = False
        while not self.stopping.is_set():
            try:
                if not connected:
                    self.post(("info", self.board.request("info")))
                    self._back()
                    self._refresh()
                    connected = True
                self._do_jobs()
                if self._post_events(self.board.poll(POLL_S)):
                    self._refresh()
                elif self._animating() and time.monotonic() - self._refreshed > ANIMATION_REREAD_S:
                    self._refresh()
            except BoardError as e:
                self._lost(str(e))
                connected = False
                self.board.close()
                self.stopping.wait(0.5)
            except Exception as e:  # noqa: BLE001 - a thread that dies silently would freeze the picture
                self.post(("error", "the link to the board failed (%s: %s); trying again" % (type(e).__name__, e)))
                self.stopping.wait(1.0)
        self.board.close()

    def _post_events(self, events: list[dict[str, Any]]) -> bool:
        if events:
            self.post(("events", events))
            if any(e.get("event") in ("hint", "demo_step", "button") for e in events):
                self._animated_until = time.monotonic() + HINT_SHOW_S
        return bool(events)

    def _animating(self) -> bool:
        # "starting": the board has not read its pegs yet, and an empty board tells no event when it has
        # a show whose roles change with time (a lost hint's blink, a review's two moves in turn)
        return (self.state.get("mode") in ("demo", "starting") or time.monotonic() < self._animated_until
                or (self.state.get("show") or {}).get("kind") in ("hint", "review"))

    def _refresh(self) -> None:
        self.state = self.board.request("state")
        self._refreshed = time.monotonic()
        # events that came before the reply go first: a demo's step is told before its lights
        self._post_events(self.board.poll(0))
        self.post(("state", self.state))

    def _do_jobs(self) -> None:
        while True:
            try:
                kind, cmd, args = self.jobs.get_nowait()
            except queue.Empty:
                return
            if kind == "hand":
                try:
                    assert self.hand is not None
                    self.hand(cmd, **args)
                except Exception as e:  # noqa: BLE001 - the hand's refusals are shown, not fatal
                    self.post(("error", "%s: %s" % (cmd, e)))
                continue
            try:
                reply = self._step_watch() if kind == "step" else \
                    self.board.request(cmd, timeout=LONG_REQUESTS.get(cmd), **args)
            except BoardError as e:
                if e.code in ("no_reply", "no_board", "disconnected"):
                    raise
                self.post(("error", "%s: %s" % (cmd, e)))
                continue
            if cmd in ("demo", "watch", "selftest", "hint"):
                self._animated_until = time.monotonic() + HINT_SHOW_S
            self._post_events(self.board.poll(0))  # what happened before the reply is told first
            self.post(("reply", cmd, reply))
            self._refresh()

    def _step_watch(self) -> dict[str, Any]:
        try:
            return self.board.request("watch", step=True)
        except BoardError as e:
            # busy with a watch (pegfw.app.check_idle names the show): older firmware, a watch at a speed
            if e.code != "busy" or "watch" not in str(e):
                raise
        self.board.request("stop")
        return dict(self.board.request("watch", step=True), restarted=True)
