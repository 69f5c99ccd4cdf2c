"""The host's numpy engine agrees with the pure core wherever both run."""

import pytest

from pegboard.solve.fastsolve import count_all
from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver


@pytest.mark.parametrize("rows", [4, 5])
def test_counts_agree_with_core_every_start(rows):
    b = Board(rows)
    fast = count_all(b, list(range(1, b.holes + 1)))
    s = Solver(b)
    assert fast == {e: s.count(start_mask(b, e)) for e in range(1, b.holes + 1)}


@pytest.mark.parametrize("finish", [1, 4, 13])
def test_finish_counts_agree(finish):
    b = Board(5)
    fast = count_all(b, list(range(1, 16)), finish)
    s = Solver(b, finish=finish)
    assert fast == {e: s.count(start_mask(b, e)) for e in range(1, 16)}


@pytest.mark.soak  # a 6-row proof: make test checks the same on 5 rows (and min moves on 6 via the CLI)
def test_t6_counts_agree_on_a_start_and_follow_symmetry():
    b = Board(6)
    fast = count_all(b, list(range(1, 22)))
    assert fast[5] == Solver(b).count(start_mask(b, 5))
    # corners 1, 16, 21 are images of each other
    assert fast[1] == fast[16] == fast[21]


def _moves_of(board, jumps):
    """Moves in a line of jumps: a run of jumps by one peg is one move."""
    moves, last = 0, -1
    for j in jumps:
        if board.jump_from[j] != last:
            moves += 1
        last = board.jump_to[j]
    return moves


@pytest.mark.parametrize("rows,finish", [(4, None), (5, None), (5, 13), (5, 4)])
def test_min_moves_agree_with_core(rows, finish):
    from pegboard.solve.fastsolve import min_moves
    from pegcore.moves import validate_moves
    from pegcore.rules import popcount

    b = Board(rows)
    s = Solver(b, finish)
    for e in range(1, b.holes + 1):
        fast, core = min_moves(b, e, finish), s.min_moves(start_mask(b, e))
        assert (fast is None) == (core is None), e
        if fast is None:
            continue
        assert fast[0] == core[0]
        final, _ = validate_moves(b, start_mask(b, e), [b.move_of(j) for j in fast[1]])
        assert popcount(final) == 1 and (finish is None or final == 1 << (finish - 1))
        assert _moves_of(b, fast[1]) == fast[0]


@pytest.mark.soak  # a 6-row proof: make test checks the same on 5 rows (and min moves on 6 via the CLI)
def test_t6_fewest_moves_is_nine():
    # OEIS A127500: the 21-hole board's shortest solution takes 9 moves (from hole 2, among others)
    from pegboard.solve.fastsolve import min_moves

    b = Board(6)
    moves, jumps = min_moves(b, 2)
    assert moves == 9 and _moves_of(b, jumps) == 9 and len(jumps) == 19
