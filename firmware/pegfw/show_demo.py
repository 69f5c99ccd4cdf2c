"""The board demonstrates a line of jumps on its LEDs."""

from pegfw import colors
from pegcore.rules import holes_of
from pegfw.clock import ticks_diff
from pegfw.shows import paint_jump


class DemoShow:
    """Plays jumps on the LEDs from `mask`: each step shows from/over/to, then the result.
    take_steps() returns the steps completed since the last call (the loop reports them)."""

    def __init__(self, board, start, mask, jumps, step_ms=1200):
        self.board, self.start, self.mask, self.jumps, self.step_ms = board, start, mask, jumps, step_ms
        self.done_steps = 0
        self._reported = 0

    def describe(self, now):
        """The demonstration's pegs and the jump lit now, in roles (the state reply's `show`)."""
        k = ticks_diff(now, self.start) // self.step_ms
        lit = k < len(self.jumps) and ticks_diff(now, self.start) % self.step_ms < self.step_ms * 2 // 3
        return {"pegs": holes_of(self._mask_after(min(k, len(self.jumps)))),
                "move": self.board.move_of(self.jumps[k]) if lit else None}

    def _mask_after(self, k):
        m = self.mask
        for j in self.jumps[:k]:
            m ^= self.board.flip[j]
        return m

    def take_steps(self):
        out = list(range(self._reported, self.done_steps))
        self._reported = self.done_steps
        return out

    def frame(self, now, base):
        t = ticks_diff(now, self.start)
        k = t // self.step_ms
        if k > len(self.jumps):
            if self._reported < len(self.jumps):
                self.done_steps = len(self.jumps)
            return None
        self.done_steps = min(k, len(self.jumps))
        m = self._mask_after(self.done_steps)
        out = [colors.DEMO if m >> i & 1 else colors.EMPTY for i in range(self.board.holes)]
        if k < len(self.jumps) and t % self.step_ms < self.step_ms * 2 // 3:
            out = paint_jump(out, self.board, self.jumps[k], colors.HINT_FROM, colors.HINT_OVER, colors.HINT_TO)
        return out
