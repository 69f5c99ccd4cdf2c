"""Guided play: the board lights the next jump of an uploaded solution until the player makes it,
and says on the link how far the player has come, or why the guide ended."""


class Guide:
    def __init__(self, link, board):
        self.link, self.board = link, board
        self.jumps = None  # the jumps still to make (a list), or None: no guide
        self.step = 0

    def active(self):
        return self.jumps is not None

    def start(self, jumps):
        self.jumps = list(jumps)
        self.step = 0

    def next_jump(self):
        """The jump to light now, or None."""
        return self.jumps[0] if self.jumps else None

    def moved(self, jump):
        """The player made `jump`: the next step, the end, or a different line (the guide ends)."""
        if self.jumps is None:
            return
        if self.jumps and self.jumps[0] == jump:
            self.jumps.pop(0)
            self.step += 1
            self.link.event("guide_step", {"step": self.step, "move": self.board.move_of(jump),
                                           "remaining": len(self.jumps)})
            if not self.jumps:
                self.off("done")
        else:
            self.off("different_move")

    def off(self, reason):
        """End the guide (done, different_move, undo, stopped, a new game) and say why."""
        if self.jumps is not None:
            self.jumps = None
            self.link.event("guide_off", {"reason": reason})
