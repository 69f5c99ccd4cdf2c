"""Rules, geometry, solver and the step-wise search on small and big boards."""

import pytest

from pegcore import search
from pegcore.geometry import Board, start_mask
from pegcore.moves import MoveError, validate_moves
from pegcore.rules import holes_of, is_over, legal_jumps, mask_of, popcount, verdict
from pegcore.solver import Solver


@pytest.mark.parametrize("rows,jumps", [(4, 18), (5, 36), (6, 60), (7, 90), (8, 126)])
def test_board_sizes(rows, jumps):
    b = Board(rows)
    assert b.holes == rows * (rows + 1) // 2
    assert len(b.need) == jumps  # 3 directions x (rows-2)(rows-1)/2 lines x 2 ways
    for j in range(len(b.need)):
        assert b.flip[j] == b.need[j] | b.land[j]
        assert popcount(b.flip[j]) == 3


@pytest.mark.parametrize("rows", [3, 9, 0, -1, "5", 5.0])
def test_bad_rows(rows):
    with pytest.raises(ValueError):
        Board(rows)


def test_hole_numbering_and_masks():
    b = Board(5)
    assert b.row_col(1) == (0, 0)
    assert b.row_col(11) == (4, 0)
    assert b.row_col(15) == (4, 4)
    assert holes_of(mask_of([1, 5, 15])) == [1, 5, 15]
    assert b.move_of(b.find_jump(4, 2, 1)) == [4, 2, 1]
    assert b.find_jump(1, 2, 3) == -1
    for h in (0, 16, True, "3"):
        with pytest.raises(ValueError):
            b.check_hole(h)


def test_verdicts():
    assert [verdict(n) for n in (1, 2, 3, 4, 9)] == [
        "genius", "purty smart", "just plain dumb", "eg-no-ra-moose", "eg-no-ra-moose"]
    with pytest.raises(ValueError):
        verdict(0)


def test_validate_moves_names_the_first_bad_step():
    b = Board(5)
    start = start_mask(b, 1)
    final, jumps = validate_moves(b, start, [[4, 2, 1], [6, 5, 4]])
    assert len(jumps) == 2 and popcount(final) == 12
    with pytest.raises(MoveError) as e:
        validate_moves(b, start, [[4, 2, 1], [4, 2, 1]])
    assert e.value.step == 1
    for bad in ([[1, 2, 3]], [[0, 2, 1]], [[4, 2]], ["x"], [[4, 2, True]]):
        with pytest.raises(MoveError) as e:
            validate_moves(b, start, bad)
        assert e.value.step == 0


def test_solution_is_legal_and_wins():
    for rows in (4, 5, 6):
        b = Board(rows)
        s = Solver(b)
        for e in range(1, b.holes + 1):
            sol = s.solution(start_mask(b, e))
            if sol is None:
                continue
            m = start_mask(b, e)
            for j in sol:
                assert j in legal_jumps(b, m)
                m ^= b.flip[j]
            assert popcount(m) == 1


def test_finish_in_chosen_hole():
    b = Board(5)
    s = Solver(b, finish=13)
    sol = s.solution(start_mask(b, 5))
    m = start_mask(b, 5)
    for j in sol:
        m ^= b.flip[j]
    assert m == 1 << 12
    assert Solver(b, finish=1).solution(start_mask(b, 5)) is None


def test_hint_prefers_most_winning_lines_and_reports_lost_positions():
    b = Board(5)
    s = Solver(b)
    start = start_mask(b, 4)
    j, ok, left = s.hint(start)
    assert ok and left == 1
    counts = [s.count(start ^ b.flip[k]) for k in legal_jumps(b, start)]
    assert s.count(start ^ b.flip[j]) == max(counts)
    # a lost position where the jumps differ: the hint takes one that leaves the fewest pegs (the
    # first such position a game from hole 1 reaches by always taking its last legal jump)
    m, lost = start_mask(b, 1), None
    while legal_jumps(b, m):
        ends = {k: s.best_left(m ^ b.flip[k]) for k in legal_jumps(b, m)}
        if s.best_left(m) > 1 and len(set(ends.values())) > 1:
            lost = m
            break
        m ^= b.flip[legal_jumps(b, m)[-1]]
    assert lost is not None
    j, ok, left = s.hint(lost)
    assert not ok
    assert left == s.best_left(lost) == min(ends.values()) >= 2
    assert j >= 0 and ends[j] == left < max(ends.values())


def test_best_left_on_game_over_is_peg_count():
    b = Board(5)
    m = mask_of([1, 6, 15])
    assert is_over(b, m)
    assert Solver(b).best_left(m) == 3
    assert Solver(b).hint(m) == (-1, False, 3)


def test_search_steps_replay_to_a_win():
    b = Board(5)
    start = start_mask(b, 1)
    stack = [start]
    last = None
    n = 0
    for kind, j, m, step in search.steps(b, start):
        n += 1
        assert step == n or kind in (search.SOLVED, search.EXHAUSTED)
        if kind == search.TRY:
            assert j in legal_jumps(b, stack[-1])
            stack.append(stack[-1] ^ b.flip[j])
            assert stack[-1] == m
        elif kind == search.BACK:
            stack.pop()
            assert stack[-1] == m
        last = kind
    assert last == search.SOLVED
    assert popcount(stack[-1]) == 1


def test_search_exhausts_a_lost_board():
    b = Board(4)
    kinds = [k for k, _j, _m, _s in search.steps(b, start_mask(b, 1))]
    assert kinds[-1] == search.EXHAUSTED
    assert kinds.count(search.TRY) == kinds.count(search.BACK)


def test_memo_falls_back_to_a_set_when_the_heap_has_no_room_for_a_bitset(monkeypatch):
    from pegcore import memo

    def no_room(self, holes):
        raise MemoryError("no 4 KB in one piece")

    assert isinstance(memo.memo_set(15), memo.BitSet)
    monkeypatch.setattr(memo.BitSet, "__init__", no_room)
    assert memo.memo_set(15) == set()
    # and the search still plays a start to one peg with set memos
    b = Board(5)
    s = Solver(b, memo_limit=16)
    assert isinstance(s._bad, set)
    m = start_mask(b, 1)
    for j in s.solution(m):
        m ^= b.flip[j]
    assert popcount(m) == 1
