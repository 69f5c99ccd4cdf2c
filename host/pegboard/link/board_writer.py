"""The hub's writes to the board, in a thread of their own.

The board stops reading requests while its replies are not taken; a hub that waited in a write
and stopped reading meanwhile would wait for ever (and then count the board gone). So the hub's
loop only queues what goes to the board, and reads the board all the while; this thread writes
the queue out as fast as the port takes it. It never reconnects the port: the hub's loop, which
reads, does that; a line that could not go out on a failed port is written once more on the
port that comes back, as SerialLink.write does."""

from __future__ import annotations

import threading
import time
from collections import deque

from pegboard.link.errors import NoBoard
from pegboard.link.serial_link import SerialLink

BACK_WAIT_S = 0.05  # how often a failed port is looked at until the hub's loop has it back


class BoardWriter(threading.Thread):
    """`put(data)` queues bytes for the board; `failure` is set (and the queue emptied) when the
    board took nothing for the link's write timeout: the hub reports the board gone."""

    def __init__(self, link: SerialLink) -> None:
        super().__init__(name="pegboard-hub-writer", daemon=True)
        self.link = link
        self.failure: NoBoard | None = None
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._cond = threading.Condition()
        self._closing = False

    def put(self, data: bytes) -> None:
        with self._cond:
            if self.failure is None and not self._closing:
                self._queue.append(data)
                self._queued += len(data)
                self._cond.notify()

    def queued(self) -> int:
        """Bytes waiting to go to the board (the one being written included)."""
        with self._cond:
            return self._queued

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify()

    def run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                data = self._queue[0]
            try:
                self._write(data)
            except NoBoard as e:
                with self._cond:
                    self.failure = e
                    self._queue.clear()
                    self._queued = 0
                return
            with self._cond:
                if self._queue:
                    self._queue.popleft()
                    self._queued -= len(data)

    def _write(self, data: bytes) -> None:
        for attempt in (1, 2):
            opened = self.link.reconnects
            try:
                self.link.write(data, reconnect=False)
                return
            except NoBoard as e:
                if e.code == "write_timeout":
                    raise
                if attempt == 2 or not self._wait_back(opened):
                    return  # the port failed twice, or stayed away: the hub's loop reports that

    def _wait_back(self, opened: int) -> bool:
        """Wait while the hub's loop reconnects the port (it was opened `opened` times before);
        False if the hub is closing or the port stays away."""
        deadline = time.monotonic() + self.link.reconnect_for + 1
        while time.monotonic() < deadline:
            with self._cond:
                if self._closing:
                    return False
            if self.link.reconnects != opened and self.link.is_open:
                return True
            time.sleep(BACK_WAIT_S)
        return False
