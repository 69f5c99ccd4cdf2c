"""Where the last peg can still end, for every 15-hole position: read from flash a byte at a time,
so it costs the chip's heap nothing. It lets the board answer `solve` with a finish hole by walking
straight to it (each jump chosen so the finish stays reachable), never searching.

File layout: b"PGF1", palette size F (uint8), hash slots N (uint16), multipliers k1, k2 (uint16,
those of the hint table it belongs to); F finish sets (uint16, canonical frame: bit i = hole i+1);
then N palette indices (uint8), one per slot of the hint table's perfect hash.
pegboard.solve.tablegen writes it beside t5_hints.bin.
"""

MAGIC = b"PGF1"
HEAD = 11


class FinishTable:
    """finish_ok(mask, hole): can the last peg still end in `hole` from `mask`? Keeps the file open;
    close() when done."""

    def __init__(self, table, path):
        self.table = table
        f = open(path, "rb")
        try:
            head = f.read(HEAD)
            if len(head) != HEAD or head[:4] != MAGIC:
                raise ValueError("not a pegboard finish table")
            n = head[5] | head[6] << 8
            k1 = head[7] | head[8] << 8
            k2 = head[9] | head[10] << 8
            if n != table.nslots or k1 != table.k1 or k2 != table.k2:
                raise ValueError("the finish table does not belong to this hint table")
            sets = f.read(2 * head[4])
            if len(sets) != 2 * head[4] or f.seek(0, 2) != HEAD + 2 * head[4] + n:
                raise ValueError("finish table is truncated or too long")
        except Exception:
            f.close()
            raise
        self.sets = [sets[2 * i] | sets[2 * i + 1] << 8 for i in range(head[4])]
        self.f = f
        self.buf = bytearray(1)

    def finish_ok(self, mask, hole):
        slot, which = self.table.slot_of(mask)
        self.f.seek(HEAD + 2 * len(self.sets) + slot)
        if self.f.readinto(self.buf) != 1 or self.buf[0] >= len(self.sets):
            raise ValueError("finish table is damaged")
        return self.sets[self.buf[0]] & self.table.image(1 << (hole - 1), which) != 0

    def close(self):
        self.f.close()
