"""Read a settings.toml the way CircuitPython's os.getenv does: bare keys, "strings", integers, up to
the first [table]."""

from __future__ import annotations

import re
from pathlib import Path

_LINE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$')


class SettingsError(ValueError):
    pass


def read_settings(path: str | Path) -> dict[str, str | int]:
    out: dict[str, str | int] = {}
    for n, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            break  # a [table]: os.getenv reads top-level keys only
        m = _LINE.match(line)
        if not m:
            raise SettingsError("%s:%d: expected KEY = value" % (path, n))
        key, val = m.group(1), m.group(2)
        if val.startswith('"'):
            end = val.find('"', 1)
            if end < 0:
                raise SettingsError("%s:%d: unterminated string" % (path, n))
            out[key] = val[1:end]
        else:
            val = val.split("#", 1)[0].strip()
            try:
                out[key] = int(val, 0)
            except ValueError:
                raise SettingsError("%s:%d: %s must be a quoted string or an integer" % (path, n, key)) from None
    return out
