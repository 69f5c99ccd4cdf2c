"""Text from a board or another program, made safe to print on a terminal: every C0 and C1 control
character (ESC, CSI, BEL, DEL ...) is shown as an escape (\\x1b), so a JSON key, a program's name or a
raw line cannot retitle the window, clear the screen or write the clipboard (OSC 52); and so is every
Unicode format control (category Cf: the bidi overrides and isolates, U+202E, zero-width marks), so
a name cannot print reversed or hide what follows (\\u202e)."""

from __future__ import annotations

import re
from typing import Any, TextIO, cast

# Unicode's format controls (category Cf) as of Unicode 15, the ones outside the astral planes
_FORMAT = "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e" \
          "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f%s]" % _FORMAT)


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return "\\x%02x" % c if c < 0x100 and m.group() != "\u00ad" else "\\u%04x" % c


def printable(text: str) -> str:
    return _CONTROL.sub(_escape, text)


_KEEP = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f%s]" % _FORMAT)  # all but tab and newline


class SafeWriter:
    """A terminal stream whose writes show every control character but tab and newline as an escape:
    what a command prints of the board's words (an error's message, a program's name, a game) cannot
    drive the terminal. `wrapped` is the stream itself, for the command's own progress line (\\r)."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        self.wrapped.write(_KEEP.sub(_escape, text))
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
