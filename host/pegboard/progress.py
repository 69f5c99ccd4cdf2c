"""A one-line progress bar on stderr, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
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
