"""The piezo as the simulated board's fake pwmio drives it: every tone as played (frequency, duty,
when it started and how long it lasted, in the chip's milliseconds), the last ones kept."""

from __future__ import annotations

from collections import deque
from typing import Any

KEEP = 200  # tones kept: a whole game's clicks and its verdict


class PiezoLog:
    def __init__(self) -> None:
        self.tones: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self.playing: dict[str, Any] | None = None  # the tone sounding now (its length unknown yet)
        self.changes = 0

    def change(self, hz: int, duty: int, ms: int) -> None:
        """The PWM's frequency or duty was set at chip time `ms`: the tone sounding ends there, and
        a new one starts if the duty is not 0 (a piezo is silent at 0 %)."""
        self.changes += 1
        p = self.playing
        if p is not None:
            if p["hz"] == hz and p["duty"] == duty:
                return  # the same tone set again: it goes on
            p["ms"] = max(0, ms - p["start_ms"])
            self.tones.append(p)
            self.playing = None
        if duty:
            self.playing = {"hz": hz, "duty": duty, "start_ms": ms}

    def reading(self) -> dict[str, Any]:
        return {"tones": list(self.tones), "playing": self.playing, "changes": self.changes}
