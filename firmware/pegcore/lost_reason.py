"""Why a position is lost: a short proof, found without searching, that no sequence of jumps
leaves one peg (anywhere, or in a chosen finish hole). Sound: it never claims a reason for a
position that can be won; where it finds none, only a search can tell.

reason(board, mask, finish=None) -> None or (code, holes), holes 1-based, the checks from the most
concrete to the most abstract:"""
#   "no_move"       no jump is left (or one peg is left, outside the finish hole); holes: the pegs
#   "isolated"      pegs that can never jump nor be jumped (holes: those pegs): they stay, and the
#                   other pegs can never all go (a jump keeps the peg that jumps)
#   "apart"         the pegs fall into groups that can never meet (holes: the pegs outside the
#                   biggest group): each group keeps a peg of its own
#   "colour"        the colour count (pegcore.parity): no last peg at all, or none in the finish
#                   hole (holes: where a last peg would have to be, [] when nowhere)
#   "out_of_reach"  the colour count leaves the last peg some holes (holes: those) but no peg can ever
#                   get to them
#   "pagoda"        a pagoda count rules out every hole a last peg could still reach (holes: those)
#
# The arguments, all of them invariants of a jump (f over o to t: f and o emptied, t filled):
#
# - Reach. A hole can only fill by a jump whose f and o hold pegs, so the holes that may ever hold a
#   peg lie in the closure of the pegs under "f and o may hold pegs, so t may" (reach()).
# - Isolated. A set S of pegs is fixed for good when, assuming S stays, no jump with a peg of S as f
#   or o has its partner in reach and lands outside S (fixed_pegs()). Proof: take the first jump
#   that moves or takes a peg of S; before it S stands, so its partner is in the reach computed
#   with S's holes blocked and it lands outside S: the assumption said no such jump exists. Then
#   the other pegs only jump each other, and a jump keeps the peg that jumps: one of them stays too.
# - Apart. Grow groups of pegs, each with its reach; two groups merge when a peg of one could ever
#   jump over a peg of the other (groups()). The first jump mixing two groups would need such a pair,
#   so jumps stay inside groups, and a group's own jumps never take its last peg (the jumper stays).
# - Colour. Colour hole (r, c) with (r + c) % 3: a jump changes each colour's count by one, so the
#   parities of n0 + n1 and n1 + n2 are fixed, and they say which colour one last peg can have.
# - Pagoda. Weights w on the holes with w(f) + w(o) >= w(t) for every jump: no jump raises the
#   pegs' total weight, so a position that weighs less than w(h) never becomes one peg in hole h.
#   The weights (PAGODAS, each with its six mirror images, and fibonacci() on any board) are found
#   once on a PC by linear programming; tests check the inequality on every jump.
#
# Pure core: runs under CircuitPython, MicroPython and CPython, integers only. The host uses it (the
# words are pegboard.solve.lost_words); no firmware module imports it, so it stays off the drive.

from pegcore.parity import colour_masks, last_peg_holes
from pegcore.rules import has_move, holes_of, popcount

NO_MOVE = "no_move"
ISOLATED = "isolated"
APART = "apart"
COLOUR = "colour"
OUT_OF_REACH = "out_of_reach"
PAGODA = "pagoda"
CODES = (NO_MOVE, ISOLATED, APART, COLOUR, OUT_OF_REACH, PAGODA)

# Pagoda functions by rows: each hole's weight, row by row ("/" between rows), each used with its
# six mirror images. Found by linear programming (on a PC, once) over the positions the simpler
# reasons leave unexplained, most useful first; tests check each against every jump.
PAGODAS = {
    # 5 rows: the first is its own mirror image (1 inside; -2, 2, 0, 2, -2 along each side)
    5: ("-2 / 2 2 / 0 1 0 / 2 1 1 2 / -2 2 0 2 -2",
        "-3 / 3 3 / 0 6 0 / 3 2 1 3 / -3 4 1 5 -3",
        "-2 / 2 2 / 0 1 0 / 2 1 1 2 / 0 0 0 0 0",
        "-2 / 2 2 / 0 1 0 / 2 1 1 2 / -2 2 0 2 2",
        "0 / 0 3 / 0 5 0 / 0 2 1 3 / 0 3 1 4 -3",
        "0 / 0 3 / 0 3 3 / 0 2 2 0 / 0 1 1 2 3",
        "0 / 0 2 / 0 1 0 / 0 1 1 2 / 0 0 0 0 0",
        "6 / 3 5 / 3 2 1 / 0 3 1 4 / 3 3 0 3 -3"),
    6: ("0 / 0 2 / 0 1 0 / 0 1 1 2 / 0 1 1 2 2 / 0 0 0 0 0 0",
        "2 / 0 2 / 2 2 0 / 0 1 1 2 / 2 1 1 1 0 / -2 2 0 2 0 2",
        "0 / 0 0 / 0 1 0 / 0 0 0 0 / 0 1 0 1 0 / 0 0 0 0 0 0"),
    7: ("0 / 3 0 / 0 1 0 / 3 1 3 0 / 0 2 0 2 0 / 3 1 3 1 2 0 / -3 3 0 3 1 2 0",
        "0 / 0 0 / 0 3 0 / 0 2 2 0 / 0 5 2 3 0 / 0 7 4 3 3 0 / 0 12 6 6 0 6 0",
        "0 / 0 0 / 0 2 0 / 0 2 2 0 / 0 1 1 1 0 / 0 1 1 1 1 0 / 0 0 0 0 0 0 0"),
}


def fibonacci(board):
    """The pagoda of any triangle: F(k) in a hole k rows above the bottom row (F = 0, 1, 1, 2, 3,
    5 ...). A jump up lands on F(k) from F(k - 2) + F(k - 1), equal; a jump down or along a row
    lands on no more than it leaves. Its mirror images weigh the distance to the other sides."""
    fib = [0, 1]
    while len(fib) < board.rows:
        fib.append(fib[-1] + fib[-2])
    out = []
    for r in range(board.rows):
        for _c in range(r + 1):
            out.append(fib[board.rows - 1 - r])
    return tuple(out)


def _weights(text, holes):
    out = []
    for row in text.split("/"):
        for x in row.split():
            out.append(int(x))
    if len(out) != holes:
        raise ValueError("a pagoda of %d weights for %d holes" % (len(out), holes))
    return tuple(out)


def base_pagodas(board):
    """The board's pagodas before their mirror images: PAGODAS' (if any) and fibonacci()."""
    out = []
    for text in PAGODAS.get(board.rows, ()):
        out.append(_weights(text, board.holes))
    out.append(fibonacci(board))
    return out


def is_pagoda(board, weights):
    """Whether w(from) + w(over) >= w(to) for every jump of the board."""
    w = weights
    for j in range(len(board.need)):
        if w[board.jump_from[j]] + w[board.jump_over[j]] < w[board.jump_to[j]]:
            return False
    return True


def pagodas(board):
    """Every pagoda reason() tries on the board: base_pagodas() and their mirror images, each
    once, as tuples of weights for holes 1..N."""
    return _tables(board)[2]


class _Grid:
    """A board's holes laid out W = rows + 2 bits a row, so a jump in each of the six directions is
    a shift by 1, W or W + 1, one way or the other: a whole set of holes steps at once. The padding
    keeps a shift from making a line of the end of one row and the start of the next."""

    def __init__(self, board):
        self.rows = board.rows
        self.w = w = board.rows + 2
        self.dirs = (1, w, w + 1)
        self.valid = self.grid(board.full)

    def grid(self, mask):
        """Board mask -> padded mask."""
        out = 0
        for r in range(self.rows):
            out |= (mask >> (r * (r + 1) // 2) & ((2 << r) - 1)) << (r * self.w)
        return out

    def board_mask(self, g):
        """Padded mask -> board mask."""
        out = 0
        for r in range(self.rows):
            out |= (g >> (r * self.w) & ((2 << r) - 1)) << (r * (r + 1) // 2)
        return out

    def reach(self, g, free):
        """The closure of `g` under "f and o may hold pegs, so t may", t within `free`."""
        while True:
            n = 0
            for d in self.dirs:
                n |= (g << d) & (g << 2 * d) | (g >> d) & (g >> 2 * d)
            n = g | (n & free)
            if n == g:
                return g
            g = n

    def over(self, g):
        """The holes a peg in `g` could jump over (the hole beyond them on the board)."""
        v, n = self.valid, 0
        for d in self.dirs:
            n |= (g << d) & (v >> d) | (g >> d) & (v << d)
        return n

    def under(self, g):
        """The holes from which a peg could jump over one in `g` (the hole beyond on the board)."""
        v, n = self.valid, 0
        for d in self.dirs:
            n |= (g >> d) & (v >> 2 * d) | (g << d) & (v << 2 * d)
        return n

    def movers(self, r, free):
        """f and o of every jump with f and o in `r` and t in `free`."""
        n = 0
        for d in self.dirs:
            f = r & (r >> d) & (free >> 2 * d)  # f, f + d, f + 2d
            n |= f | f << d
            f = r & (r << d) & (free << 2 * d)  # f, f - d, f - 2d
            n |= f | f >> d
        return n


_TABLES = {}  # type: dict


def _tables(board):
    """Per board size, once: (colour masks, the padded grid, the pagodas and their images)."""
    got = _TABLES.get(board.rows)
    if got is not None:
        return got
    from pegcore.symmetry import symmetries

    syms = symmetries(board)
    images = []
    for base in base_pagodas(board):
        for s in syms:
            w = [0] * board.holes
            for i in range(board.holes):
                w[s[i]] = base[i]
            image = tuple(w)
            if image not in images:
                images.append(image)
    got = (colour_masks(board), _Grid(board), images)
    _TABLES[board.rows] = got
    return got


def reach(board, mask, blocked=0):
    """Mask of the holes that may ever hold a peg from `mask` (a superset), no jump landing in
    `blocked`."""
    g = _tables(board)[1]
    return g.board_mask(g.reach(g.grid(mask), g.valid & ~g.grid(blocked)))


def fixed_pegs(board, mask):
    """(mask of the pegs that can never jump nor be jumped, the reach with their holes blocked).
    Starts from all the pegs and lets go of any that might be in a jump, until none is."""
    g = _tables(board)[1]
    pegs = g.grid(mask)
    s = pegs
    while True:
        free = g.valid & ~s
        r = g.reach(pegs, free)
        t = s & ~g.movers(r, free)
        if t == s:
            return g.board_mask(s), g.board_mask(r)
        s = t


def _join(parts, reached, over):
    """Merge the groups that meet (a peg of one could jump over a peg of the other), in place."""
    x = 0
    while x < len(parts):
        y = x + 1
        while y < len(parts):
            if over[x] & reached[y] or over[y] & reached[x]:
                parts[x] |= parts.pop(y)
                reached[x] |= reached.pop(y)
                over[x] |= over.pop(y)
                y = x + 1
            else:
                y += 1
        x += 1


def groups(board, mask):
    """The pegs as groups (masks) that can never meet: no peg of one can ever jump over a peg of
    another, nor the other way."""
    g = _tables(board)[1]
    left = g.grid(mask)
    parts = []
    while left:  # first the pegs that meet as they stand, a flood at a time
        part = left & -left
        while True:
            more = part | (left & (g.over(part) | g.under(part)))
            if more == part:
                break
            part = more
        parts.append(part)
        left &= ~part
    reached = parts[:]
    over = [g.over(p) for p in parts]
    while len(parts) > 1:  # then as they might ever stand
        _join(parts, reached, over)
        grown = False
        for k in range(len(parts)):
            r = g.reach(parts[k], g.valid)
            if r != reached[k]:
                reached[k] = r
                over[k] = g.over(r)
                grown = True
        if not grown:
            break
    return [g.board_mask(p) for p in parts]


def weight(weights, mask):
    """The pegs' total weight."""
    total, i = 0, 0
    while mask:
        if mask & 1:
            total += weights[i]
        mask >>= 1
        i += 1
    return total


def pagoda_for(board, mask, hole):
    """A pagoda (weights of holes 1..N) under which `mask` weighs less than one peg in `hole`
    (1-based), or None."""
    facts = _facts(board, mask)
    images = _tables(board)[2]
    if facts[5] is None:
        facts[5] = [weight(w, mask) for w in images]
    for k in range(len(images)):
        if facts[5][k] < images[k][hole - 1]:
            return images[k]
    return None


# What reason() needs of the last position asked about, whatever the target: [rows, mask, fixed
# pegs, reach, groups, the pagodas' totals once asked for]. Asking for several finish holes in a
# row, or for words after the reason, reuses it.
_LAST = [None]  # type: list


def _facts(board, mask):
    last = _LAST[0]
    if last is not None and last[0] == board.rows and last[1] == mask:
        return last
    fixed, r = fixed_pegs(board, mask)
    last = [board.rows, mask, fixed, r, groups(board, mask), None]
    _LAST[0] = last
    return last


def reason(board, mask, finish=None):
    """Why one peg (in hole `finish`, or anywhere) cannot be left from `mask`: (code, holes) as the
    module's docstring says, or None: won, winnable, or lost in a way only a search finds."""
    fmask = board.full if finish is None else 1 << (board.check_hole(finish) - 1)
    n = popcount(mask)
    if n <= 1 or not has_move(board, mask):
        if n == 1 and mask & fmask:
            return None  # won
        return NO_MOVE, holes_of(mask)
    facts = _facts(board, mask)
    fixed, parts = facts[2], facts[4]
    if fixed:  # it stays, and so does a peg of the others: a jump keeps the peg that jumps
        return ISOLATED, holes_of(fixed)
    if len(parts) >= 2:
        big = 0
        for p in parts:
            if popcount(p) > popcount(big):
                big = p
        return APART, holes_of(mask & ~big)
    last = last_peg_holes(_tables(board)[0], mask)
    if not last & fmask:
        return COLOUR, holes_of(last)
    where = last & fmask & facts[3]
    if not where:
        return OUT_OF_REACH, holes_of(last & fmask)
    for h in holes_of(where):
        if pagoda_for(board, mask, h) is None:
            return None
    return PAGODA, holes_of(where)
