"""Colour parities: a proof, without searching, that some positions cannot finish with one peg.

Colour hole (row r, column c) with (r + c) % 3, both counted from 0: the three holes of every jump
have three different colours. A jump takes a peg off two colours and puts one on the third, so each
colour's peg count changes parity and the parities of (n0 + n1) and (n1 + n2) never change.
"""

from pegcore.rules import popcount


def colour_masks(board):
    """[mask of colour 0, colour 1, colour 2]."""
    out = [0, 0, 0]
    i = 0
    for r in range(board.rows):
        for c in range(r + 1):
            out[(r + c) % 3] |= 1 << i
            i += 1
    return out


def last_peg_holes(colours, mask):
    """Mask of the holes where the last peg could possibly end from `mask` (0: nowhere). One peg
    on colour 0, 1 or 2 has parities (1, 0), (1, 1) or (0, 1), so at most one colour can hold it:
    this rules out 10 of the 28 starts on the 7-row board."""
    n0 = popcount(mask & colours[0])
    n1 = popcount(mask & colours[1])
    a = (n0 + n1) & 1
    b = (n1 + popcount(mask & colours[2])) & 1
    if a:
        return colours[1] if b else colours[0]
    return colours[2] if b else 0
