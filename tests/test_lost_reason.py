"""Why a position is lost (pegcore.lost_reason, and its words in pegboard.solve.lost_words): never a
reason for a position that can be won, checked against the board's own tables over all 32,768
positions of the 15-hole board, for one peg anywhere and for every finish hole; on the other sizes
against the core's search, on positions from random games; the pagodas against every jump; the
padded grid's shifts against the jump table."""

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from conftest import ROOT
from test_core_targets import brute_jumps
from pegboard.solve.lost_words import board_words, lost_words, reason_json
from pegcore import lost_reason as L
from pegcore.geometry import Board, start_mask
from pegcore.hintfile import load
from pegcore.rules import legal_jumps, mask_of, popcount
from pegcore.search import SolutionSearch
from pegcore.targets import open_tables

HINTS = str(ROOT / "firmware" / "pegcore" / "t5_hints.bin")
TARGETS = [None] + list(range(1, 16))


def winnable(board, mask, finish):
    """The core's search, a memo of its own: can one peg (in `finish`) be left from `mask`?"""
    s = SolutionSearch(board, mask, finish, dead=set())
    while not s.advance(1 << 16):
        pass
    return s.jumps is not None


# -- every position of the 15-hole board ------------------------------------------------------
@pytest.fixture(scope="module")
def t5():
    """For every target (None: one peg anywhere; 1..15: in that hole), the reasons given for the
    lost positions (Counter by code, None: no reason), and every reason given for a position the
    tables say can be won. The lost positions' truth: the hint table's fewest pegs left (1: one peg
    can still be left) and the finish table's holes the last peg can still end in."""
    board = Board(5)
    tg = open_tables(board, load(board, HINTS))
    try:
        wins = []
        for m in range(1 << 15):
            holes = 0
            for h in range(1, 16):
                if tg.finish.finish_ok(m, h):
                    holes |= 1 << (h - 1)
            assert (tg.table.lookup(m)[1] == 1) == (holes != 0)  # the two tables agree
            wins.append(holes)
    finally:
        tg.close()
    counts = {f: Counter() for f in TARGETS}
    unsound = []
    for m in range(1 << 15):
        for f in TARGETS:  # one mask after another: lost_reason keeps what it worked out for the last
            got = L.reason(board, m, f)
            lost = not wins[m] & (board.full if f is None else 1 << (f - 1))
            if got is not None and not lost:
                unsound.append((m, f, got))
            if lost:
                counts[f][None if got is None else got[0]] += 1
    return counts, unsound


def test_no_reason_is_ever_given_for_a_position_that_can_be_won(t5):
    counts, unsound = t5
    assert not unsound, unsound[:10]
    assert sum(counts[None].values()) == 18833  # the lost positions: every mask but the 13,935 winnable


def test_the_reasons_explain_most_lost_positions(t5):
    """The counts, as the code finds them (lost positions and the reason each gets; None: none):
    one peg anywhere: 18,833 lost: no_move 667, isolated 1,914, apart 108, colour 7,504, pagoda 402;
        none 8,238 (44%: positions lost only as a search finds, mostly 5-10 pegs)
    the 15 finish holes together: 450,546 lost: no_move 10,215, isolated 28,710, apart 1,620,
        colour 338,160, out_of_reach 8,550, pagoda 12,810; none 50,481 (11%)
    The bounds below are well under these: they fail when a check stops working, not on a tweak."""
    counts, _ = t5
    anywhere = counts[None]
    lost = sum(anywhere.values())
    assert anywhere[L.NO_MOVE] > 600 and anywhere[L.ISOLATED] > 1700 and anywhere[L.APART] > 80
    assert anywhere[L.COLOUR] > 7000 and anywhere[L.PAGODA] > 350
    assert anywhere[None] < 0.5 * lost
    finish = Counter()
    for f in range(1, 16):
        finish.update(counts[f])
    lost = sum(finish.values())
    assert finish[L.NO_MOVE] > 10000 and finish[L.ISOLATED] > 25000 and finish[L.APART] > 1200
    assert finish[L.COLOUR] > 300000 and finish[L.OUT_OF_REACH] > 8000 and finish[L.PAGODA] > 12000
    assert finish[None] < 0.12 * lost
    for f in range(1, 16):  # the pagodas help every finish hole
        assert counts[f][L.PAGODA] > 100, f


# -- the other sizes: against the core's search --------------------------------------------------
@pytest.mark.parametrize("rows,games,most", [(4, 0, 0), (6, 5000, 14), (7, 3000, 12), (8, 1000, 10)])
def test_no_reason_on_other_boards_for_a_position_the_search_wins(rows, games, most):
    """4 rows: every position; 6 to 8 rows: positions of random games (seeded) down to a random
    count of pegs (at most `most`: the search proves a loss quickly there), one peg anywhere and a
    random finish hole."""
    board = Board(rows)
    rnd = random.Random(rows)
    if games:
        positions = []
        for _ in range(games):
            m = start_mask(board, rnd.randrange(1, board.holes + 1))
            stop = rnd.randrange(2, most + 1)
            while popcount(m) > stop and legal_jumps(board, m):
                m ^= board.flip[rnd.choice(legal_jumps(board, m))]
            positions.append(m)
    else:
        positions = list(range(1 << board.holes))
    given = Counter()
    for m in positions:
        for f in (None, rnd.randrange(1, board.holes + 1)):
            got = L.reason(board, m, f)
            if got is not None:
                assert not winnable(board, m, f), (rows, m, f, got)
                given[got[0]] += 1
    assert given[L.COLOUR] and given[L.ISOLATED] and given[L.NO_MOVE], given
    if rows in (6, 7):
        assert given[L.PAGODA], given  # their own pagodas are used


# -- the pagodas -------------------------------------------------------------------------------
@pytest.mark.parametrize("rows", [4, 5, 6, 7, 8])
def test_every_pagoda_holds_on_every_jump(rows):
    board = Board(rows)
    # the jumps from (row, column) steps, not pegcore.geometry's table: 0-based (from, over, to)
    jumps = [tuple(bit.bit_length() - 1 for bit in jump) for jump in brute_jumps(rows)]
    assert len(jumps) == len(board.need)
    used = L.pagodas(board)
    for w in used:
        assert len(w) == board.holes
        bad = [(f + 1, o + 1, t + 1) for f, o, t in jumps if w[f] + w[o] < w[t]]
        assert not bad, (w, bad)
        assert L.is_pagoda(board, w)
    bases = L.base_pagodas(board)
    assert len(bases) == len(L.PAGODAS.get(rows, ())) + 1 and bases[-1] == L.fibonacci(board)
    assert len(used) >= len(bases)  # and their mirror images
    if rows in (5, 6, 7):
        assert len(L.PAGODAS[rows]) >= 3


def test_a_broken_pagoda_is_refused():
    board = Board(5)
    w = list(L.base_pagodas(board)[0])
    assert L.is_pagoda(board, w)
    w[0] += 5  # hole 1 heavier than 2 + 4 (a jump 4 over 2 lands there)
    assert not L.is_pagoda(board, w)
    assert L.fibonacci(board) == (3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)


# -- the padded grid against the jump table -------------------------------------------------------
def naive_reach(board, mask, blocked):
    r = mask
    while True:
        more = r
        for j in range(len(board.need)):
            if more & board.need[j] == board.need[j] and not (more | blocked) & board.land[j]:
                more |= board.land[j]
        if more == r:
            return r
        r = more


def naive_fixed(board, mask):
    s = mask
    while True:
        r = naive_reach(board, mask, s)
        t = s
        for j in range(len(board.need)):
            if r & board.need[j] == board.need[j] and not s & board.land[j]:
                t &= ~board.need[j]
        if t == s:
            return s, r
        s = t


def naive_groups(board, mask):
    parts = [[1 << i, 1 << i] for i in range(board.holes) if mask >> i & 1]  # [pegs, reach]
    joined = True
    while joined:
        joined = False
        for x in range(len(parts)):
            for y in range(len(parts)):
                rx, ry = parts[x][1], parts[y][1]
                if x != y and any(rx >> board.jump_from[j] & 1 and ry >> board.jump_over[j] & 1
                                  for j in range(len(board.need))):
                    pegs = parts[x][0] | parts.pop(y)[0]
                    parts[x if x < y else x - 1] = [pegs, naive_reach(board, pegs, 0)]
                    joined = True
                    break
            if joined:
                break
    return sorted(p[0] for p in parts)


@pytest.mark.parametrize("rows", [4, 5, 6, 7, 8])
def test_reach_fixed_pegs_and_groups_are_the_jump_tables(rows):
    board = Board(rows)
    rnd = random.Random(rows)
    for k in range(600):
        bits = [rnd.getrandbits(board.holes) for _ in range(3)]
        mask = bits[0] & bits[1] if k % 2 else bits[0] & bits[1] & bits[2]  # sparse: the interesting ones
        blocked = bits[2] & ~mask
        assert L.reach(board, mask, blocked) == naive_reach(board, mask, blocked), (rows, mask)
        assert L.fixed_pegs(board, mask) == naive_fixed(board, mask), (rows, mask)
        assert sorted(L.groups(board, mask)) == naive_groups(board, mask), (rows, mask)


# -- examples, and their words ------------------------------------------------------------------
EXAMPLES = [  # pegs, finish, code, holes, words
    ([], None, L.NO_MOVE, [], "the board is empty"),
    ([2, 3], None, L.NO_MOVE, [2, 3], "no jump is left"),
    ([3], 5, L.NO_MOVE, [3], "the last peg is in hole 3, not 5"),
    ([1, 4, 6, 8], None, L.ISOLATED, [1, 6], "pegs 1 and 6 can never jump or be jumped"),
    ([1, 3, 4], 5, L.ISOLATED, [4], "peg 4 can never jump or be jumped: it stays, and so does one of the others"),
    ([1, 3, 4, 8], None, L.APART, [4, 8], "pegs 4 and 8 can never meet the other pegs"),
    ([1, 2, 3], None, L.COLOUR, [], "no single peg has these"),
    ([1, 2], 1, L.COLOUR, [3, 4, 9, 12, 15], "these allow one last peg only in holes 3, 4, 9, 12 or 15"),
    ([2, 4], 5, L.OUT_OF_REACH, [5], "no peg can ever get to hole 5"),
    ([3, 4, 7], 1, L.PAGODA, [1], "a pagoda count"),
    ([1, 3, 5, 11], None, L.PAGODA, [1, 5, 10, 13], "for each hole the last peg could still be in: 1, 5, 10 and 13"),
]


@pytest.mark.parametrize("pegs,finish,code,holes,text", EXAMPLES)
def test_examples(pegs, finish, code, holes, text):
    board = Board(5)
    mask = mask_of(pegs)
    assert L.reason(board, mask, finish) == (code, holes)
    if pegs:
        assert not winnable(board, mask, finish)
    said = lost_words(board, mask, finish)
    assert said is not None and text in said, said
    assert board_words(pegs, 15, finish) == said
    assert reason_json(board, mask, finish) == {"code": code, "holes": holes, "text": said}


def test_a_pagoda_in_words_gives_the_weights():
    board = Board(5)
    mask = mask_of([3, 4, 7])
    w = L.pagoda_for(board, mask, 1)
    assert w is not None and L.weight(w, mask) < w[0]
    assert lost_words(board, mask, 1).endswith("these pegs weigh %d and one peg in hole 1 would weigh %d"
                                               % (L.weight(w, mask), w[0]))


def test_no_reason_for_a_won_or_winnable_position():
    board = Board(5)
    assert L.reason(board, mask_of([7])) is None and L.reason(board, mask_of([7]), 7) is None
    assert L.reason(board, start_mask(board, 5)) is None and lost_words(board, start_mask(board, 5)) is None
    assert board_words([1, 2], 15) is None  # 1 over 2: one peg in hole 4
    assert board_words([1, 2], 14) is None and board_words([1, 99], 15) is None  # not a board: no words


# -- where the host says it ------------------------------------------------------------------------
def test_solve_says_why_a_start_has_no_solution(cli):
    code, out, err = cli("solve", "--rows", "4", "--empty", "1", "--json")
    got = json.loads(out)
    assert code == 1 and got["reason"]["code"] == L.COLOUR and got["reason"]["holes"] == []
    assert got["message"] == "no solution from hole 1: " + got["reason"]["text"]
    code, _, err = cli("solve", "--empty", "1", "--finish", "2")
    assert code == 1 and "no solution from hole 1 finishing in 2: colour parity" in err
    assert "one last peg only in holes 1, 5, 7, 10 or 13" in err
    code, out, _ = cli("solve", "--empty", "5", "--finish", "1", "--json")
    assert code == 1 and "reason" not in json.loads(out)  # lost, but only the search knows it


def test_hint_and_state_say_why_on_the_board(sim, cli):
    sim.control("set", pegs=[1, 4, 6, 8])
    sim.control("wait_idle")
    code, _, _ = cli("play", "--port", sim.data_path)
    assert code == 0
    code, out, _ = cli("hint", "--port", sim.data_path)
    assert code == 0 and out.startswith("lost: one peg is out of reach")
    assert "why: pegs 1 and 6 can never jump or be jumped" in out
    code, out, _ = cli("state", "--port", sim.data_path)
    assert "one peg still possible: no: pegs 1 and 6 can never jump or be jumped" in out
    # a finish the pegs can no longer reach, as a challenge: its own reason
    sim.control("set", pegs=[3, 4, 7])
    sim.control("wait_idle")
    code, _, _ = cli("play", "--target", "finish:1", "--port", sim.data_path)
    assert code == 0
    code, out, _ = cli("hint", "--port", sim.data_path)
    assert code == 0 and "the challenge finish:1" in out and "why: a pagoda count" in out


# -- the same answers in MicroPython ------------------------------------------------------------
SAMPLE = """
import sys
sys.path.insert(0, 'firmware')
from pegcore.geometry import Board
from pegcore import lost_reason as L
out = []
for rows, step in ((5, 97), (6, 40009)):
    b = Board(rows)
    for m in range(0, 1 << b.holes, step):
        for f in (None, 1 + m % b.holes):
            r = L.reason(b, m, f)
            out.append('-' if r is None else '%s:%s' % (r[0], ','.join([str(h) for h in r[1]])))
print(' '.join(out))
"""


def test_the_chip_never_loads_it():
    from pegboard.deploy.plan import chip_modules

    assert "pegcore.lost_reason" not in chip_modules()  # the firmware's heap figures stand as measured


def test_micropython_gives_the_same_reasons(micropython, tmp_path):
    script = tmp_path / "lost.py"
    script.write_text(SAMPLE)
    said = []
    for exe, heap in ((micropython, ["-X", "heapsize=1M"]), (sys.executable, [])):
        p = subprocess.run([exe, *heap, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        said.append(p.stdout.split())
    assert said[0] == said[1] and len(said[0]) > 600 and len(set(said[0])) > 20
