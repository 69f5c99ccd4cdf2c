"""Guided play: the board lights the next jump of a line until the player makes it, and says on
the link how far the player has come. It forgives: a different move is lit to be put back (the
holes to fill green, the peg to take out orange) and guidance goes on; a player who plays on
instead is followed with a new line from there (the hint table on 15 holes, a search in slices
elsewhere), and told when no line from there ends with one peg; an undo steps the guidance back.
It ends when its line is played out, the game ends, or stop. Loaded for the guide alone
(App.start_guide)."""

from pegfw import colors
from pegfw.shows import paint_jump


class Guide:
    def __init__(self, link, board, jumps):
        self.link, self.board = link, board
        self.line = list(jumps)  # the line followed ...
        self.step = 0            # ... and how many of its moves are made
        self.off = -1            # a move made off the line, lit to be put back (-1: none)
        self.planning = False    # a new line is being searched for (boards without the table)

    def next_jump(self):
        """The jump to light now: the line's next, or -1 (a move to put back, or no line)."""
        if self.off >= 0 or self.planning or self.step >= len(self.line):
            return -1
        return self.line[self.step]

    def describe(self):
        """The state reply's `show`: the move lit, and whether it is one to put back."""
        if self.off >= 0:
            return {"kind": "guide", "move": self.board.move_of(self.off), "put_back": True}
        j = self.next_jump()
        return {"kind": "guide", "move": self.board.move_of(j) if j >= 0 else None, "put_back": False}

    def paint(self, base):
        if self.off >= 0:  # undo it: the jumping peg and the jumped one back (fill), the landed one out
            return paint_jump(base, self.board, self.off, colors.LANDING, colors.LANDING, colors.PENDING)
        j = self.next_jump()
        if j < 0:
            return base
        return paint_jump(base, self.board, j, colors.HINT_FROM, colors.HINT_OVER, colors.HINT_TO)

    def moved(self, jump):
        """The player made `jump`: None while the guide goes on, "replan" (a new line is needed
        from the position now), or why it ends ("done")."""
        if self.planning:
            return "replan"  # the search was for the position before this move
        if self.off < 0 and self.step < len(self.line) and self.line[self.step] == jump:
            self.step += 1
            self.link.event("guide_step", {"step": self.step, "move": self.board.move_of(jump),
                                           "remaining": len(self.line) - self.step})
            return None if self.step < len(self.line) else "done"
        if self.off < 0:
            self.off = jump
            self.link.event("guide_astray", {"move": self.board.move_of(jump),
                                             "expected": self.board.move_of(self.line[self.step])
                                             if self.step < len(self.line) else None})
            return None
        return "replan"  # played on past a move off the line

    def undone(self, jump):
        """The player took `jump` back: None, or "replan" (the position is off the line)."""
        if self.off >= 0 and jump == self.off:
            self.off = -1
        elif self.off < 0 and not self.planning and self.step > 0 and self.line[self.step - 1] == jump:
            self.step -= 1
        else:
            return "replan"
        self.link.event("guide_back", {"step": self.step, "move": self.board.move_of(self.line[self.step])
                                       if self.step < len(self.line) else None})
        return None

    def replan(self, app):
        replan(app)

    def replanned(self, jumps, solvable):
        """A new line from the position now (`solvable`: it ends with one peg)."""
        self.line, self.step, self.off, self.planning = list(jumps), 0, -1, False
        self.link.event("guide_line", {"moves": [self.board.move_of(j) for j in jumps], "solvable": solvable})


def replan(app):
    """A new line from the position now: the table's best line on 15 holes (lookups, as a demo's),
    else a search as a job whose answer comes a few passes later (pegfw.jobs.GuideLine)."""
    g, pos = app.guide, app.tracker.position
    g.off, g.planning = -1, True  # nothing lit until the new line is known
    if app.table is not None:
        j, ok, _left = app.advisor.hint(pos)
        g.replanned(app.advisor.solution(pos) if j >= 0 else [], ok)
        return
    app.call_job("guide_line", app, pos)
