"""Merging a board's settings into the settings.toml already on a drive, as text: every line the
maker wrote stays (their comments, their CIRCUITPY_WIFI_* keys, their own PEGBOARD_ values), and
the board's keys that are missing are added where CircuitPython reads them (before any [table]:
os.getenv sees top-level keys only)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_KEY = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=")
_TABLE = re.compile(r"^\s*\[")
# keys of the other sensor kind are not added: they would only puzzle a reader
_ONLY_FOR = {"PEGBOARD_SENSOR_PINS": "gpio", "PEGBOARD_SR_CLOCK": "shift", "PEGBOARD_SR_DATA": "shift",
             "PEGBOARD_SR_LATCH": "shift"}


@dataclass
class Merged:
    text: str
    added: list[str]   # keys added from the board's file
    kept: list[str]    # the drive's PEGBOARD_ keys whose value differs from the board's file


def _entries(text: str) -> tuple[list[str], dict[str, int], int]:
    """(lines, top-level key -> line index, index of the first [table] line or len(lines))."""
    lines = text.splitlines()
    keys: dict[str, int] = {}
    for i, line in enumerate(lines):
        if _TABLE.match(line):
            return lines, keys, i
        m = _KEY.match(line)
        if m:
            keys.setdefault(m.group(1), i)
    return lines, keys, len(lines)


def _value(line: str) -> str:
    v = line.split("=", 1)[1].strip()
    if v.startswith('"'):
        end = v.find('"', 1)
        return v[:end + 1] if end > 0 else v
    return v.split("#", 1)[0].strip()


def merge_settings(current: str | None, board: str, override: bool, label: str) -> Merged:
    """The drive's settings.toml with `board`'s keys merged in. A file with no PEGBOARD_ keys
    (CircuitPython makes an empty one on a new drive) gets all of them; otherwise only the
    missing ones. `override` (an explicit --settings FILE): its keys replace the drive's."""
    lines, have, table_at = _entries(current or "")
    blines, bkeys, _ = _entries(board)
    sensors_line = lines[have["PEGBOARD_SENSORS"]] if "PEGBOARD_SENSORS" in have and not override else \
        blines[bkeys["PEGBOARD_SENSORS"]] if "PEGBOARD_SENSORS" in bkeys else 'X = "gpio"'
    sensors = _value(sensors_line).strip('"')
    added, kept = [], []
    new_lines = []
    changed = False
    for key, i in bkeys.items():
        if key in have:
            if _value(lines[have[key]]) != _value(blines[i]):
                if override:
                    lines[have[key]] = blines[i]
                    changed = True
                elif key.startswith("PEGBOARD_"):
                    kept.append(key)
            continue
        if _ONLY_FOR.get(key, sensors) != sensors:
            continue
        new_lines.append(blines[i])
        added.append(key)
    if new_lines:
        head = lines[:table_at]
        while head and not head[-1].strip():
            head.pop()
        block = ["# pegboard: added by `pegboard deploy` from %s" % label] + new_lines
        if head:
            block = [""] + block
        rest = lines[table_at:]
        lines = head + block + ([""] + rest if rest else [])
    if not new_lines and not changed:
        return Merged(current or "", added, kept)
    return Merged("\n".join(lines) + "\n", added, kept)
