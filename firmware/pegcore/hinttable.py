"""Precomputed hints for the 15-hole board, so the chip answers instantly without searching.

The table holds every position a game can reach from one empty hole, reduced by the board's six
symmetries to one canonical mask each, with its best jump (in the canonical frame) and the fewest
pegs it can still leave. A lookup canonicalises the mask with nibble tables, finds its slot with
a minimal perfect hash (two multiplications, no stored masks: 1 byte a position) and maps the
jump back to the mask's own frame. The hash answers for any mask, so only positions reached by
legal jumps from one empty hole may be looked up (pegcore.advisor sees to it).

pegcore.hintfile reads and checks the file; pegboard.tablegen writes it.
"""

try:
    from typing import Any  # noqa: F401 (type comments)
except ImportError:
    pass

NO_JUMP = 255


class HintTable:
    """The table's arrays (filled by pegcore.hintfile) and the lookup."""

    nsym = njumps = k1 = k2 = 0
    codes = jumps = left = back = disp = b""  # type: bytes | bytearray
    nib = ()  # type: Any

    def lookup(self, mask):
        """(jump index or -1, best_left) for a position reachable from one empty hole."""
        best, which = mask, 0
        nib = self.nib
        a, b, c, d = mask & 15, (mask >> 4 & 15) + 16, (mask >> 8 & 15) + 32, (mask >> 12) + 48
        k = 0
        for s in range(1, self.nsym):
            t = nib[k + a] | nib[k + b] | nib[k + c] | nib[k + d]
            k += 64
            if t < best:
                best, which = t, s
        # products stay under 2**29: small ints on the chip, no allocation
        bucket = (best * self.k1 >> 8) % len(self.disp)
        code = self.codes[((best * self.k2 >> 8) + self.disp[bucket]) % len(self.codes)]
        j = self.jumps[code]
        if j == NO_JUMP:
            return -1, self.left[code]
        return self.back[which * self.njumps + j], self.left[code]
