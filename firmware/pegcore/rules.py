"""Rules of peg solitaire on bitmasks: legal jumps, apply/undo, game over, pegs left, verdicts."""

VERDICTS = ("genius", "purty smart", "just plain dumb", "eg-no-ra-moose")


def popcount(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def holes_of(mask):
    """Mask -> sorted list of 1-based hole numbers."""
    out = []
    h = 1
    while mask:
        if mask & 1:
            out.append(h)
        mask >>= 1
        h += 1
    return out


def mask_of(holes):
    m = 0
    for h in holes:
        m |= 1 << (h - 1)
    return m


def legal_jumps(board, mask):
    """Indices of the jumps legal in `mask`."""
    need, land = board.need, board.land
    out = []
    for j in range(len(need)):
        n = need[j]
        if mask & n == n and not mask & land[j]:
            out.append(j)
    return out


def is_legal(board, mask, j):
    n = board.need[j]
    return mask & n == n and not mask & board.land[j]


def has_move(board, mask):
    need, land = board.need, board.land
    for j in range(len(need)):
        n = need[j]
        if mask & n == n and not mask & land[j]:
            return True
    return False


def apply(board, mask, j):
    """Make jump j (must be legal); jumps are their own inverse, so this also undoes one."""
    return mask ^ board.flip[j]


undo = apply


def is_over(board, mask):
    return not has_move(board, mask)


def verdict(pegs_left):
    """The Cracker Barrel verdict for the pegs left at game over."""
    if pegs_left < 1:
        raise ValueError("pegs_left must be >= 1")
    return VERDICTS[min(pegs_left, 4) - 1]


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
