"""The NeoPixel chain under the holes, as the simulator sees it: the bytes the firmware's
neopixel_write sends, read back as colours per hole, and the current they would draw."""

from __future__ import annotations

import threading
from typing import Any

MA_PER_CHANNEL = 20  # a WS2812 channel at full brightness


class LedChain:
    def __init__(self, holes: int, order: str) -> None:
        self.holes = holes
        self.order = order  # the chain's byte order ("GRB", "RGBW", ...)
        self.pixels: list[list[int]] = [[0, 0, 0] for _ in range(holes)]
        self.ma = 0
        self.max_ma = 0
        self.frames = 0
        self._lock = threading.Lock()  # written by the loop thread, read by any caller

    def show(self, buf: bytes) -> None:
        """One frame as neopixel_write sent it."""
        bpp = len(self.order)
        px = []
        total = 0
        for i in range(min(self.holes, len(buf) // bpp)):
            chunk = buf[i * bpp:(i + 1) * bpp]
            px.append([chunk[self.order.index(c)] if c in self.order else 0 for c in "RGB"])
            total += sum(chunk)
        with self._lock:
            self.pixels = px
            self.ma = total * MA_PER_CHANNEL // 255
            self.max_ma = max(self.max_ma, self.ma)
            self.frames += 1

    def reading(self) -> dict[str, Any]:
        """What the control port's `pixels` answers."""
        with self._lock:
            return {"pixels": self.pixels, "ma": self.ma, "max_ma": self.max_ma, "frames": self.frames}
