"""The "watch the solver" show: the core's step-wise search played on the LEDs."""

from pegcore import search
from pegfw import colors
from pegfw.clock import ticks_diff


class SolverShow:
    """The core's step-wise search played on the LEDs: tries in green, backtracks in red. With
    speed_ms = 0 it advances only on step() (the button); otherwise one step per speed_ms."""

    def __init__(self, board, start, mask, speed_ms=150, max_steps=100000):
        self.board, self.speed_ms = board, speed_ms
        self.steps = search.steps(board, mask)
        self.next_at = start
        self.mask = mask
        self.kind = None
        self.jump = -1
        self.count = 0
        self.max_steps = max_steps
        self.finished_at = None
        self._pending = 0

    def step(self):
        self._pending += 1

    def _advance(self):
        try:
            self.kind, self.jump, self.mask, self.count = next(self.steps)
        except StopIteration:
            self.kind = search.EXHAUSTED

    def frame(self, now, base):
        if self.finished_at is not None:
            return None if ticks_diff(now, self.finished_at) > 3000 else self._picture()
        if self.speed_ms:
            while ticks_diff(now, self.next_at) >= 0:
                self._advance()
                self.next_at += self.speed_ms
                if self.kind in (search.SOLVED, search.EXHAUSTED):
                    break
        while self._pending:
            self._pending -= 1
            self._advance()
        if self.kind in (search.SOLVED, search.EXHAUSTED) or self.count >= self.max_steps:
            self.finished_at = now
        return self._picture()

    def _picture(self):
        m = self.mask
        out = [colors.PEG if m >> i & 1 else colors.EMPTY for i in range(self.board.holes)]
        if self.jump >= 0 and self.kind in (search.TRY, search.BACK):
            c = colors.TRY if self.kind == search.TRY else colors.BACK
            out[self.board.jump_to[self.jump] if self.kind == search.TRY else self.board.jump_from[self.jump]] = c
        if self.kind == search.SOLVED:
            out = [colors.LANDING if c == colors.PEG else c for c in out]
        return out
