"""The tables the page shares with the terminal UI and the board, from their one source in Python:
each role's words, symbol and colours (pegboard.tui.roles), the pegs' hues (pegcore.pegcolours),
each role's pattern in time (pegcore.rolemotion) and the piezo's tunes (pegfw.sound). The page's
scripts hold them between markers, `/*NAME*/{...}/*END*/`, so that they run as they are, from the
server or a file on the drive; `python -m pegboard.web.tables` writes them there after a change, and
tests/test_page_twins.py fails while a script's copy differs."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from pegboard.web.page import STATIC

MARKER = re.compile(r"/\*([A-Z_]+)\*/(.*?)/\*END\*/", re.S)


def tables() -> dict[str, dict[str, Any]]:
    """script name -> {marker name -> the table's value, as JSON takes it}."""
    from pegboard.tui.roles import NEAR, ROLES
    from pegcore.pegcolours import HUES
    from pegcore.rolemotion import PATTERNS

    TUNES = _firmware_tunes()

    return {"roles.js": {"ROLES": {k: [r.words, r.symbol, r.bg, r.fg] for k, r in ROLES.items()},
                         "HUES": list(HUES), "NEAR": NEAR},
            "senses.js": {"PATTERNS": {k: [v[0], list(v[1])] for k, v in PATTERNS.items()},
                          "TUNES": {k: [list(n) for n in v] for k, v in TUNES.items()}}}


def _firmware_tunes() -> dict[str, Any]:
    """pegfw.sound.TUNES, read from the checkout's firmware/ (the firmware's own packages are not
    the host's: only pegcore is shared), its one import (pegfw.clock) stood in for."""
    import ast

    path = Path(__file__).resolve().parents[3] / "firmware" / "pegfw" / "sound.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TUNES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError("no TUNES in %s" % path)


def in_script(text: str) -> dict[str, Any]:
    """The tables a script's text holds between its markers."""
    return {m.group(1): json.loads(m.group(2)) for m in MARKER.finditer(text)}


def filled(text: str, values: dict[str, Any]) -> str:
    """`text` with each marker's table replaced by its value (a marker the values lack: an error)."""
    def one(m: re.Match[str]) -> str:
        return "/*%s*/%s/*END*/" % (m.group(1), json.dumps(values[m.group(1)], ensure_ascii=False))

    return MARKER.sub(one, text)


def main() -> int:
    changed = []
    for name, values in tables().items():
        path = STATIC / name
        text = path.read_text(encoding="utf-8")
        new = filled(text, values)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(name)
    print("rewrote %s" % ", ".join(changed) if changed else "the page's tables are the Python ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
