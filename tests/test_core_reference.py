"""The core against the published 15-hole figures: 438,984 solutions over all starts and the counts per
start and finish (durangobill.com, "Peg Solitaire"; 29,760 from a corner: the Maple article), the
shortest solutions in moves (OEIS A127500)."""

import pytest

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps, popcount
from pegcore.solver import Solver
from pegcore.symmetry import symmetries, transform
from pegboard.solve.tablegen import reachable

T5_COUNTS = {1: 29760, 11: 29760, 15: 29760, 2: 14880, 3: 14880, 7: 14880, 10: 14880, 12: 14880,
             14: 14880, 4: 85258, 6: 85258, 13: 85258, 5: 1550, 8: 1550, 9: 1550}
T5_REACHABLE = {1: 3016, 11: 3016, 15: 3016, 2: 2377, 3: 2377, 7: 2377, 10: 2377, 12: 2377,
                14: 2377, 4: 4237, 6: 4237, 13: 4237, 5: 1651, 8: 1651, 9: 1651}
FINISHES = {1: {1: 6816, 7: 3408, 10: 3408, 13: 16128},
            2: {2: 720, 6: 8064, 11: 3408, 14: 2688},
            4: {3: 8064, 4: 51452, 9: 1550, 12: 8064, 15: 16128},
            5: {13: 1550}}


@pytest.fixture(scope="module")
def t5():
    return Board(5)


def test_jump_table_has_36_jumps_on_18_lines(t5):
    assert len(t5.need) == 36
    lines = {frozenset((t5.jump_from[j], t5.jump_over[j], t5.jump_to[j])) for j in range(36)}
    assert len(lines) == 18


def test_counts_per_start(t5):
    solver = Solver(t5)
    assert {e: solver.count(start_mask(t5, e)) for e in range(1, 16)} == T5_COUNTS
    assert sum(T5_COUNTS.values()) == 438984


def _reach_from(board, mask):
    seen, stack = set(), [mask]
    while stack:
        m = stack.pop()
        if m not in seen:
            seen.add(m)
            stack.extend(m ^ board.flip[j] for j in legal_jumps(board, m))
    return seen


@pytest.mark.parametrize("empty", [1, 2, 4, 5])
def test_reachable_positions_per_start(t5, empty):
    assert len(_reach_from(t5, start_mask(t5, empty))) == T5_REACHABLE[empty]


def test_reachable_union_and_solvable(t5):
    allpos = reachable(t5)
    assert len(allpos) == 13935
    solver = Solver(t5)
    assert sum(1 for m in allpos if solver.solvable(m)) == 5052


def _finish_table(board, empty):
    out = {}
    for f in range(1, board.holes + 1):
        n = Solver(board, finish=f).count(start_mask(board, empty))
        if n:
            out[f] = n
    return out


@pytest.mark.parametrize("empty", sorted(FINISHES))
def test_finish_tables(t5, empty):
    assert _finish_table(t5, empty) == FINISHES[empty]


def test_finish_tables_follow_symmetry(t5):
    # the other starts follow from 1, 2, 4, 5 through the six symmetries
    for sym in symmetries(t5):
        for empty, table in FINISHES.items():
            image = sym[empty - 1] + 1
            expected = {sym[f - 1] + 1: n for f, n in table.items()}
            assert _finish_table(t5, image) == expected


def test_t4_solvable_starts():
    b = Board(4)
    solver = Solver(b)
    solvable = [e for e in range(1, 11) if solver.solvable(start_mask(b, e))]
    assert solvable == [2, 3, 4, 6, 8, 9]
    assert all(solver.count(start_mask(b, e)) == 14 for e in solvable)


def test_shortest_solution_is_nine_moves(t5):
    solver = Solver(t5)
    best = min(solver.min_moves(start_mask(t5, e))[0] for e in range(1, 16))
    assert best == 9


def test_min_moves_solution_is_legal_and_counts_moves(t5):
    solver = Solver(t5)
    moves, jumps = solver.min_moves(start_mask(t5, 4))
    m = start_mask(t5, 4)
    runs = 0
    last = -1
    for j in jumps:
        assert j in legal_jumps(t5, m)
        m ^= t5.flip[j]
        if t5.jump_from[j] != last:
            runs += 1
        last = t5.jump_to[j]
    assert popcount(m) == 1
    assert runs == moves


def test_symmetries_form_a_group(t5):
    syms = symmetries(t5)
    assert len(set(syms)) == 6
    assert syms[0] == bytes(range(15))
    as_set = set(syms)
    for a in syms:
        for b in syms:
            assert bytes(a[b[i]] for i in range(15)) in as_set


@pytest.mark.parametrize("rows", [4, 5, pytest.param(6, marks=pytest.mark.soak)])  # 6 rows: make soak
def test_counts_invariant_under_symmetry(rows):
    b = Board(rows)
    solver = Solver(b)
    for sym in symmetries(b):
        for e in range(1, b.holes + 1, 3):
            assert solver.count(start_mask(b, e)) == solver.count(transform(start_mask(b, e), sym))


def test_symmetries_map_jumps_to_jumps(t5):
    for sym in symmetries(t5):
        for j in range(36):
            img = t5.find_jump(sym[t5.jump_from[j]] + 1, sym[t5.jump_over[j]] + 1, sym[t5.jump_to[j]] + 1)
            assert img >= 0
