"""The chip's precomputed hint table: as good as the core's search on every reachable position."""

import io

import pytest

from pegboard.tablegen import build, reachable
from pegcore.advisor import Advisor
from pegcore.geometry import Board
from pegcore.hintfile import load, read
from pegcore.rules import legal_jumps
from pegcore.solver import Solver

ROOT_TABLE = "firmware/pegcore/t5_hints.bin"


@pytest.fixture(scope="module")
def board():
    return Board(5)


@pytest.fixture(scope="module")
def table(board):
    return load(board, ROOT_TABLE)


def test_shipped_table_is_current(board):
    with open(ROOT_TABLE, "rb") as f:
        assert f.read() == build(5), "run `make table` to regenerate firmware/pegcore/t5_hints.bin"


def test_every_reachable_position_gets_a_best_move(board, table):
    solver = Solver(board)
    for m in reachable(board):
        j, left = table.lookup(m)
        assert left == solver.best_left(m)
        legal = legal_jumps(board, m)
        if not legal:
            assert j == -1
            continue
        assert j in legal
        child = m ^ board.flip[j]
        assert solver.best_left(child) == left
        if left == 1:
            assert solver.count(child) == max(solver.count(m ^ board.flip[k]) for k in legal)


def test_positions_outside_a_game_are_searched(board, table):
    # the perfect hash answers for any mask, so positions not reached from one empty hole (set
    # up by hand) must not be looked up: the advisor searches them instead
    odd = 0b000000000000111  # pegs in 1, 2, 3 only: not reachable from a single vacancy
    assert odd not in reachable(board)
    j, ok, left = Advisor(board, table).hint(odd)
    assert left == Solver(board).best_left(odd) and not ok


def test_advisor_uses_the_table_in_a_game(board, table):
    class Counting:
        calls = 0

        def lookup(self, m):
            Counting.calls += 1
            return table.lookup(m)

    a = Advisor(board, Counting())
    line = a.solution(board.full & ~1, True)
    assert len(line) == 13 and Counting.calls == 14 and a._solver is None  # no search at all


def test_every_canonical_position_has_its_own_slot(board):
    from pegboard.tablegen import perfect_hash
    from pegcore.symmetry import canonical, symmetries

    syms = symmetries(board)
    keys = sorted({canonical(m, syms)[0] for m in reachable(board)})
    k1, k2, disp, where = perfect_hash(keys, len(keys) + len(keys) // 10, (len(keys) + 2) // 3)
    assert len(set(where)) == len(keys)
    for m, x in zip(keys, where, strict=True):
        assert ((m * k2 >> 8) + disp[(m * k1 >> 8) % len(disp)]) % (len(keys) + len(keys) // 10) == x


def test_missing_table_is_none(board, tmp_path):
    assert load(board, str(tmp_path / "nope.bin")) is None


@pytest.mark.parametrize("damage", ["truncate", "magic", "rows", "trailing", "code", "multiplier"])
def test_damaged_table_is_refused(board, damage):
    data = bytearray(build(5))
    if damage == "truncate":
        data = data[:-10]
    elif damage == "magic":
        data[0] ^= 1
    elif damage == "rows":
        data[4] = 6
    elif damage == "trailing":
        data += b"x"
    elif damage == "code":
        data[16] = 255  # the first slot's palette index, past the palette
    elif damage == "multiplier":
        data[13] = 0xFF  # k1 >= 2**14: the chip's products would leave small ints
    with pytest.raises(ValueError):
        read(board, io.BytesIO(bytes(data)))


def test_table_is_small(board):
    # one byte a position: it used to take 2 more for the stored masks
    assert len(build(5)) < 5000
