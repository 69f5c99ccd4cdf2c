"""The "watch the solver" show: the core's step-wise search played on the LEDs."""

from pegcore import search
from pegcore.rules import holes_of
from pegfw import colors
from pegfw.clock import ticks_diff


class SolverShow:
    """The core's step-wise search played on the LEDs: tries in green, backtracks in red. With
    speed_ms = 0 it advances only on step() (the button); otherwise one step per speed_ms."""

    def __init__(self, board, start, mask, speed_ms=150, max_steps=100000):
        self.board, self.speed_ms, self.max_steps = board, speed_ms, max_steps
        self.steps = search.steps(board, mask)
        self.next_at = start
        self.kind, self.jump, self.mask, self.count = None, -1, mask, 0  # the latest step
        self.finished_at = None
        self.pending = 0  # steps asked for by the button

    def step(self):
        self.pending += 1

    def describe(self, now):
        """The search's pegs and its latest step, in roles (the state reply's `show`)."""
        b, k = self.board, self.kind
        return {"pegs": holes_of(self.mask), "solved": k == search.SOLVED,
                "tried": b.jump_to[self.jump] + 1 if k == search.TRY else None,
                "taken_back": b.jump_from[self.jump] + 1 if k == search.BACK else None}

    def frame(self, now, base):
        if self.finished_at is None:
            due = self.pending
            self.pending = 0
            while self.speed_ms and ticks_diff(now, self.next_at) >= 0:
                due += 1
                self.next_at += self.speed_ms
            while due and self.kind not in (search.SOLVED, search.EXHAUSTED):
                due -= 1
                try:  # one-argument next() only: a CircuitPython board has no default argument
                    self.kind, self.jump, self.mask, self.count = next(self.steps)
                except StopIteration:
                    self.kind = search.EXHAUSTED
            if self.kind in (search.SOLVED, search.EXHAUSTED) or self.count >= self.max_steps:
                self.finished_at = now
        elif ticks_diff(now, self.finished_at) > 3000:
            return None
        m = self.mask
        out = [colors.PEG if m >> i & 1 else colors.EMPTY for i in range(self.board.holes)]
        if self.kind == search.TRY:
            out[self.board.jump_to[self.jump]] = colors.TRY
        elif self.kind == search.BACK:
            out[self.board.jump_from[self.jump]] = colors.BACK
        elif self.kind == search.SOLVED:
            out = [colors.LANDING if c == colors.PEG else c for c in out]
        return out
