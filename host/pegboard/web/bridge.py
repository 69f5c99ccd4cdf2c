"""The page's server's way to the board: ONE program on the board's hub (pegboard.link.hub) for every
browser, in a thread of its own that owns the hub link. Browsers' requests go out with ids of the
bridge's own and each reply goes back to the browser that asked, under its own id; every event goes
to every browser.

`state` is the request every page sends after each batch of events: askers that come while one is
on its way, and no event has arrived since it left, share its reply, and a reply younger than
STATE_FRESH_S with no event since is answered again without asking; after an event the bridge asks
at once, before the pages do, so theirs meet the answer on its way. So twenty pages cost the board
about what one costs (tests/test_web_timing.py counts it).

The hub tells the bridge when the board is unplugged and back ("lost"/"back"); a hub that ends
(the board did not come back) is left, and the bridge attaches again every second, to a new hub,
until the board is there. Each change is passed on to the browsers as {"web": ...}."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from pegboard.link.errors import NoBoard
from pegboard.link.hub_link import HubLink

STATE_FRESH_S = 0.1   # a state reply this young, with no event since, answers another asker
READ_S = 0.01         # how long the thread waits for the board before it looks at the browsers' requests
REATTACH_S = 1.0      # how often a board that went away is looked for
PENDING_MAX = 1000    # requests awaiting a reply; the oldest are forgotten past this
BOARD_LINE_MAX = 512  # the board's request limit: a longer request is refused here, with its id

Asker = tuple[Any, Any, bool]  # (viewer, its id, whether it gave one)


class Bridge(threading.Thread):
    """`attach()` opens the board's hub link (raising NoBoard); `deliver(viewer, text)` sends a
    line to one browser (viewer) or to all (None). Both are called from this thread."""

    def __init__(self, attach: Callable[[], HubLink], deliver: Callable[[Any, str], None],
                 link: HubLink | None = None) -> None:
        super().__init__(name="pegboard-web-bridge", daemon=True)
        self.attach = attach
        self.deliver = deliver
        self.inbox: queue.Queue[tuple[Any, dict[str, Any] | None]] = queue.Queue()
        self.stopping = threading.Event()
        self.pending: OrderedDict[str, Asker] = OrderedDict()
        self.ids = 0
        self.link: HubLink | None = None
        self.board_up = False
        self.port: str | None = None
        self.events_seen = 0          # board lines that were not replies: a state older than the last one is stale
        self.cache: tuple[dict[str, Any], float, int] | None = None   # last state reply, when, events_seen then
        self.flight: tuple[str, int] | None = None                    # state on its way: hub id, events_seen then
        self.waiters: list[Asker] = []   # askers sharing the state on its way
        self.after: list[Asker] = []     # askers who came after an event: a new state when it lands
        self.refetch = False              # an event came while a state was on its way: ask again when it lands
        self.sent = 0                     # requests sent to the board (the coalescing's effect)
        self.asked = 0                    # requests browsers made
        if link is not None:
            self._use(link)

    # -- from the server's thread -----------------------------------------------------------------
    def submit(self, viewer: Any, obj: dict[str, Any]) -> None:
        self.inbox.put((viewer, obj))

    def forget(self, viewer: Any) -> None:
        """A browser went away: its requests' replies go nowhere (nothing waits on the board)."""
        self.inbox.put((viewer, None))

    def stop(self) -> None:
        self.stopping.set()

    # -- the thread ----------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                if self.link is None:
                    self._reattach()
                    continue
                try:
                    self._requests()
                    line = self.link.read_line(READ_S)
                    while line is not None:
                        self._from_board(line)
                        line = self.link.read_line(0)
                except NoBoard as e:
                    self._gone(str(e))
                except OSError as e:
                    self._gone("the way to the board failed: %s" % e)
        finally:
            if self.link is not None:
                self.link.close()  # leave the hub: the last program out frees the port

    def _use(self, link: HubLink) -> None:
        self.link = link
        self.board_up = True
        self.port = link.connected_to or link.target
        link.on_lost = self._lost
        link.on_back = self._back

    def _reattach(self) -> None:
        try:
            link = self.attach()
        except (NoBoard, OSError):
            self._refuse_queued("the board is not there")
            self.stopping.wait(REATTACH_S)
            return
        self._use(link)
        self.deliver(None, json.dumps({"web": "back", "port": self.port}))

    def _lost(self) -> None:
        self.board_up = False
        self.cache = None
        self.deliver(None, json.dumps({"web": "lost"}))

    def _back(self) -> None:
        self._fail_in_flight("the board was unplugged while this request was on its way: ask again")
        self.board_up = True
        if self.link is not None:
            self.port = self.link.connected_to or self.port
        self.deliver(None, json.dumps({"web": "back", "port": self.port}))

    def _gone(self, why: str) -> None:
        if self.link is not None:
            self.link.close()
        self.link = None
        self.board_up = False
        self._fail_in_flight(why)
        self.deliver(None, json.dumps({"web": "gone", "message": why}))

    def _fail_in_flight(self, why: str) -> None:
        """Answer every request on its way, whose answer will not come (a fresh link to the board):
        each page learns it at once, and counts it answered."""
        askers = list(self.pending.values()) + self.waiters + self.after
        self.cache = self.flight = None
        self.refetch = False
        self.pending.clear()
        self.waiters, self.after = [], []
        for asker in askers:
            self._answer(asker, {"ok": False, "error": "disconnected", "message": why})

    # -- browsers' requests ------------------------------------------------------------------------
    def _requests(self) -> None:
        while True:
            try:
                viewer, obj = self.inbox.get_nowait()
            except queue.Empty:
                return
            if obj is None:
                self._drop_viewer(viewer)
                continue
            self.asked += 1
            asker: Asker = (viewer, obj.get("id"), "id" in obj)
            if not self.board_up:
                self._answer(asker, {"ok": False, "error": "disconnected", "message": "the board is unplugged"})
            elif obj.get("cmd") == "state" and set(obj) <= {"id", "cmd"}:
                self._state(asker)
            else:
                self._send(asker, obj)

    def _refuse_queued(self, why: str) -> None:
        while True:
            try:
                viewer, obj = self.inbox.get_nowait()
            except queue.Empty:
                return
            if obj is not None:
                self._answer((viewer, obj.get("id"), "id" in obj), {"ok": False, "error": "disconnected",
                                                                    "message": why})

    def _drop_viewer(self, viewer: Any) -> None:
        for key in [k for k, a in self.pending.items() if a[0] is viewer]:
            del self.pending[key]
        self.waiters = [a for a in self.waiters if a[0] is not viewer]
        self.after = [a for a in self.after if a[0] is not viewer]

    def _state(self, asker: Asker) -> None:
        if self.cache is not None and self.cache[2] == self.events_seen and \
                time.monotonic() - self.cache[1] < STATE_FRESH_S:
            self._answer(asker, self.cache[0])
        elif self.flight is not None and self.flight[1] == self.events_seen:
            self.waiters.append(asker)
        elif self.flight is not None:
            self.after.append(asker)  # an event came since that one left: it may not show it
        else:
            self.waiters = [asker]
            self.flight = (self._write({"cmd": "state"}), self.events_seen)

    def _send(self, asker: Asker, obj: dict[str, Any]) -> None:
        out = dict(obj)
        out.pop("id", None)
        if len(json.dumps(dict(out, id="w0000"), separators=(",", ":"))) > BOARD_LINE_MAX:
            self._answer(asker, {"ok": False, "error": "line_too_long",
                                 "message": "the request is over the board's %d bytes" % BOARD_LINE_MAX})
            return
        self.pending[self._write(out)] = asker
        while len(self.pending) > PENDING_MAX:
            self.pending.popitem(last=False)

    def _write(self, obj: dict[str, Any]) -> str:
        assert self.link is not None
        self.ids += 1
        hub_id = "w%x" % self.ids
        self.sent += 1
        self.link.write((json.dumps(dict(obj, id=hub_id), separators=(",", ":")) + "\n").encode())
        return hub_id

    def _answer(self, asker: Asker, reply: dict[str, Any]) -> None:
        viewer, their_id, had_id = asker
        out = {k: v for k, v in reply.items() if k != "id"}
        text = json.dumps(dict({"id": their_id}, **out) if had_id else out)
        self.deliver(viewer, text)

    # -- the board's lines ---------------------------------------------------------------------------
    def _from_board(self, line: bytes) -> None:
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "event" not in obj and ("id" in obj or "ok" in obj):
            rid = obj.get("id")
            if self.flight is not None and rid == self.flight[0]:
                self._state_landed(obj)
            elif isinstance(rid, str) and rid in self.pending:
                self._answer(self.pending.pop(rid), obj)
            return  # a reply to nobody here (a request from before a reattach)
        self.events_seen += 1
        self.deliver(None, line.decode("utf-8", "replace"))
        # every page asks `state` after events: ask now (or as soon as the state on its way lands),
        # and their asking meets the answer on its way
        if self.flight is None:
            self.waiters = []
            self.flight = (self._write({"cmd": "state"}), self.events_seen)
        else:
            self.refetch = True

    def _state_landed(self, reply: dict[str, Any]) -> None:
        assert self.flight is not None
        if reply.get("ok"):
            self.cache = (reply, time.monotonic(), self.flight[1])
        for asker in self.waiters:
            self._answer(asker, reply)
        self.flight = None
        self.waiters, self.after = self.after, []
        if self.waiters or self.refetch:
            self.refetch = False
            self.flight = (self._write({"cmd": "state"}), self.events_seen)
