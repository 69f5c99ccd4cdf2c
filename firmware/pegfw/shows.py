"""Non-blocking light shows, polled by the main loop (LED_Animation style): each show's
`frame(now, base)` returns the frame to send, or None once it has finished. No sleeps."""

from pegfw import colors
from pegfw.clock import ticks_diff


def paint_jump(base, board, jump, c_from, c_over, c_to):
    out = list(base)
    out[board.jump_from[jump]] = c_from
    out[board.jump_over[jump]] = c_over
    out[board.jump_to[jump]] = c_to
    return out


class HintShow:
    """The hint for a few seconds. A lost position first blinks its pegs red, then shows the move
    that leaves the fewest pegs."""

    def __init__(self, board, start, jump, solvable, duration=4000):
        self.board, self.start, self.jump, self.solvable = board, start, jump, solvable
        self.duration = duration + (0 if solvable else 1200)

    def frame(self, now, base):
        t = ticks_diff(now, self.start)
        if t >= self.duration:
            return None
        if not self.solvable and t < 1200:
            if (t // 200) % 2:
                return base
            return [colors.LOST if c != colors.EMPTY else c for c in base]
        if self.jump < 0:
            return [colors.LOST if (t // 400) % 2 else c for c in base]
        return paint_jump(base, self.board, self.jump, colors.HINT_FROM, colors.HINT_OVER, colors.HINT_TO)


class GameOverShow:
    """One peg: a rainbow ("genius"); otherwise a pulse in the verdict's colour."""

    def __init__(self, n, start, verdict, duration=5000):
        self.n, self.start, self.verdict, self.duration = n, start, verdict, duration

    def frame(self, now, base):
        t = ticks_diff(now, self.start)
        if t >= self.duration:
            return None
        if self.verdict == "genius":
            return [colors.wheel(i * 256 // self.n + t // 8) for i in range(self.n)]
        level = (t // 4) % 512
        level = level if level < 256 else 511 - level
        c = colors.scale(colors.VERDICT.get(self.verdict, colors.ERROR), level, 255)
        return [c] * self.n


class DemoShow:
    """Plays jumps on the LEDs from `mask`: each step shows from/over/to, then the result.
    take_steps() returns the steps completed since the last call (the loop reports them)."""

    def __init__(self, board, start, mask, jumps, step_ms=1200):
        self.board, self.start, self.mask, self.jumps, self.step_ms = board, start, mask, jumps, step_ms
        self.done_steps = 0
        self._reported = 0

    def _mask_after(self, k):
        m = self.mask
        for j in self.jumps[:k]:
            m ^= self.board.flip[j]
        return m

    def take_steps(self):
        out = list(range(self._reported, self.done_steps))
        self._reported = self.done_steps
        return out

    def finished(self):
        return self.done_steps >= len(self.jumps) and self._reported >= len(self.jumps)

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


class SolverShow:
    """The core's step-wise search played on the LEDs: tries in green, backtracks in red. With
    speed_ms = 0 it advances only on step() (the button); otherwise one step per speed_ms."""

    def __init__(self, board, start, mask, speed_ms=150, max_steps=100000):
        from pegcore import search  # only when a show runs: saves the idle board's heap

        self.search = search
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
            self.kind = self.search.EXHAUSTED

    def frame(self, now, base):
        if self.finished_at is not None:
            return None if ticks_diff(now, self.finished_at) > 3000 else self._picture()
        if self.speed_ms:
            while ticks_diff(now, self.next_at) >= 0:
                self._advance()
                self.next_at += self.speed_ms
                if self.kind in (self.search.SOLVED, self.search.EXHAUSTED):
                    break
        while self._pending:
            self._pending -= 1
            self._advance()
        if self.kind in (self.search.SOLVED, self.search.EXHAUSTED) or self.count >= self.max_steps:
            self.finished_at = now
        return self._picture()

    def _picture(self):
        m = self.mask
        out = [colors.PEG if m >> i & 1 else colors.EMPTY for i in range(self.board.holes)]
        if self.jump >= 0 and self.kind in (self.search.TRY, self.search.BACK):
            c = colors.TRY if self.kind == self.search.TRY else colors.BACK
            out[self.board.jump_to[self.jump] if self.kind == self.search.TRY else self.board.jump_from[self.jump]] = c
        if self.kind == self.search.SOLVED:
            out = [colors.LANDING if c == colors.PEG else c for c in out]
        return out


class ChaseShow:
    """Self-test: one white pixel runs along the chain in hole order, then all colours."""

    def __init__(self, n, start, step_ms=120):
        self.n, self.start, self.step_ms = n, start, step_ms

    def frame(self, now, base):
        k = ticks_diff(now, self.start) // self.step_ms
        if k < self.n:
            return [colors.DEMO if i == k else colors.OFF for i in range(self.n)]
        k -= self.n
        if k < 3:
            return [(colors.RED, colors.GREEN, colors.BLUE)[k]] * self.n
        return None


class ErrorBlink:
    """A blink code for start-up errors: `code` red blinks on every pixel, a pause, repeat."""

    def __init__(self, n, code, start):
        self.n, self.code, self.start = n, code, start

    def frame(self, now, base):
        period = 400 * self.code + 1600
        t = ticks_diff(now, self.start) % period
        on = t < 400 * self.code and (t // 200) % 2 == 0
        return [colors.ERROR if on else colors.OFF] * self.n
