"""Triangle board geometry: holes and the jump table, generated for 4..8 rows.

Holes are numbered 1..N top to bottom, left to right; internally hole h is bit h-1 of a mask.
Runs unchanged under CircuitPython, MicroPython and CPython.
"""

import array

MIN_ROWS = 4
MAX_ROWS = 8

# The six directions of a triangular lattice in (row, column) steps.
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))


def index(r, c):
    """0-based (row, column) -> 0-based hole index."""
    return r * (r + 1) // 2 + c


class Board:
    """Geometry of a triangle with `rows` rows. Jumps are stored as parallel lists of bitmasks
    so a legality test is `mask & need == need and not mask & land`."""

    def __init__(self, rows=5):
        if not isinstance(rows, int) or rows < MIN_ROWS or rows > MAX_ROWS:
            raise ValueError("rows must be %d..%d, not %r" % (MIN_ROWS, MAX_ROWS, rows))
        self.rows = rows
        self.holes = rows * (rows + 1) // 2
        self.full = (1 << self.holes) - 1
        coords = []
        for r in range(rows):
            for c in range(r + 1):
                coords.append((r, c))
        frm, over, to = bytearray(), bytearray(), bytearray()
        for i in range(self.holes):
            r, c = coords[i]
            for dr, dc in _DIRECTIONS:
                r2, c2 = r + 2 * dr, c + 2 * dc
                if 0 <= r2 < rows and 0 <= c2 <= r2:
                    frm.append(i)
                    over.append(index(r + dr, c + dc))
                    to.append(index(r2, c2))
        self.jump_from = bytes(frm)  # 0-based hole indices
        self.jump_over = bytes(over)
        self.jump_to = bytes(to)
        # Masks as compact arrays while they fit 16 bits (the chip's board); plain ints beyond.
        need = array.array("H") if self.holes <= 16 else []  # type: array.array | list
        land = array.array("H") if self.holes <= 16 else []  # type: array.array | list
        for a, b, t in zip(frm, over, to):
            need.append((1 << a) | (1 << b))
            land.append(1 << t)
        self.need = need
        self.land = land
        flip = array.array("H") if self.holes <= 16 else []
        for n, t in zip(need, land):
            flip.append(n | t)
        self.flip = flip

    def check_hole(self, hole):
        """Validate a 1-based hole number; return it or raise ValueError."""
        if not isinstance(hole, int) or isinstance(hole, bool) or hole < 1 or hole > self.holes:
            raise ValueError("hole must be 1..%d, not %r" % (self.holes, hole))
        return hole

    def find_jump(self, frm, over, to):
        """Index of the jump from/over/to (1-based holes), or -1 if there is none."""
        for j in range(len(self.need)):
            if (self.jump_from[j] == frm - 1 and self.jump_over[j] == over - 1
                    and self.jump_to[j] == to - 1):
                return j
        return -1

    def move_of(self, j):
        """Jump index -> [from, over, to] as 1-based hole numbers."""
        return [self.jump_from[j] + 1, self.jump_over[j] + 1, self.jump_to[j] + 1]

    def row_col(self, hole):
        """1-based hole -> (row, column), both 0-based."""
        i = hole - 1
        r = 0
        while (r + 1) * (r + 2) // 2 <= i:
            r += 1
        return r, i - r * (r + 1) // 2


def start_mask(board, empty):
    """All holes filled but `empty` (1-based)."""
    board.check_hole(empty)
    return board.full & ~(1 << (empty - 1))
