"""The host's numpy engine agrees with the pure core wherever both run."""

import pytest

from pegboard.fastsolve import count_all
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


def test_t6_counts_agree_on_a_start_and_follow_symmetry():
    b = Board(6)
    fast = count_all(b, list(range(1, 22)))
    assert fast[5] == Solver(b).count(start_mask(b, 5))
    # corners 1, 16, 21 are images of each other
    assert fast[1] == fast[16] == fast[21]
