"""The control port's `wait_idle`: answer once the firmware has taken in every sensor change so far
(docs/simulator.md, "How wait_idle knows"). The simulator pings the child; the child's fake keypad
answers a ping ("pong") only when the firmware asks it for an event and its queue is empty."""

from __future__ import annotations

import itertools
import time
from typing import Any, Callable

from pegboard.sim.event_loop import Timers

SCAN_S = 0.045    # before the first ping: the keypad scans every 20 ms, so it has read the latest pins
SETTLE_S = 0.08   # before the second: the firmware's settle time (its SETTLE_MS, 60 ms), so a
                  # whole-board re-read after a keypad reset has been adopted too
DEADLINE_S = 10.0  # a firmware that never asks for an event (hung, or busy) is reported, not waited on


class IdleWaits:
    """`ping(n)` sends ping n to the firmware; `reply(rid, fields)` and `error(rid, code, message)`
    answer the control request whose id is rid; `last_words()` is the firmware's last console line
    (None without one), told with a timeout: a firmware that stopped at start-up says why there."""

    def __init__(self, timers: Timers, ping: Callable[[int], None], reply: Callable[[Any, dict[str, Any]], None],
                 error: Callable[[Any, str, str], None], deadline_s: float = DEADLINE_S,
                 last_words: Callable[[], str | None] = lambda: None) -> None:
        self.timers = timers
        self.deadline_s = deadline_s
        self.ping = ping
        self.reply = reply
        self.error = error
        self.last_words = last_words
        self._numbers = itertools.count(1)
        self._waiting: dict[int, tuple[Any, float, bool]] = {}  # ping -> (rid, deadline, first of two)

    def start(self, rid: Any) -> None:
        self._ask(rid, time.monotonic() + self.deadline_s, True, SCAN_S)

    def _ask(self, rid: Any, deadline: float, first: bool, after: float) -> None:
        n = next(self._numbers)
        self._waiting[n] = (rid, deadline, first)
        self.timers.after(after, lambda: self.ping(n))

    def pong(self, n: int) -> None:
        """The firmware found its keypad queue empty after ping n."""
        waiter = self._waiting.pop(n, None)
        if waiter is None:
            return  # a ping from before a power cycle
        rid, deadline, first = waiter
        if first:
            self._ask(rid, deadline, False, SETTLE_S)  # idle once: ask again after the settle time
        else:
            self.reply(rid, {"idle": True})

    def expire(self, now: float) -> None:
        for n, (rid, deadline, _first) in list(self._waiting.items()):
            if now > deadline:
                del self._waiting[n]
                line = self.last_words()
                self.error(rid, "timeout", "the firmware did not go idle" +
                           (" (its console's last line: %s)" % line if line else ""))

    def forget(self) -> None:
        """A power cycle: the new firmware never saw these pings."""
        self._waiting.clear()
