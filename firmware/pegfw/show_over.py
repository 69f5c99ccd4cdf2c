"""The game-over show: a rainbow for one peg left, a pulse in the verdict's colour otherwise; a new
personal best then sparkles gold across the board for BEST_MS more."""

from pegfw import colors
from pegfw.clock import ticks_diff

# 1 peg is a rainbow; the others pulse one colour
VERDICT = {"purty smart": 0x00FF00, "just plain dumb": 0xFFC800, "eg-no-ra-moose": 0xFF0000}
GOLD = 0xFFB000
BEST_MS = 2500


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

    def __init__(self, n, start, verdict, best=False, duration=5000):
        self.n, self.start, self.verdict, self.best, self.duration = n, start, verdict, best, duration

    def describe(self, now):
        """A celebration over the true pegs: no role of its own (the state reply's `show`)."""
        return {"verdict": self.verdict, "best": self.best}

    def frame(self, now, base):
        t = ticks_diff(now, self.start)
        if t >= self.duration:
            if not self.best or t >= self.duration + BEST_MS:
                return None
            # a new best: gold runs down the board, hole by hole, three times over
            k = (t - self.duration) * 3 * self.n // BEST_MS % self.n
            return [colors.scale(GOLD, 255 if i == k else 40, 255) for i in range(self.n)]
        if self.verdict == "genius":
            return [wheel(i * 256 // self.n + t // 8) for i in range(self.n)]
        level = (t // 4) % 512
        level = level if level < 256 else 511 - level
        c = colors.scale(VERDICT.get(self.verdict, colors.ERROR), level, 255)
        return [c] * self.n
