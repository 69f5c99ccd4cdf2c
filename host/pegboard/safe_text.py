"""Text from a board or another program, made safe to print on a terminal: every C0 and C1 control
character (ESC, CSI, BEL, DEL ...) is shown as an escape (\\x1b), so a JSON key, a program's name or a
raw line cannot retitle the window, clear the screen or write the clipboard (OSC 52)."""

from __future__ import annotations

import re
from typing import Any, TextIO, cast

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()), text)


_KEEP = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but tab and newline


class SafeWriter:
    """A terminal stream whose writes show every control character but tab and newline as an escape:
    what a command prints of the board's words (an error's message, a program's name, a game) cannot
    drive the terminal. `wrapped` is the stream itself, for the command's own progress line (\\r)."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        self.wrapped.write(_KEEP.sub(lambda m: "\\x%02x" % ord(m.group()), text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def guard_terminal(stream: TextIO) -> TextIO:
    """`stream` wrapped in a SafeWriter when it is a terminal; a pipe or file gets the bytes as they are."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    return cast(TextIO, SafeWriter(stream)) if tty else stream
