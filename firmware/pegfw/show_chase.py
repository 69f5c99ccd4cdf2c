"""The self-test's light chase."""

from pegfw import colors
from pegfw.clock import ticks_diff


class ChaseShow:
    """Self-test: one white pixel runs along the chain in hole order, then all colours, then
    the steady picture while the sensor readout goes on."""

    def __init__(self, n, start, step_ms=120):
        self.n, self.start, self.step_ms = n, start, step_ms

    def frame(self, now, base):
        k = ticks_diff(now, self.start) // self.step_ms
        if k < self.n:
            return [colors.DEMO if i == k else colors.OFF for i in range(self.n)]
        k -= self.n
        if k < 3:
            return [(0xFF0000, 0x00FF00, 0x0000FF)[k]] * self.n  # red, green, blue
        return base  # then the pegs as sensed, until the self-test's time is up (App.step)
