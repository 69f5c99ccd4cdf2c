"""The dead ends every 15-hole position can still reach: for each position, the set of peg counts k
such that some line of play from it stops (no jump left) with exactly k pegs, as a bitset (bit k).
The challenges (pegcore.targets) read it: "leave exactly K pegs" is bit K, the reverse game
("leave as many pegs as possible") is the highest bit. Read from flash a byte at a time."""
# File layout (as pegcore.finishfile's): b"PGE1", palette size P (uint8), hash slots N (uint16),
# multipliers k1, k2 (uint16, those of the hint table it belongs to); P end sets (uint16: bit k = a
# dead end with k pegs is reachable; the same for every symmetric image, so no frame to map); then
# N palette indices (uint8), one per slot of the hint table's perfect hash.
#
# `t5_ends.bin` is 6,473 bytes (11 of header, 81 sets = 162 bytes, 6,300 slots). An open table keeps
# its 162-byte palette (a bytearray) and a 1-byte buffer in the heap, plus the open file: 320 bytes in
# all on the 32-bit chip VM (the finish table: 416); a lookup allocates nothing; the slots stay on
# flash. pegboard.solve.tablegen writes it beside t5_hints.bin.

MAGIC = b"PGE1"
HEAD = 11


class EndsTable:
    """ends(mask): the bitset of dead-end peg counts reachable from `mask` (every mask of the
    board: hand-placed ones too; the empty board's is {0}). Keeps the file open; close() when done.
    ValueError for a damaged file or one that does not belong to `table` (the hint table)."""

    def __init__(self, table, path):
        self.table = table
        f = open(path, "rb")
        try:
            head = f.read(HEAD)
            if len(head) != HEAD or head[:4] != MAGIC:
                raise ValueError("not a pegboard ends table")
            p = head[4]
            n = head[5] | head[6] << 8
            k1 = head[7] | head[8] << 8
            k2 = head[9] | head[10] << 8
            if n != table.nslots or k1 != table.k1 or k2 != table.k2:
                raise ValueError("the ends table does not belong to this hint table")
            sets = bytearray(2 * p)
            if p == 0 or f.readinto(sets) != 2 * p or f.seek(0, 2) != HEAD + 2 * p + n:
                raise ValueError("ends table is truncated or too long")
            for i in range(p):
                if sets[2 * i] | sets[2 * i + 1] == 0:  # every position has a dead end
                    raise ValueError("ends table is corrupt")
        except Exception:
            f.close()
            raise
        self.sets = sets  # 2 bytes a set, little-endian: the only heap the table keeps
        self.npal = p
        self.f = f
        self.buf = bytearray(1)

    def ends(self, mask):
        """Bitset of the peg counts of the dead ends reachable from `mask` (bit k: k pegs)."""
        slot, _which = self.table.slot_of(mask)
        self.f.seek(HEAD + 2 * self.npal + slot)
        if self.f.readinto(self.buf) != 1 or self.buf[0] >= self.npal:
            raise ValueError("ends table is damaged")
        i = 2 * self.buf[0]
        return self.sets[i] | self.sets[i + 1] << 8

    def can_leave(self, mask, k):
        """Can play from `mask` still stop (no jump left) with exactly k pegs?"""
        return k >= 0 and self.ends(mask) >> k & 1 == 1

    def most(self, mask):
        """The most pegs a dead end reachable from `mask` can hold (the reverse game's best)."""
        return top_bit(self.ends(mask))

    def close(self):
        self.f.close()


def top_bit(bits):
    """Index of the highest set bit (-1 for 0); no int.bit_length on the chip."""
    k = -1
    while bits:
        bits >>= 1
        k += 1
    return k
