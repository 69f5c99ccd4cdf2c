"""Precomputed hints for the 15-hole board, so the chip answers instantly without searching.

The table holds every position the board can show (all 2**15 masks, hand-placed ones too),
reduced by the board's six symmetries to one canonical mask each (5,728), with its best jump (in
the canonical frame) and the fewest pegs it can still leave. A lookup canonicalises the mask with
nibble tables, finds its slot with a minimal perfect hash (two multiplications, no stored masks:
1 byte a position, read from the file: those 6.3 KB stay on flash, not in the heap) and maps the
jump back to the mask's own frame. So no hint on this board ever
searches: every one is a few dozen bytecodes.

pegcore.hintfile reads and checks the file; pegboard.solve.tablegen writes it.
"""

try:
    from typing import Any  # noqa: F401 (type comments)
except ImportError:
    pass

NO_JUMP = 255


class FileBytes:
    """n bytes of an open file from `at`, read one at a time: a table that stays on flash."""

    def __init__(self, f, at, n):
        self.f, self.at, self.n = f, at, n
        self.buf = bytearray(1)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError("table index out of range")
        self.f.seek(self.at + i)
        if self.f.readinto(self.buf) != 1:
            raise ValueError("hint table file is truncated")
        return self.buf[0]


class HintTable:
    """The table's arrays (filled by pegcore.hintfile) and the lookup."""

    nsym = njumps = k1 = k2 = nslots = 0
    codes = FileBytes(None, 0, 0)  # type: Any  # one palette index per slot, on flash
    jumps = left = back = disp = b""  # type: bytes | bytearray
    nib = ()  # type: Any
    path = ""  # the file it came from

    def slot_of(self, mask):
        """(slot of mask's symmetry class, index of the symmetry that maps mask to its canonical
        image): where this class's byte is, here and in the finish file (pegcore.finishfile)."""
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
        return ((best * self.k2 >> 8) + self.disp[bucket]) % self.nslots, which

    def image(self, mask, which):
        """mask under symmetry `which` (0: itself)."""
        if which == 0:
            return mask
        nib = self.nib
        k = (which - 1) * 64
        return nib[k + (mask & 15)] | nib[k + 16 + (mask >> 4 & 15)] | nib[k + 32 + (mask >> 8 & 15)] \
            | nib[k + 48 + (mask >> 12)]

    def lookup(self, mask):
        """(jump index or -1, best_left) for any mask of the board."""
        slot, which = self.slot_of(mask)
        code = self.codes[slot]
        j = self.jumps[code]
        if j == NO_JUMP:
            return -1, self.left[code]
        return self.back[which * self.njumps + j], self.left[code]
