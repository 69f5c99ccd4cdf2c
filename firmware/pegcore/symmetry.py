"""The triangle's six symmetries (rotations and reflections) as hole permutations.

Host-side and test-side mostly: the chip gets the few symmetry tables it needs precomputed
inside the hint table file.
"""

from pegcore.geometry import index

# Barycentric coordinates (a, b, d) with a + b + d = rows - 1; permuting them gives the six
# symmetries of the triangle (identity first).
_PERMS = ((0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1))


def symmetries(board):
    """List of 6 permutations (bytes, hole index -> image index), identity first."""
    n1 = board.rows - 1
    result = []
    for p in _PERMS:
        table = bytearray()
        for r in range(board.rows):
            for c in range(r + 1):
                bary = (r - c, c, n1 - r)
                table.append(index(n1 - bary[p[2]], bary[p[1]]))
        result.append(bytes(table))
    return result


def transform(mask, sym):
    """Apply a symmetry (hole permutation) to a mask."""
    out = 0
    i = 0
    while mask:
        if mask & 1:
            out |= 1 << sym[i]
        mask >>= 1
        i += 1
    return out


def transform_jump(board, j, sym):
    """Index of the image of jump j under sym."""
    return board.find_jump(sym[board.jump_from[j]] + 1, sym[board.jump_over[j]] + 1,
                           sym[board.jump_to[j]] + 1)


def canonical(mask, syms):
    """(smallest image of mask, index of the symmetry that gives it)."""
    best, which = mask, 0
    for s in range(1, len(syms)):
        t = transform(mask, syms[s])
        if t < best:
            best, which = t, s
    return best, which
