"""Text from a board or another program, made safe to print on a terminal: every C0 and C1 control
character (ESC, CSI, BEL, DEL ...) is shown as an escape (\\x1b), so a JSON key, a program's name or a
raw line cannot retitle the window, clear the screen or write the clipboard (OSC 52)."""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()), text)
