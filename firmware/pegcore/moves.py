"""Move lists from outside (an uploaded solution, a file): checked completely before anything
changes, the first bad step named. Its own module: the chip needs it only while an upload is
answered."""

from pegcore.rules import apply, is_legal


def validate_moves(board, mask, moves):
    """Check a list of [from, over, to] moves from `mask` without changing anything.

    Returns (final_mask, jump_indices). Raises MoveError naming the first bad step (0-based).
    """
    jumps = []
    for k in range(len(moves)):
        mv = moves[k]
        if not isinstance(mv, (list, tuple)) or len(mv) != 3:
            raise MoveError(k, "each move must be [from, over, to]")
        for h in mv:
            if not isinstance(h, int) or isinstance(h, bool) or h < 1 or h > board.holes:
                raise MoveError(k, "holes must be 1..%d" % board.holes)
        j = board.find_jump(mv[0], mv[1], mv[2])
        if j < 0:
            raise MoveError(k, "%d -> %d over %d is not a jump on this board" % (mv[0], mv[2], mv[1]))
        if not is_legal(board, mask, j):
            raise MoveError(k, "%d -> %d over %d is not legal here" % (mv[0], mv[2], mv[1]))
        mask = apply(board, mask, j)
        jumps.append(j)
    return mask, jumps


class MoveError(ValueError):
    def __init__(self, step, why):
        super().__init__("step %d: %s" % (step, why))
        self.step = step
        self.why = why
