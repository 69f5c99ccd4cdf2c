"""The review's lights: the position before the move that lost the win, that move in the lost
colour, then a move that would have kept the win in the hint's colours, in turn, until a peg is
touched (the set-up lights then say what to put back) or a few rounds have passed."""

from pegfw import colors
from pegfw.clock import ticks_diff
from pegfw.shows import paint_jump

PHASE_MS = 1500
ROUNDS = 3


class ReviewShow:
    def __init__(self, board, start, before, played, better):
        self.board, self.start, self.before, self.played, self.better = board, start, before, played, better

    def _better_now(self, now):
        return (ticks_diff(now, self.start) // PHASE_MS) % 2 == 1

    def describe(self, now):
        """In roles (the state reply's `show`): the position lit, and the move lit now."""
        b = self.board
        better = self._better_now(now)
        pegs = [i + 1 for i in range(b.holes) if self.before >> i & 1]
        return {"pegs": pegs, "move": b.move_of(self.better if better else self.played),
                "lost": not better}

    def frame(self, now, base):
        if ticks_diff(now, self.start) >= 2 * ROUNDS * PHASE_MS:
            return None
        m = self.before
        out = [colors.PEG if m >> i & 1 else colors.EMPTY for i in range(self.board.holes)]
        if self._better_now(now):
            return paint_jump(out, self.board, self.better, colors.HINT_FROM, colors.HINT_OVER, colors.HINT_TO)
        return paint_jump(out, self.board, self.played, colors.LOST, colors.LOST, colors.LOST)
