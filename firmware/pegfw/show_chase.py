"""The self-test's light chase, and the one-hole bring-up light."""

from pegfw import colors
from pegfw.clock import ticks_diff

RGB = (0xFF0000, 0x00FF00, 0x0000FF)  # red, green, blue: the order shows PEGBOARD_PIXEL_ORDER is right


class ChaseShow:
    """Self-test: one white pixel runs along the chain in hole order, then every pixel red, green,
    blue (`colour_ms` each), then the steady picture while the sensor readout goes on. With `hole`
    (1..n): that hole's pixel alone shows red, green, blue in turn, one a second, for as long as the
    self-test runs (bring-up of one pixel-and-sensor module; the host reports its sensor)."""

    def __init__(self, n, start, hole=0, step_ms=120, colour_ms=500):
        self.n, self.start, self.hole, self.step_ms, self.colour_ms = n, start, hole, step_ms, colour_ms

    def frame(self, now, base):
        t = ticks_diff(now, self.start)
        if self.hole:
            out = [colors.OFF] * self.n
            out[self.hole - 1] = RGB[t // 1000 % 3]
            return out
        k = t // self.step_ms
        if k < self.n:
            return [colors.DEMO if i == k else colors.OFF for i in range(self.n)]
        k = (t - self.n * self.step_ms) // self.colour_ms
        if k < 3:
            return [RGB[k]] * self.n
        return base  # then the pegs as sensed, until the self-test's time is up (App.step)
