"""A client for the board's serial protocol v1 (docs/protocol.md) over any pyserial URL or
device path: request/reply with ids and timeouts, the event stream with sequence-gap detection and
automatic resync, and reconnection after the cable is pulled."""

from __future__ import annotations

import itertools
import json
import termios
import time
from collections import deque
from typing import Any, Callable, Iterator

import serial

from pegboard.ports import find_data_port

LINK_ERRORS = (serial.SerialException, OSError, termios.error)


class BoardError(Exception):
    """The board answered with an error, or did not answer."""

    def __init__(self, message: str, code: str = "no_reply", reply: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reply = reply or {}


class NoBoard(BoardError):
    pass


class BoardClient:
    """The lit board (or the simulated one) on a serial port.

    `port`: a device path or pyserial URL; None finds a plugged-in board. Events that arrive
    while waiting for a reply are kept for `events()`.

    The client keeps what it knows of the game (`known`: from `state` replies and the events
    since). A gap in event sequence numbers, a restarted board (seq back to 1) or a reconnect after
    the cable was pulled makes it ask `state` and report what changed meanwhile as a synthetic
    event: {"event": "resync", "reason": "gap"|"rebooted"|"reconnect", "state": {...},
    "missed": [moves made that it had not heard of], "undone": [moves it knew that are gone],
    "new_game": bool, "rebooted": bool}.
    """

    def __init__(self, port: str | None = None, timeout: float = 3.0, reconnect: float = 5.0,
                 finder: Callable[[], str | None] = find_data_port) -> None:
        self.port = port
        self.auto = port is None
        self.timeout = timeout
        self.reconnect_for = reconnect
        self.finder = finder
        self.ser: serial.SerialBase | None = None
        self._ids = itertools.count(1)
        self._buf = b""
        self._events: deque[dict[str, Any]] = deque()
        self._replies: dict[Any, dict[str, Any]] = {}  # replies that arrived for another waiter
        self.last_seq: int | None = None
        self.known: dict[str, Any] | None = None  # seq, empty_start, moves, mode as last known
        self._resyncing = False
        self.gaps = 0
        self.reconnects = 0
        self.log: Callable[[str, bytes], None] | None = None  # ("<" or ">", raw line)

    # -- connection --------------------------------------------------------------------------
    def open(self) -> "BoardClient":
        port = self.port if not self.auto else self.finder()
        if not port:
            raise NoBoard("no board found: plug it in, or give --port (a device path or pyserial URL)", "no_board")
        try:
            ser = serial.serial_for_url(port, baudrate=115200, timeout=0.05, write_timeout=2, do_not_open=True)
            if hasattr(ser, "exclusive") and not str(port).startswith(("socket://", "loop://", "rfc2217://", "spy://")):
                ser.exclusive = True
            ser.open()
        except LINK_ERRORS as e:
            raise NoBoard("cannot open %s: %s" % (port, e), "no_board") from None
        except ValueError as e:
            raise NoBoard("bad port %r: %s" % (port, e), "bad_port") from None
        self.ser = ser
        self.port = port if not self.auto else self.port
        self._buf = b""
        try:
            ser.reset_input_buffer()  # bytes written while nobody listened are stale
        except LINK_ERRORS:
            pass
        return self

    def close(self) -> None:
        if self.ser is not None:
            try:
                self.ser.close()
            except LINK_ERRORS:
                pass
        self.ser = None

    def __enter__(self) -> "BoardClient":
        return self.open() if self.ser is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _reconnect(self) -> None:
        self.close()
        deadline = time.monotonic() + self.reconnect_for
        while True:
            try:
                self.open()
                self.reconnects += 1
                self.last_seq = None
                self._events.append({"event": "reconnected", "port": self.port})
                self._resync("reconnect")  # the moves made while unplugged
                return
            except NoBoard:
                if time.monotonic() > deadline:
                    raise NoBoard("the board went away and did not come back within %.0f s" % self.reconnect_for,
                                  "disconnected") from None
                time.sleep(0.05)

    # -- lines -------------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        for attempt in (0, 1):
            try:
                assert self.ser is not None
                self.ser.write(data)
                return
            except LINK_ERRORS:
                if attempt:
                    raise
                self._reconnect()

    def _read_line(self, timeout: float) -> dict[str, Any] | None:
        """One parsed line, or None when `timeout` passes without a complete line."""
        deadline = time.monotonic() + timeout
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line, self._buf = self._buf[:nl], self._buf[nl + 1:]
                line = line.strip()
                if not line:
                    continue
                if self.log:
                    self.log("<", line)
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue  # a console message or noise: not protocol
                if isinstance(obj, dict):
                    return obj
                continue
            left = deadline - time.monotonic()
            if left <= 0 and timeout >= 0:
                return None
            try:
                assert self.ser is not None
                n = self.ser.in_waiting
                chunk = self.ser.read(n or 1)
            except LINK_ERRORS:
                self._reconnect()
                continue
            if chunk:
                self._buf += chunk
            elif timeout == 0:
                return None

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
                self._resync("rebooted" if rebooted else "gap")
                return
            self.last_seq = seq
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

    def _resync(self, reason: str) -> None:
        """Ask the board's state and report what changed since the client last knew it."""
        if self._resyncing:
            return
        old = self.known
        self._resyncing = True
        try:
            st = self.request("state")
        except BoardError:
            return
        finally:
            self._resyncing = False
        self._events.append(resync_event(reason, old, st))

    # -- API ---------------------------------------------------------------------------------
    def request(self, cmd: str, timeout: float | None = None, **args: Any) -> dict[str, Any]:
        """Send one command, return its reply; raise BoardError for an error reply or silence."""
        if self.ser is None:
            self.open()
        rid = next(self._ids)
        req = {"id": rid, "cmd": cmd}
        req.update(args)
        data = (json.dumps(req) + "\n").encode()
        if self.log:
            self.log(">", data.strip())
        self._write(data)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            obj = self._replies.pop(rid, None)
            if obj is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BoardError("no reply to %r within %.1f s" % (cmd, self.timeout))
                obj = self._read_line(left)
                if obj is None:
                    continue
                if "event" in obj:
                    self._take_event(obj)
                    continue
                if obj.get("id") != rid:
                    if obj.get("id") is not None:
                        self._replies[obj["id"]] = obj  # for a request further up the stack
                        if len(self._replies) > 32:
                            self._replies.pop(next(iter(self._replies)))
                    continue
            if not obj.get("ok"):
                raise BoardError(obj.get("message", "error"), obj.get("error", "error"), obj)
            if cmd == "state":
                self._learn_state(obj)
            return obj

    def poll(self, timeout: float = 0.0) -> list[dict[str, Any]]:
        """Events received so far; with a timeout, keep collecting until the line has been
        quiet for `timeout` seconds."""
        if self.ser is None:
            self.open()
        while True:
            obj = self._read_line(timeout)
            if obj is None:
                break
            if "event" in obj:
                self._take_event(obj)
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
