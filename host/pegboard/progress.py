"""Progress on stderr, shown only when stderr is a terminal (nothing is added when it is piped or
kept in a log): a one-line bar for work that knows how far it has come (`Progress`), and one line
with the seconds ticking for work that does not (`working`: a first build of a chip runtime)."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import Iterator, TextIO


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):  # a closed or odd stream: no terminal
        return False


class Progress:
    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        # our own line, \r and all: past the guard on what commands print of the board's words
        self.stream = getattr(stream or sys.stderr, "wrapped", stream or sys.stderr)
        self.enabled = _is_terminal(self.stream)
        self.started = time.monotonic()
        self._width = 0

    def __call__(self, done: int, total: int, note: str = "") -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = min(width, width * done // total)
        line = "%s [%s%s] %d/%d  %s %.0f s  (Ctrl-C stops)" % (
            self.label, "#" * filled, "." * (width - filled), done, total, note, time.monotonic() - self.started)
        self.stream.write("\r" + line.ljust(self._width))
        self._width = len(line)
        self.stream.flush()

    def clear(self) -> None:
        """Erase the bar (before printing a result); the next call draws it again."""
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def close(self) -> None:
        self.clear()


@contextlib.contextmanager
def working(what: str, stream: TextIO | None = None, every: float = 1.0) -> Iterator[None]:
    """`what...` on a terminal's stderr while the work runs, the seconds counted every `every`
    seconds, ending `... done (N s)` (or `... failed`). Nothing at all when stderr is not a
    terminal."""
    out = stream or sys.stderr
    if not _is_terminal(out):
        yield
        return
    started = time.monotonic()
    stop = threading.Event()

    def line(tail: str) -> None:
        out.write("\r%s... %s" % (what, tail))
        out.flush()

    def tick() -> None:
        while not stop.wait(every):
            line("%.0f s" % (time.monotonic() - started))

    line("")
    ticker = threading.Thread(target=tick, name="progress", daemon=True)
    ticker.start()
    outcome = "failed"
    try:
        yield
        outcome = "done"
    finally:
        stop.set()
        ticker.join()
        line("%s (%.0f s)\n" % (outcome, time.monotonic() - started))
