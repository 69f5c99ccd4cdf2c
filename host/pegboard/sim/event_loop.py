"""The simulator's clock: one thread that waits on every pseudo-terminal and the firmware's output
at once and runs what falls due (a button release, a bounce's chatter, the watchdog). Time here is
the PC's; chip time (how long a loop pass would take on the RP2040) is measured in the child, by
the fake microcontroller.watchdog, which reports a pass too long for the chip as "wd_expired"."""

from __future__ import annotations

import itertools
import os
import select
import threading
import time
from typing import Callable

from pegboard.sim.ptys import close_fds

TICK_S = 0.01  # the longest select() wait: timers run at most this late

Handlers = dict[int, Callable[[], None]]


class Timers:
    """Actions to run at a time, oldest first; the loop runs them on its thread."""

    def __init__(self) -> None:
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()  # equal times run in the order they were set
        self.due: float | None = None  # while an action runs: the time it was due

    def after(self, seconds: float, action: Callable[[], None]) -> None:
        self._queue.append((time.monotonic() + seconds, next(self._order), action))

    def run_due(self, now: float) -> None:
        due = sorted(t for t in self._queue if t[0] <= now)
        if due:
            self._queue = [t for t in self._queue if t[0] > now]
            for at, _n, action in due:
                self.due = at
                try:
                    action()
                finally:
                    self.due = None


class Watchdog:
    """The RP2040's watchdog as the firmware set it (microcontroller.watchdog, mode RESET), in PC
    time: a firmware that stops feeding it for `timeout_ms` is reset, as on the chip."""

    def __init__(self) -> None:
        self.timeout_ms = 0  # 0: off
        self.last_feed = 0.0

    def set(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self.feed()

    def feed(self) -> None:
        self.last_feed = time.monotonic()

    def expired(self, now: float) -> bool:
        return bool(self.timeout_ms) and (now - self.last_feed) * 1000 > self.timeout_ms


class EventLoop:
    """Each pass: `watch()` says which fds to wait on (fd -> what to do when readable, fd -> when
    writable), then `tick(now)` runs, whether anything arrived or not."""

    def __init__(self, watch: Callable[[], tuple[Handlers, Handlers]], tick: Callable[[float], None]) -> None:
        self.watch = watch
        self.tick = tick
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()  # close() wakes a waiting select() through this
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pegboard-sim", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread:
            self._thread.join(5)
        close_fds(self._wake_r, self._wake_w)

    def _run(self) -> None:
        while not self._stop.is_set():
            readers, writers = self.watch()
            try:
                r, w, _ = select.select([self._wake_r, *readers], list(writers), [], TICK_S)
            except (OSError, ValueError):
                r, w = [], []  # an fd closed meanwhile (an unplug): the next pass has the new set
            if self._stop.is_set():
                return
            if self._wake_r in r:
                os.read(self._wake_r, 64)
            for fd in r:
                if fd in readers:
                    readers[fd]()
            for fd in w:
                if fd in writers:
                    writers[fd]()
            self.tick(time.monotonic())
