"""Challenges (pegcore.targets) and the ends table (pegcore.endsfile) against an independent brute
force written here: its own jump list from coordinates, and every 15-hole position's dead ends and
finish holes worked out by plain recursion (all 2**15 masks, computed once for the module)."""

import functools
import io

import re

import pytest

from pegboard.solve.tablegen import build_all, reachable
from pegcore import targets as T
from pegcore.endsfile import EndsTable, top_bit
from pegcore.geometry import Board, start_mask
from pegcore.hintfile import load
from pegcore.rules import legal_jumps, popcount
from pegcore.search import LeaveSearch, MostSearch, SolutionSearch

HINTS = "firmware/pegcore/t5_hints.bin"
ENDS = "firmware/pegcore/t5_ends.bin"


# -- the independent brute force -------------------------------------------------------------
def brute_jumps(rows):
    """(from, over, to) bit masks of every jump, from (row, column) steps: not pegcore.geometry."""
    where = {}
    for r in range(rows):
        for c in range(r + 1):
            where[(r, c)] = len(where)
    out = []
    for (r, c), i in where.items():
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)):
            over, to = where.get((r + dr, c + dc)), where.get((r + 2 * dr, c + 2 * dc))
            if over is not None and to is not None:
                out.append((1 << i, 1 << over, 1 << to))
    return out


J5 = brute_jumps(5)


def children(m):
    return [m ^ f ^ o ^ t for f, o, t in J5 if m & f and m & o and not m & t]


@functools.lru_cache(maxsize=None)
def brute_ends(m):
    """Bitset of the dead-end peg counts reachable from m."""
    kids = children(m)
    if not kids:
        return 1 << bin(m).count("1")
    out = 0
    for c in kids:
        out |= brute_ends(c)
    return out


@functools.lru_cache(maxsize=None)
def brute_finish(m):
    """Mask of the holes the last peg can end in from m."""
    if m and not m & (m - 1):
        return m
    out = 0
    for c in children(m):
        out |= brute_finish(c)
    return out


@pytest.fixture(scope="module")
def board():
    return Board(5)


@pytest.fixture(scope="module")
def brute():
    """Every mask's (ends, finish holes): 2**15 of them, once for the module (~1 s)."""
    return [brute_ends(m) for m in range(1 << 15)], [brute_finish(m) for m in range(1 << 15)]


@pytest.fixture(scope="module")
def tg(board):
    t = T.open_tables(board, load(board, HINTS))
    yield t
    t.close()


@pytest.fixture(scope="module")
def positions(board):
    """Every position a game from a one-hole-empty start can reach (13,935)."""
    return sorted(reachable(board))


def play(board, mask, line):
    for j in line:
        assert j in legal_jumps(board, mask)
        mask ^= board.flip[j]
    return mask


def follow(tg, board, target, mask):
    """Walk the target's hints from mask to the end: (final mask, every hint said reachable)."""
    for _ in range(board.holes):
        j, ok = tg.hint(target, mask)
        if j < 0:
            return mask, ok
        assert ok is True and j in legal_jumps(board, mask)
        mask ^= board.flip[j]
    raise AssertionError("the hints never ended")


# -- the ends table ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def built_ends():
    """The ends table as `make table` builds it now: built once for the module."""
    return build_all(5)[2]


def test_the_shipped_ends_table_is_current(built_ends):
    with open(ENDS, "rb") as f:
        data = f.read()
    assert data == built_ends, "run `make table` to regenerate %s" % ENDS
    assert len(data) == 6473  # as endsfile's docstring says


def test_the_ends_table_matches_the_brute_force_on_every_mask(board, tg, brute):
    ends, _fin = brute
    for m in range(board.full + 1):
        got = tg.ends.ends(m)
        assert got == ends[m], m
        assert tg.ends.most(m) == top_bit(ends[m])
    assert tg.ends.npal * 2 == len(tg.ends.sets) == 162  # the heap an open table keeps


@pytest.mark.parametrize("damage", ["magic", "belongs", "truncated", "trailing", "code", "empty-set"])
def test_a_damaged_ends_table_is_refused(board, tg, built_ends, tmp_path, damage):
    data = bytearray(built_ends)
    if damage == "magic":
        data[0] ^= 1
    elif damage == "belongs":
        data[9] ^= 1  # k2
    elif damage == "truncated":
        data = data[:-1]
    elif damage == "trailing":
        data += b"\0"
    elif damage == "code":
        data[-1] = 250  # a slot's palette index past the palette
    else:
        data[11] = data[12] = 0  # the first set: no dead end at all
    path = tmp_path / "t5_ends.bin"
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError):
        et = EndsTable(tg.table, str(path))
        try:
            for m in range(board.full + 1):
                et.ends(m)
        finally:
            et.close()


def test_missing_tables_raise_oserror_and_no_table_means_search(board, tmp_path):
    t = load(board, HINTS)
    t.path = str(tmp_path / "t5_hints.bin")
    with pytest.raises(OSError):
        T.open_tables(board, t)
    none = T.open_tables(board, None)
    assert none.reachable((T.LEAVE, 3), start_mask(board, 1)) is None
    assert none.hint((T.FINISH, 1), start_mask(board, 1)) == (-1, None)


# -- finish in a hole ----------------------------------------------------------------------------
def test_finish_from_every_start_in_every_hole(board, tg, brute):
    _ends, fin = brute
    met = 0
    for e in range(1, 16):
        start = start_mask(board, e)
        for h in range(1, 16):
            target = (T.FINISH, h)
            possible = bool(fin[start] >> (h - 1) & 1)
            assert tg.reachable(target, start) is possible
            assert possible == tg.finish.finish_ok(start, h)
            end, ok = follow(tg, board, target, start)
            if possible:
                assert end == 1 << (h - 1) and ok is True
                assert tg.verdict(target, end) == (True, 1, h)
                met += 1
            else:
                assert (end, ok) == (start, False)  # the first hint already says so
    assert met == sum(popcount(fin[start_mask(board, e)]) for e in range(1, 16)) > 15


def test_finish_hints_on_every_reachable_position(board, tg, brute, positions):
    """From any position of a game: the hint keeps the hole reachable, or says it is not."""
    _ends, fin = brute
    for m in positions:
        for h in range(1, 16):
            target = (T.FINISH, h)
            j, ok = tg.hint(target, m)
            want = bool(fin[m] >> (h - 1) & 1)
            if not children(m):
                assert (j, ok) == (-1, want)
            elif not want:
                assert (j, ok) == (-1, False)
            else:
                assert ok is True and j in legal_jumps(board, m)
                assert fin[m ^ board.flip[j]] >> (h - 1) & 1


def test_the_hint_is_the_ordinary_one_when_that_keeps_the_target(board, tg, brute, positions):
    _ends, fin = brute
    for m in positions[::7]:
        tj, _left = tg.table.lookup(m)
        for h in range(1, 16):
            j, ok = tg.hint((T.FINISH, h), m)
            if ok and tj >= 0 and fin[m ^ board.flip[tj]] >> (h - 1) & 1:
                assert j == tj


# -- leave exactly k -------------------------------------------------------------------------------
def test_leave_k_from_every_start(board, tg, brute):
    ends, _fin = brute
    for e in range(1, 16):
        start = start_mask(board, e)
        for k in range(1, 15):
            target = (T.LEAVE, k)
            possible = bool(ends[start] >> k & 1)
            assert tg.reachable(target, start) is possible
            end, ok = follow(tg, board, target, start)
            if possible:
                assert popcount(end) == k and not children(end)
                assert tg.verdict(target, end) == (True, k, k)
            else:
                assert (end, ok) == (start, False)


def test_leave_hints_on_reachable_positions(board, tg, brute, positions):
    ends, _fin = brute
    for m in positions[::3]:
        for k in (2, 4, 7):
            j, ok = tg.hint((T.LEAVE, k), m)
            want = bool(ends[m] >> k & 1)
            if not children(m):
                assert (j, ok) == (-1, want)
            elif not want:
                assert (j, ok) == (-1, False)
            else:
                assert ok is True and ends[m ^ board.flip[j]] >> k & 1


# -- the reverse game ----------------------------------------------------------------------------
def test_the_reverse_game_from_every_start(board, tg, brute):
    ends, _fin = brute
    for e in range(1, 16):
        start = start_mask(board, e)
        best = top_bit(ends[start])
        target = tg.resolve((T.MOST, 0), start)
        assert target == (T.MOST, best)
        for t in (target, (T.MOST, 0)):  # resolved, and hinting from where it stands
            end, ok = follow(tg, board, t, start)
            assert popcount(end) == best and not children(end) and ok is True, t
        assert tg.verdict(target, end) == (True, best, best)
        # the ordinary game's line leaves one peg (or few): not the reverse game's best
        line = play(board, start, tg_line_ordinary(tg, board, start))
        assert tg.verdict(target, line) == (popcount(line) == best, popcount(line), best)
        assert tg.verdict((T.MOST, 0), line)[0] is None  # not resolved: it cannot judge
        # one jump that gives the best away: the hint says so
        for j in legal_jumps(board, start):
            c = start ^ board.flip[j]
            if top_bit(ends[c]) < best:
                assert tg.hint(target, c) == (-1, False) and tg.reachable(target, c) is False
    assert {top_bit(ends[start_mask(board, e)]) for e in range(1, 16)} == {7, 8, 10}


def tg_line_ordinary(tg, board, m):
    out = []
    while True:
        j, _left = tg.table.lookup(m)
        if j < 0:
            return out
        out.append(j)
        m ^= board.flip[j]


def test_the_search_agrees_on_15_holes(board, brute):
    """The sliced searches of the bigger boards, checked where the answer is known."""
    ends, fin = brute
    for e in range(1, 16):
        start = start_mask(board, e)
        s = MostSearch(board, start)
        while not s.advance(100):
            pass
        assert s.proven and s.best == top_bit(ends[start])
        end = play(board, start, s.jumps)
        assert popcount(end) == s.best and not children(end)
        for k in (1, 2, 5, 8, 9):
            ls = LeaveSearch(board, start, k)
            while not ls.advance(100):
                pass
            assert (ls.jumps is not None) == bool(ends[start] >> k & 1), (e, k)
            if ls.jumps is not None:
                end = play(board, start, ls.jumps)
                assert popcount(end) == k and not children(end)


# -- the text of a target ------------------------------------------------------------------------
def test_parse_and_text():
    for text, target in (("finish:13", (T.FINISH, 13)), ("finish", (T.FINISH, 0)), ("leave:3", (T.LEAVE, 3)),
                         ("most", (T.MOST, 0)), ("most:10", (T.MOST, 10))):
        assert T.parse(text, 15) == target
        assert T.to_text(target) == text
        assert T.check(target, 15) == target
    assert T.parse(" Leave : 4 ", 15) == (T.LEAVE, 4)
    assert T.parse("finish:28", 28) == (T.FINISH, 28)


@pytest.mark.parametrize("text, says", [
    ("finish:16", "the finish hole must be 1..15, not '16'"),
    ("finish:0", "the finish hole must be 1..15"),
    ("finish:x", "the finish hole must be 1..15, not 'x'"),
    ("finish:", "the finish hole must be 1..15"),
    ("leave", "leave needs a peg count: leave:K with K 1..15"),
    ("leave:-1", "the pegs to leave must be 1..15, not '-1'"),
    ("leave:1000", "the pegs to leave must be 1..15"),
    ("most:99", "the pegs of the reverse game must be 1..15"),
    ("win", "unknown challenge 'win': use finish:H, finish (the hole that started empty), leave:K, most or none"),
    ("", "unknown challenge ''"),
])
def test_parse_says_what_is_wrong(text, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        T.parse(text, 15)


def test_parse_refuses_what_is_not_text_and_check_refuses_bad_tuples():
    with pytest.raises(ValueError, match="a challenge is text"):
        T.parse(13, 15)
    for bad in [("finish", 16), ("leave", 0), ("stay", 1), ("most", -1), ("leave", True), ["leave"], None]:
        with pytest.raises(ValueError):
            T.check(bad, 15)


def test_resolve_names_the_hole_that_started_empty(board, tg):
    assert tg.resolve((T.FINISH, 0), start_mask(board, 7)) == (T.FINISH, 7)
    assert tg.resolve((T.LEAVE, 3), start_mask(board, 7)) == (T.LEAVE, 3)
    with pytest.raises(ValueError, match="finish needs a hole: the start has 2 empty holes"):
        tg.resolve((T.FINISH, 0), start_mask(board, 7) & ~1)


# -- the bigger boards: the sliced search ------------------------------------------------------
@pytest.fixture(scope="module")
def b6():
    return Board(6)


def run(s, slice_nodes=50, limit=2_000_000):
    slices = 0
    while not s.advance(slice_nodes):
        slices += 1
        assert s.nodes < limit
    return slices


def test_21_holes_leave_k_by_the_sliced_search(b6):
    tg6 = T.Targets(b6)
    start = start_mask(b6, 1)
    assert tg6.reachable((T.LEAVE, 5), start) is None and tg6.hint((T.LEAVE, 5), start) == (-1, None)
    assert tg6.reachable((T.LEAVE, 20), start) is False  # a jump is left: fewer than 20 at the end
    assert tg6.hint((T.MOST, 0), start) == (-1, None) and tg6.hint((T.MOST, 9), start) == (-1, None)
    for k in (3, 8, 12):
        s = tg6.search((T.LEAVE, k), start)
        slices = run(s)
        end = play(b6, start, s.jumps)
        assert popcount(end) == k and not legal_jumps(b6, end)
        assert tg6.verdict((T.LEAVE, k), end) == (True, k, k)
        assert tg6.reachable((T.LEAVE, k), end) is True  # at game over: no search needed
        if k == 8:
            assert slices > 10  # it did run in slices
    assert T.Targets(b6).line((T.LEAVE, 4), start_mask(b6, 5)) is not None


def test_21_holes_finish_in_a_hole_by_the_sliced_search(b6):
    tg6 = T.Targets(b6)
    start = start_mask(b6, 1)
    for h in (1, 13):
        s = tg6.search((T.FINISH, h), start)
        run(s)
        end = play(b6, start, s.jumps)
        assert end == 1 << (h - 1)
        assert tg6.verdict((T.FINISH, h), end) == (True, 1, h)
    s = tg6.search((T.FINISH, 2), start)  # the wrong colour for the last peg: refused by parity
    run(s)
    assert s.jumps is None


def test_21_holes_the_reverse_game_is_a_bounded_search(b6):
    tg6 = T.Targets(b6)
    start = start_mask(b6, 5)
    s = tg6.search((T.MOST, 0), start)
    assert type(s).__name__ == "MostSearch"  # (by name: other tests may have reloaded pegcore.search)
    while not s.advance(200) and s.nodes < 3000:  # a chip-sized budget: the best so far
        pass
    assert not s.proven and s.best >= 6
    end = play(b6, start, s.jumps)
    assert popcount(end) == s.best and not legal_jumps(b6, end)
    target = (T.MOST, s.best)  # resolved from what the search found
    ls = tg6.search(target, start)
    assert type(ls).__name__ == "LeaveSearch"
    run(ls)
    end = play(b6, start, ls.jumps)
    assert popcount(end) >= s.best and not legal_jumps(b6, end)
    assert tg6.verdict(target, end)[0] is True


def test_solution_search_still_finds_ordinary_wins(b6):
    s = SolutionSearch(b6, start_mask(b6, 1))
    run(s)
    assert popcount(play(b6, start_mask(b6, 1), s.jumps)) == 1


def test_the_ends_table_reads_from_a_stream_too(tg):
    # the reader keeps only its palette: the slots are read from the file one byte at a time
    assert isinstance(tg.ends.f, io.BufferedReader) and len(tg.ends.buf) == 1
