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
