"""Precomputed hints for the 15-hole board, so the chip answers instantly without searching.

The host (pegboard.tablegen) writes every position reachable from a single-vacancy start,
reduced by the board's six symmetries to one canonical mask each, with its best jump (in the
canonical frame) and the fewest pegs it can still leave. Lookup = canonicalise the mask with
nibble tables, binary-search the sorted masks, map the jump back to the mask's own frame.

File layout (little-endian): b"PGH3", rows, palette size P (0 = 256), entries N (uint16),
jump count J, symmetry count S; then N masks (uint16, sorted), N palette indices (uint8),
P palette jumps (uint8, 255 = none), P palette best-left counts (uint8), (S-1)*64 nibble
images (uint16: per non-identity symmetry, 16 images for each of the 4 nibbles), and S*J bytes
mapping a canonical-frame jump back per symmetry. Only ~150 (jump, best-left) pairs occur, so
one byte per position indexes them.
"""

import array

MAGIC = b"PGH3"
NO_JUMP = 255


class HintTable:
    def __init__(self, board, stream):
        """Read a table from a binary stream straight into its arrays (no temporary copies: the
        chip's heap is small and fragments)."""
        head = stream.read(10)
        if len(head) != 10 or head[:4] != MAGIC:
            raise ValueError("not a pegboard hint table")
        jn = len(board.need)
        if head[4] != board.rows or head[8] != jn or board.holes > 16:
            raise ValueError("hint table is not for a %d-row board" % board.rows)
        p = head[5] or 256
        n = head[6] | head[7] << 8
        s = head[9]
        self.size = n
        self.nsym = s
        self.masks = array.array("H", bytes(2 * n))
        self.codes = bytearray(n)
        self.jumps = bytearray(p)
        self.left = bytearray(p)
        self.nib = array.array("H", bytes(128 * (s - 1)))
        self.back = bytearray(s * jn)
        for buf, size in ((self.masks, 2 * n), (self.codes, n), (self.jumps, p), (self.left, p),
                          (self.nib, 128 * (s - 1)), (self.back, s * jn)):
            if stream.readinto(buf) != size:
                raise ValueError("hint table is truncated")
        if stream.read(1):
            raise ValueError("hint table has trailing bytes")
        for i in range(p):
            j = self.jumps[i]
            if self.left[i] < 1 or self.left[i] > board.holes or (j != NO_JUMP and j >= jn):
                raise ValueError("hint table is corrupt")
        for c in self.codes:
            if c >= p:
                raise ValueError("hint table is corrupt")
        for j in self.back:
            if j >= jn:
                raise ValueError("hint table is corrupt")

    def lookup(self, mask):
        """(jump index or -1, best_left) for mask, or None if the mask is not in the table."""
        best, which = mask, 0
        nib = self.nib
        a, b, c, d = mask & 15, (mask >> 4 & 15) + 16, (mask >> 8 & 15) + 32, (mask >> 12) + 48
        k = 0
        for s in range(1, self.nsym):
            t = nib[k + a] | nib[k + b] | nib[k + c] | nib[k + d]
            k += 64
            if t < best:
                best, which = t, s
        masks = self.masks
        lo, hi = 0, self.size
        while lo < hi:
            mid = (lo + hi) >> 1
            if masks[mid] < best:
                lo = mid + 1
            else:
                hi = mid
        if lo >= self.size or masks[lo] != best:
            return None
        code = self.codes[lo]
        j = self.jumps[code]
        if j == NO_JUMP:
            return -1, self.left[code]
        return self.back[which * len(self.back) // self.nsym + j], self.left[code]


def load(board, path):
    """Load a table file; None if it is missing (callers fall back to searching). A present
    but damaged file raises ValueError: better a clear message than silently wrong hints."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        return HintTable(board, f)
    finally:
        f.close()
