"""The protocol client for the board's serial protocol v1 (docs/protocol.md): requests with ids and
timeouts, their replies, the event stream with sequence-gap detection, and resync after a gap, a
restart or a reconnect. The bytes travel over a `SerialLink` (pegboard.link.serial_link), which opens
the port and reconnects after the cable is pulled."""

from __future__ import annotations

import itertools
import json
import secrets
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterator

from pegboard.link.errors import BoardError, NoBoard
from pegboard.link.ports import find_data_port
from pegboard.link.serial_link import SerialLink

if TYPE_CHECKING:
    from pegboard.link.hub_link import HubLink

__all__ = ["BoardClient", "BoardError", "NoBoard", "resync_event"]


# The requests the board answers from code always in memory (firmware/pegfw/commands.py's EVERYDAY
# ones; a test holds this to that table): every other is answered by code the board compiles for
# it (pegfw.ondemand), a few hundred ms on the chip and seconds on an emulated one, so the wait for
# it is at least COMPILE_WAIT_S: a slow board is not a silent one.
EVERYDAY = ("state", "hint", "stop", "quiet", "reset")
COMPILE_WAIT_S = 30.0


class BoardClient:
    """The lit board (or the simulated one) on a serial port.

    `port`: a device path or pyserial URL; None finds a plugged-in board (`finder`). `link`: an
    opened SerialLink to use instead. Events that arrive while waiting for a reply are kept for
    `poll()` and `events()`.

    The client keeps what it knows of the game (`known`: from `state` replies and the events
    since). A gap in event sequence numbers, a restarted board (seq back to 1) or a reconnect after
    the cable was pulled makes it ask `state` once the request under way has its reply (or at the
    end of a `poll`; again while the board answers that it is still starting), and report what
    changed meanwhile as a synthetic event:
    {"event": "resync", "reason": "gap"|"rebooted"|"reconnect", "state": {...},
    "missed": [moves made that it had not heard of], "undone": [moves it knew that are gone],
    "new_game": bool, "rebooted": bool}.
    """

    def __init__(self, port: str | None = None, timeout: float = 3.0, reconnect: float = 5.0,
                 finder: Callable[[], str | None] = find_data_port, link: SerialLink | HubLink | None = None) -> None:
        self.heard = False  # anything came back on the link since it opened
        self.link: SerialLink | HubLink = link or SerialLink(port, reconnect, finder)
        self.link.on_back = self._reconnected
        self.timeout = timeout
        self._new_ids()
        self._events: deque[dict[str, Any]] = deque()
        self.last_seq: int | None = None
        self.known: dict[str, Any] | None = None  # seq, empty_start, moves, mode as last known
        # why the client must ask `state` (None: it need not); until it has, events are passed on
        # but not learned: the state reply covers them
        self._resync_due: str | None = None
        self.gaps = 0

    @property
    def port(self) -> str | None:
        """The port asked for (None: found at every connect)."""
        return self.link.port

    @property
    def connected_to(self) -> str | None:
        """The device path or URL open now."""
        return self.link.connected_to

    @property
    def reconnects(self) -> int:
        return self.link.reconnects

    # -- connection --------------------------------------------------------------------------
    def _new_ids(self) -> None:
        """Request ids no other client (nor this one before it reopened) uses: a late reply meant for
        a program that closed the port (TinyUSB keeps the newest bytes while nobody listens and
        hands them to the next program) can never pass for the answer to a request of ours."""
        self._token = secrets.token_hex(4)
        self._ids = itertools.count(1)

    def _next_id(self) -> str:
        return "%s-%d" % (self._token, next(self._ids))

    def open(self) -> "BoardClient":
        self._new_ids()
        self.heard = False
        self.link.open()
        return self

    def close(self) -> None:
        self.link.close()

    def __enter__(self) -> "BoardClient":
        return self if self.link.is_open else self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _reconnected(self) -> None:
        self.last_seq = None  # a replugged board may have restarted: any seq is fine
        self._events.append({"event": "reconnected", "port": self.link.connected_to})
        self._due("reconnect")  # the moves made while unplugged

    # -- lines -------------------------------------------------------------------------------
    def _read_obj(self, timeout: float) -> dict[str, Any] | None:
        """The next protocol object, or None when `timeout` passes without one. Lines that are not
        a JSON object (console messages, noise) are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.link.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                return None
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                self.heard = True  # the board has spoken on this link: a silence after is slowness
                return obj

    def _take_event(self, obj: dict[str, Any]) -> None:
        seq = obj.get("seq")
        if isinstance(seq, int):
            if self.last_seq is not None and seq != self.last_seq + 1:
                # a gap (events dropped) or a restart (seq starts again at 1): resync
                rebooted = seq <= self.last_seq
                if rebooted:
                    self._events.append({"event": "rebooted"})
                else:
                    self.gaps += 1
                self._events.append(obj)
                self.last_seq = seq
                self._due("rebooted" if rebooted else "gap")
                return
            self.last_seq = seq
        if self._resync_due is None:
            self._learn_event(obj)
        self._events.append(obj)

    # -- what the client knows of the game ---------------------------------------------------
    def _learn_state(self, st: dict[str, Any]) -> None:
        self.known = {"seq": st.get("seq"), "empty_start": st.get("empty_start"),
                      "moves": list(st.get("moves") or []), "mode": st.get("mode")}

    def _learn_event(self, obj: dict[str, Any]) -> None:
        k = self.known
        if k is None:
            return
        name = obj.get("event")
        k["seq"] = obj.get("seq", k["seq"])
        if name == "move":
            k["moves"].append(obj.get("move"))
        elif name == "undo" and k["moves"]:
            k["moves"].pop()
        elif name in ("new_game", "resumed"):
            k["empty_start"] = obj.get("empty")
            k["moves"] = list(obj.get("moves") or [])
        elif name == "game_over":
            k["mode"] = "over"

    def _due(self, reason: str) -> None:
        if self._resync_due is None:  # the first reason stands: one state reply answers all
            self._resync_due = reason

    def _adopt_state(self, st: dict[str, Any]) -> None:
        """A state reply: what the client knows from now on. If a resync was due, this is it;
        unless the board is still starting (its pegs not read yet): the resync asks again."""
        if st.get("mode") == "starting":
            return
        if self._resync_due is not None:
            self._events.append(resync_event(self._resync_due, self.known, st))
            self._resync_due = None
        self._learn_state(st)

    def _resync_if_due(self) -> None:
        """Ask the board's state and report what changed since the client last knew it. Runs
        between requests, never inside one, so replies always meet the request that waits."""
        if self._resync_due is None or not self.link.is_open:
            return
        try:
            st = self._exchange("state", self.timeout, {})
        except BoardError:
            self._resync_due = None  # no answer now: the next gap or reconnect asks again
            return
        self._adopt_state(st)

    # -- API ---------------------------------------------------------------------------------
    def request(self, cmd: str, timeout: float | None = None, **args: Any) -> dict[str, Any]:
        """Send one command, return its reply; raise BoardError for an error reply or silence. A
        command the board answers from code it compiles for the request (all but EVERYDAY) is
        waited for at least COMPILE_WAIT_S, unless `timeout` says otherwise."""
        if timeout is None:
            timeout = self.timeout if cmd in EVERYDAY else max(self.timeout, COMPILE_WAIT_S)
        try:
            reply = self._exchange(cmd, timeout, args)
        except BoardError:
            self._resync_if_due()  # a refusal is an answer too; Ctrl-C, though, is not held up
            raise
        if cmd == "state":
            self._adopt_state(reply)
        self._resync_if_due()
        return reply

    def _exchange(self, cmd: str, timeout: float, args: dict[str, Any]) -> dict[str, Any]:
        """One request and its reply; events that arrive meanwhile are taken as they come."""
        if not self.link.is_open:
            self.open()
        rid = self._next_id()
        req = {"id": rid, "cmd": cmd}
        req.update(args)
        self.link.write((json.dumps(req) + "\n").encode())
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BoardError("no reply to %r from %s within %.1f s"
                                 % (cmd, self.link.connected_to or self.link.port, timeout),
                                 silent=not self.heard)  # nothing at all came back on this link
            obj = self._read_obj(left)
            if obj is None:
                continue
            if "event" in obj:
                self._take_event(obj)
                continue
            if obj.get("id") != rid:
                continue  # a late reply to a request that gave up waiting
            if not obj.get("ok"):
                raise BoardError(obj.get("message", "error"), obj.get("error", "error"), obj)
            return obj

    def poll(self, timeout: float = 0.0) -> list[dict[str, Any]]:
        """Events received so far; with a timeout, keep collecting until the line has been
        quiet for `timeout` seconds."""
        if not self.link.is_open:
            self.open()
        while True:
            obj = self._read_obj(timeout)
            if obj is None:
                break
            if "event" in obj:
                self._take_event(obj)
        self._resync_if_due()
        out = list(self._events)
        self._events.clear()
        return out

    def events(self, timeout: float | None = None) -> Iterator[dict[str, Any]]:
        """Yield events as they come; stop after `timeout` seconds of silence (None: never)."""
        while True:
            got = self.poll(0.1 if timeout is None else timeout)
            if not got and timeout is not None:
                return
            yield from got

    def wait_for(self, name: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for e in self.poll(min(0.05, max(0.0, deadline - time.monotonic()))):
                if e.get("event") == name:
                    return e
        raise BoardError("no %s event within %.0f s" % (name, timeout))


def resync_event(reason: str, old: dict[str, Any] | None, st: dict[str, Any]) -> dict[str, Any]:
    """What changed between what the client knew (`old`, None: nothing) and the board's state."""
    moves = list(st.get("moves") or [])
    event: dict[str, Any] = {"event": "resync", "reason": reason, "state": st, "missed": moves, "undone": [],
                             "new_game": False, "rebooted": False}
    if old is None:
        return event
    seq, old_seq = st.get("seq"), old.get("seq")
    event["rebooted"] = isinstance(seq, int) and isinstance(old_seq, int) and seq < old_seq
    if st.get("empty_start") != old.get("empty_start"):
        event["new_game"] = True
        return event
    known = old.get("moves") or []
    same = 0
    while same < min(len(known), len(moves)) and known[same] == moves[same]:
        same += 1
    event["missed"] = moves[same:]
    event["undone"] = known[same:][::-1]
    return event
