"""Compact memo sets keyed by board masks: a bitset while 2**holes bits is affordable, else a set."""

BITSET_MAX_HOLES = 28  # 2**28 bits = 32 MB on the host; the chip only builds these for 15 holes


class BitSet:
    def __init__(self, holes):
        self.bits = bytearray((1 << holes) >> 3 or 1)

    def __contains__(self, m):
        return self.bits[m >> 3] >> (m & 7) & 1 == 1

    def add(self, m):
        self.bits[m >> 3] |= 1 << (m & 7)


def memo_set(holes, limit=BITSET_MAX_HOLES):
    """An empty set of masks: a bitset for small boards, a Python set for big ones."""
    if holes <= limit:
        try:
            return BitSet(holes)
        except MemoryError:
            # no 4 KB in one piece: a set needs less until it holds ~800 positions, more than a
            # hint on hand-placed pegs visits
            pass
    return set()
