"""The colour-parity proof the solver uses to refuse impossible starts, and the 7-row board's
solvable starts it makes quick to find."""

import random

import pytest

from pegboard.solve.fastsolve import count_layers, reachable_layers
from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps, popcount
from pegcore.parity import colour_masks, last_peg_holes
from pegcore.solver import Solver


@pytest.mark.parametrize("rows", [4, 5, 6, 7, 8])
def test_every_jump_keeps_the_last_peg_holes(rows):
    b = Board(rows)
    colours = colour_masks(b)
    assert colours[0] | colours[1] | colours[2] == b.full
    rnd = random.Random(rows)
    tried = 0
    while tried < 3000:
        m = rnd.getrandbits(b.holes)
        for j in legal_jumps(b, m):
            assert last_peg_holes(colours, m ^ b.flip[j]) == last_peg_holes(colours, m)
            tried += 1


@pytest.mark.parametrize("rows", [4, 5, 6, 7, 8])
def test_one_peg_is_its_own_finish(rows):
    b = Board(rows)
    colours = colour_masks(b)
    for i in range(b.holes):
        assert last_peg_holes(colours, 1 << i) >> i & 1


@pytest.mark.parametrize("rows", [4, 5, pytest.param(6, marks=pytest.mark.soak)])  # 6 rows: make soak
def test_parity_never_refuses_a_finish_the_exhaustive_count_finds(rows):
    # the numpy engine counts every line and knows nothing of colours: an independent check
    b = Board(rows)
    colours = colour_masks(b)
    starts = list(range(1, b.holes + 1))
    layers, edges = reachable_layers(b, starts)
    first = [int(x) for x in layers[0]]
    refused = 0
    for f in range(1, b.holes + 1):
        counts = count_layers(b, layers, edges, f)[0]
        for e in starts:
            n = int(counts[first.index(start_mask(b, e))])
            if not last_peg_holes(colours, start_mask(b, e)) >> (f - 1) & 1:
                assert n == 0, (rows, e, f)
                refused += 1
            if rows < 6:
                assert Solver(b, f).count(start_mask(b, e)) == n
    assert refused > 0


def test_t4_impossible_starts_are_the_parity_ones():
    b = Board(4)
    colours = colour_masks(b)
    assert [e for e in range(1, 11) if not last_peg_holes(colours, start_mask(b, e))] == [1, 5, 7, 10]


def test_t7_solvable_starts():
    b = Board(7)
    solver = Solver(b)
    colours = colour_masks(b)
    solvable = []
    for e in range(1, 29):
        start = start_mask(b, e)
        jumps = solver.solution(start)
        if jumps is None:
            assert not solver.possible(start)
            continue
        m = start
        for j in jumps:
            assert j in legal_jumps(b, m)
            m ^= b.flip[j]
        assert popcount(m) == 1 and m & last_peg_holes(colours, start)
        solvable.append(e)
    # the ten holes of the majority colour ((row + column) % 3 == 0) cannot finish with one peg
    assert solvable == [2, 3, 4, 6, 8, 9, 11, 12, 14, 15, 16, 18, 19, 21, 23, 24, 26, 27]


def test_t7_finish_in_another_colour_is_refused_at_once():
    b = Board(7)
    # from hole 2 the last peg can only end on colour 2 ((r + c) % 3 == 2); hole 1 is colour 0
    assert Solver(b, finish=1).solution(start_mask(b, 2)) is None
    assert Solver(b, finish=1).count(start_mask(b, 2)) == 0
