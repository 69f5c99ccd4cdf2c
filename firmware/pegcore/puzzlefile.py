"""Graded puzzles: positions of real games that can still be won, grade 1 (easy) .. G (hardest),
read from flash one entry at a time (the file stays open; nothing but the grades' first indices
is kept in the heap). pegboard.solve.puzzlegen makes the files and says how the grades are found.

File layout (little-endian): b"PGZ1", rows (uint8), grades G (uint8), count n (uint16); G uint16:
the index of each grade's first puzzle (grade 1 first); then n entries sorted by grade, each the
mask in (holes + 7) // 8 bytes (bit i = hole i+1) and the finish hole (uint8, 0: anywhere).
"""

MAGIC = b"PGZ1"
HEAD = 8
ROWS = (5, 6)  # the boards with a table: t5_puzzles.bin, t6_puzzles.bin


class PuzzleTable:
    """The table of a board with `holes` holes. ValueError for a damaged or foreign file; close()
    when done."""

    def __init__(self, path, holes):
        f = open(path, "rb")
        try:
            head = f.read(HEAD)
            if len(head) != HEAD or head[:4] != MAGIC:
                raise ValueError("not a pegboard puzzle table")
            rows = head[4]
            if rows * (rows + 1) // 2 != holes:
                raise ValueError("the puzzle table is for %d rows, not a %d-hole board" % (rows, holes))
            grades = head[5]
            count = head[6] | head[7] << 8
            if grades < 1:
                raise ValueError("the puzzle table has no grades")
            raw = f.read(2 * grades)
            if len(raw) != 2 * grades:
                raise ValueError("the puzzle table is truncated")
            firsts = []
            for g in range(grades):
                firsts.append(raw[2 * g] | raw[2 * g + 1] << 8)
            firsts.append(count)
            for g in range(grades):
                if firsts[g] > firsts[g + 1] or (g == 0 and firsts[0] != 0):
                    raise ValueError("the puzzle table's grades are out of order")
            self.mask_bytes = (holes + 7) // 8
            self.base = HEAD + 2 * grades
            if f.seek(0, 2) != self.base + count * (self.mask_bytes + 1):
                raise ValueError("the puzzle table is truncated or too long")
        except Exception:
            f.close()
            raise
        self.f = f
        self.holes = holes
        self.rows = rows
        self.grades = grades
        self.count = count
        self.firsts = firsts
        self.buf = bytearray(self.mask_bytes + 1)

    def first(self, grade):
        """Index of the grade's first puzzle (the next grade's first when it has none)."""
        self._check_grade(grade)
        return self.firsts[grade - 1]

    def of_grade(self, grade):
        """The indices of the grade's puzzles, as a range."""
        self._check_grade(grade)
        return range(self.firsts[grade - 1], self.firsts[grade])

    def grade_of(self, i):
        self._check_index(i)
        g = 1
        while i >= self.firsts[g]:
            g += 1
        return g

    def puzzle(self, i):
        """(mask, finish hole or 0 for anywhere) of puzzle i."""
        self._check_index(i)
        n = self.mask_bytes
        self.f.seek(self.base + i * (n + 1))
        if self.f.readinto(self.buf) != n + 1:
            raise ValueError("the puzzle table is damaged")
        mask = 0
        for k in range(n - 1, -1, -1):
            mask = mask << 8 | self.buf[k]
        finish = self.buf[n]
        if mask >> self.holes or finish > self.holes or not mask:
            raise ValueError("the puzzle table is damaged")
        return mask, finish

    def close(self):
        self.f.close()

    def _check_grade(self, grade):
        if not isinstance(grade, int) or grade < 1 or grade > self.grades:
            raise ValueError("grade must be 1..%d, not %r" % (self.grades, grade))

    def _check_index(self, i):
        if not isinstance(i, int) or i < 0 or i >= self.count:
            raise IndexError("puzzle index must be 0..%d, not %r" % (self.count - 1, i))


def path_for(rows):
    """The puzzle table of a board's size, beside this module (the chip's /pegcore, or
    firmware/pegcore), or None for a board without one."""
    if rows not in ROWS:
        return None
    here = __file__
    return here[:here.rfind("/") + 1] + "t%d_puzzles.bin" % rows
