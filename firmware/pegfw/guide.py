"""Guided play: the board lights the next jump of an uploaded solution until the player makes it,
and says on the link how far the player has come. Loaded for the guide alone (App.start_guide)."""


class Guide:
    def __init__(self, link, board, jumps):
        self.link, self.board = link, board
        self.jumps = list(jumps)  # the jumps still to make
        self.step = 0

    def next_jump(self):
        """The jump to light now."""
        return self.jumps[0]

    def moved(self, jump):
        """The player made `jump`: None while the guide goes on, else why it ends (done,
        different_move)."""
        if self.jumps[0] != jump:
            return "different_move"
        self.jumps.pop(0)
        self.step += 1
        self.link.event("guide_step", {"step": self.step, "move": self.board.move_of(jump),
                                       "remaining": len(self.jumps)})
        return None if self.jumps else "done"
