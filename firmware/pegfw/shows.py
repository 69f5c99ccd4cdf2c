"""Non-blocking light shows, polled by the main loop (LED_Animation style): each show's
`frame(now, base)` returns the frame to send, or None once it has finished. No sleeps.

The hint stays in memory (the player is waiting for it); the other shows live in modules of their
own (show_over, show_demo, show_watch, show_chase) that the App loads when one starts and drops
when it ends."""

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

    def describe(self, now):
        """What the lights show, in roles (the state reply's `show`: views draw it, never
        reading roles back from colours)."""
        lost = not self.solvable and ticks_diff(now, self.start) < 1200
        return {"move": self.board.move_of(self.jump) if self.jump >= 0 and not lost else None, "lost": lost}

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
