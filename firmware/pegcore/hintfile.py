"""Reads and checks a hint table file (pegcore.hinttable); needed once at start-up, so the
firmware drops it from the heap after loading.

File layout (little-endian): b"PGH4", rows, palette size P (0 = 256), hash slots N (uint16), jump
count J, symmetry count S, bucket count B (uint16), hash multipliers k1, k2 (uint16, < 2**14);
then N palette indices (uint8, one per slot), P palette jumps (uint8, 255 = none), P palette
best-left counts (uint8), (S-1)*64 nibble images (uint16: per non-identity symmetry, 16 images for
each of the 4 nibbles), S*J bytes mapping a canonical-frame jump back per symmetry, and B bucket
displacements (uint8). Slot of canonical mask m: ((m*k2 >> 8) + disp[(m*k1 >> 8) % B]) % N.
Only ~170 (jump, best-left) pairs occur, so one byte per position indexes them.
"""

import array

from pegcore.hinttable import NO_JUMP, FileBytes, HintTable

MAGIC = b"PGH4"
HEAD = 16


def read(board, stream):
    """A HintTable from a binary stream, read straight into its arrays (no temporary copies: the
    chip's heap is small and fragments), but for its one byte per position: those stay in the
    stream, read one per lookup (6.3 KB of heap the game keeps), so the stream must stay open.
    Raises ValueError for a damaged or foreign file."""
    head = stream.read(HEAD)
    if len(head) != HEAD or head[:4] != MAGIC:
        raise ValueError("not a pegboard hint table")
    jn = len(board.need)
    if head[4] != board.rows or head[8] != jn or board.holes > 15:  # masks < 2**15: see lookup
        raise ValueError("hint table is not for a %d-row board" % board.rows)
    p = head[5] or 256
    n = head[6] | head[7] << 8
    s = head[9]
    nb = head[10] | head[11] << 8
    # sizes checked before anything is allocated: a damaged header must not eat the heap
    if not 0 < n <= 8192 or not 0 < nb <= 4096 or not 1 <= s <= 6:
        raise ValueError("hint table is corrupt")
    t = HintTable()
    t.nsym = s
    t.njumps = jn
    t.k1 = head[12] | head[13] << 8
    t.k2 = head[14] | head[15] << 8
    t.codes = FileBytes(stream, HEAD, n)
    t.nslots = n
    t.jumps = bytearray(p)
    t.left = bytearray(p)
    t.nib = array.array("H", bytes(128 * (s - 1)))
    t.back = bytearray(s * jn)
    t.disp = bytearray(nb)
    chunk = bytearray(64)
    codes_ok = True  # checked once the palette is known; read now, a chunk at a time
    left = n
    while left > 0:
        got = stream.readinto(chunk)
        if not got:
            raise ValueError("hint table is truncated")
        for k in range(min(got, left)):
            codes_ok = codes_ok and chunk[k] < p
        left -= got
    if left < 0:  # the last chunk ran into the palette: go back to it
        stream.seek(HEAD + n)
    for buf, size in ((t.jumps, p), (t.left, p), (t.nib, 128 * (s - 1)), (t.back, s * jn), (t.disp, nb)):
        if stream.readinto(buf) != size:
            raise ValueError("hint table is truncated")
    if stream.read(1):
        raise ValueError("hint table has trailing bytes")
    if t.k1 >= 1 << 14 or t.k2 >= 1 << 14:
        raise ValueError("hint table is corrupt")
    for i in range(p):
        j = t.jumps[i]
        if t.left[i] > board.holes or (j != NO_JUMP and j >= jn):  # 0: the empty board
            raise ValueError("hint table is corrupt")
    if not codes_ok:
        raise ValueError("hint table is corrupt")
    for j in t.back:
        if j >= jn:
            raise ValueError("hint table is corrupt")
    return t


def load(board, path):
    """Load a table file; None if it is missing (callers fall back to searching). A present
    but damaged file raises ValueError: better a clear message than silently wrong hints."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        t = read(board, f)  # it keeps the file open: the codes are read from it
    except BaseException:
        f.close()
        raise
    t.path = path  # its finish table lies beside it (pegcore.finishfile)
    return t
