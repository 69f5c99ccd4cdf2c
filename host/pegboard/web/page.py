"""The page's files (static/), and the page as one self-contained HTML file (its CSS and scripts
inlined): what `pegboard deploy` puts on the CIRCUITPY drive as pegboard.html, to open in Chrome or
Edge with nothing installed (Web Serial)."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
DRIVE_NAME = "pegboard.html"


def static_file(name: str) -> tuple[bytes, str] | None:
    """(bytes, content type) of one of the page's files by its name in the URL, or None: only the
    files in static/ itself, never a path out of it."""
    name = name.lstrip("/") or "index.html"
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    path = STATIC / name
    kind = TYPES.get(path.suffix)
    if kind is None or not path.is_file():
        return None
    return path.read_bytes(), kind


def single_file() -> str:
    """index.html with style.css and every script inlined: one file that works offline, from a
    drive or a download (file:// pages cannot load other files)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")

    def style(m: re.Match[str]) -> str:
        return "<style>\n%s</style>" % (STATIC / m.group(1)).read_text(encoding="utf-8")

    def script(m: re.Match[str]) -> str:
        code = (STATIC / m.group(1)).read_text(encoding="utf-8").replace("</script", "<\\/script")
        return "<script>\n%s</script>" % code

    html = re.sub(r'<link rel="stylesheet" href="([\w.-]+)">', style, html)
    return re.sub(r'<script src="([\w.-]+)"></script>', script, html)
