"""The game-over show: a rainbow for one peg left, a pulse in the verdict's colour otherwise."""

from pegfw import colors
from pegfw.clock import ticks_diff

# 1 peg is a rainbow; the others pulse one colour
VERDICT = {"purty smart": 0x00FF00, "just plain dumb": 0xFFC800, "eg-no-ra-moose": 0xFF0000}


def wheel(pos):
    """Colour wheel 0..255 -> colour, integer only."""
    pos &= 255
    if pos < 85:
        return colors.rgb(255 - pos * 3, pos * 3, 0)
    if pos < 170:
        pos -= 85
        return colors.rgb(0, 255 - pos * 3, pos * 3)
    pos -= 170
    return colors.rgb(pos * 3, 0, 255 - pos * 3)


class GameOverShow:
    """One peg: a rainbow ("genius"); otherwise a pulse in the verdict's colour."""

    def __init__(self, n, start, verdict, duration=5000):
        self.n, self.start, self.verdict, self.duration = n, start, verdict, duration

    def describe(self, now):
        """A celebration over the true pegs: no role of its own (the state reply's `show`)."""
        return {"verdict": self.verdict}

    def frame(self, now, base):
        t = ticks_diff(now, self.start)
        if t >= self.duration:
            return None
        if self.verdict == "genius":
            return [wheel(i * 256 // self.n + t // 8) for i in range(self.n)]
        level = (t // 4) % 512
        level = level if level < 256 else 511 - level
        c = colors.scale(VERDICT.get(self.verdict, colors.ERROR), level, 255)
        return [c] * self.n
