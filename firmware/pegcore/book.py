"""Opening book for the boards without a hint table (21 and 28 holes): one winning line from each
start that has one, worked out on the PC (pegboard.solve.tablegen). While a game follows its start's
line, the next move is a lookup; off the line, the board searches (pegfw.jobs). On 28 holes the
search rarely finishes from a full board within the chip's budget, so the book is what makes the
hint button answer there early in a game.

File layout: b"PGB1", rows, count; then per line: start hole, jump count n, n jump indices.
"""

MAGIC = b"PGB1"


def load(board, path):
    """{start hole: bytes of jump indices}, {} without the file; ValueError if damaged."""
    try:
        f = open(path, "rb")
    except OSError:
        return {}
    try:
        data = f.read(2048)  # 21 lines of 19 jumps, or 18 of 26: well under
    finally:
        f.close()
    if data[:4] != MAGIC or len(data) < 6 or data[4] != board.rows:
        raise ValueError("not an opening book for a %d-row board" % board.rows)
    lines = {}
    i = 6
    for _ in range(data[5]):
        if i + 2 > len(data) or i + 2 + data[i + 1] > len(data):
            raise ValueError("opening book is truncated")
        start, n = data[i], data[i + 1]
        line = data[i + 2:i + 2 + n]
        if not 1 <= start <= board.holes or any(j >= len(board.need) for j in line):
            raise ValueError("opening book is corrupt")
        lines[start] = line
        i += 2 + n
    return lines


def path_for(rows):
    """The book of a board's size, beside this module (the chip's /pegcore, or firmware/pegcore)."""
    here = __file__
    return here[:here.rfind("/") + 1] + "t%d_book.bin" % rows


def rest_of_line(book, start, moves):
    """The book's jumps after `moves` from `start` (bytes), or None once the game has left its line
    (or there is no line from that start)."""
    line = book.get(start)
    if line is None or len(moves) >= len(line):
        return None
    for k in range(len(moves)):
        if moves[k] != line[k]:
            return None
    return line[len(moves):]
