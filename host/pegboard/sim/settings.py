"""Read a settings.toml the way CircuitPython's os.getenv does: bare keys, "strings", integers, up to
the first [table]. read_settings types the values (for the simulator's own use and the runtimes
whose os.getenv is the PC's); raw_settings keeps each value's text as the file has it, for the chip
runtimes, whose os.getenv and supervisor.get_setting read it as the CircuitPython version they
model does (pegboard/sim/chipvm/modport.c)."""

from __future__ import annotations

import re
from pathlib import Path

_LINE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$')
_KEY = re.compile(r'^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(.*)$')


# a board's settings are a few hundred bytes; each key reaches the firmware as an environment
# variable, so a huge value (or thousands of keys) would fail its start with E2BIG
MAX_VALUE_CHARS = 1024
MAX_KEYS = 256


class SettingsError(ValueError):
    pass


def _file_text(path: str | Path, errors: str = "strict") -> str:
    """The file's text, refused (SettingsError) when a value or the number of keys is beyond any
    board's settings."""
    text = Path(path).read_text(encoding="utf-8", errors=errors)
    keys: set[str] = set()
    for line in text.split("\n"):
        if line.lstrip(" \t\r\f\v").startswith("["):
            break  # nothing after the first [table] is read
        m = _KEY.match(line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if len(value) > MAX_VALUE_CHARS:
            raise SettingsError("%s: %s is %d characters long: a setting holds at most %d"
                                % (path, key, len(value), MAX_VALUE_CHARS))
        keys.add(key)
        if len(keys) > MAX_KEYS:
            raise SettingsError("%s sets more than %d keys: a board's settings.toml has a few dozen"
                                % (path, MAX_KEYS))
    return text


def raw_settings(path: str | Path) -> dict[str, str]:
    """Each key's value text, everything after its "=" (quotes, escapes, a comment), malformed or
    not: the first line of a key counts, and nothing after the first [table] (CircuitPython reads the
    file from the top and stops at a key's first line: shared-module/os/getenv.c up to 10.1,
    supervisor/shared/settings.c from 10.2)."""
    out: dict[str, str] = {}
    text = _file_text(path, errors="surrogateescape")
    for line in text.split("\n"):
        if line.lstrip(" \t\r\f\v").startswith("["):
            break
        m = _KEY.match(line)
        if m and m.group(1) not in out:
            out[m.group(1)] = m.group(2)
    return out


def read_settings(path: str | Path, strict: bool = True) -> dict[str, str | int]:
    """The typed values. `strict`: a line that is not KEY = "string" or KEY = integer raises
    SettingsError; otherwise it is left out (a chip runtime's firmware reports it itself)."""
    try:
        return _read_settings(path)
    except SettingsError:
        if strict:
            raise
    out: dict[str, str | int] = {}
    for key, value in raw_settings(path).items():
        line = "%s = %s" % (key, value)
        try:
            out.update(_read_lines(path, [line]))
        except SettingsError:
            pass
    return out


def _read_settings(path: str | Path) -> dict[str, str | int]:
    return _read_lines(path, _file_text(path).splitlines())


def _read_lines(path: str | Path, lines: list[str]) -> dict[str, str | int]:
    out: dict[str, str | int] = {}
    for n, raw in enumerate(lines, 1):
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
