"""Pegs that keep their colours (the `pegs` theme): which starting peg stands in each hole.

At a new game the starting pegs are numbered 0, 1, 2 ... in hole order; a jump carries its peg's
number to the landing hole and the jumped peg's number leaves the board. So the numbers are a
pure function of the start and the accepted moves: nothing is stored for them, an undo (a
shorter move list) gives the jumped peg its number back, and a resumed game (its logged moves
replayed) shows the same colours as before the reset. Shared by the firmware's lights and the
host's pictures. Runs unchanged under CircuitPython, MicroPython and CPython.
"""

# Peg number n is lit HUES[n % 6]: six hues around the colour wheel that keep clear of the
# colours the board gives a meaning (red: illegal; orange-red: the jumped peg to pull out; green
# and spring green: landing holes and hints; the hints' blue and magenta; the plain peg's warm
# white): yellow, aqua, indigo, violet, chartreuse, rose. Each is at least 0.37 from every such
# colour and from the others as a direction in RGB (each channel over the brightest), so a
# dimmed or current-limited LED is still told apart (the host's terminal UI reads them so).
# Ordered so that neighbouring pegs of every full-less-one start of 5 rows differ most.
HUES = (0xFFEA00, 0x00FFEA, 0x4000FF, 0xAA00FF, 0x95FF00, 0xFF006A)


def peg_ids(board, start, moves):
    """Per hole (index hole - 1): the number of the starting peg in it, or -1 for an empty hole,
    after the jumps `moves` (jump indices of `board`, legal in turn) from the pegs `start`."""
    ids = []
    n = 0
    for i in range(board.holes):
        if start >> i & 1:
            ids.append(n)
            n += 1
        else:
            ids.append(-1)
    frm, over, to = board.jump_from, board.jump_over, board.jump_to
    for j in moves:
        ids[to[j]] = ids[frm[j]]
        ids[frm[j]] = -1
        ids[over[j]] = -1
    return ids


def hue(peg):
    """The colour (0xRRGGBB) of peg number `peg` (not -1)."""
    return HUES[peg % len(HUES)]
