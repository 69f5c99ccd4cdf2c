"""The chip's precomputed hint table: as good as the core's search on every reachable position."""

import io

import pytest

from pegboard.tablegen import build, reachable
from pegcore.advisor import Advisor
from pegcore.geometry import Board
from pegcore.hinttable import HintTable, load
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
        got = table.lookup(m)
        assert got is not None
        j, left = got
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


def test_unreachable_position_falls_back_to_search(board, table):
    odd = 0b000000000000111  # pegs in 1, 2, 3 only: not reachable from a single vacancy
    assert table.lookup(odd) is None
    j, ok, left = Advisor(board, table).hint(odd)
    assert left == Solver(board).best_left(odd)


def test_missing_table_is_none(board, tmp_path):
    assert load(board, str(tmp_path / "nope.bin")) is None


@pytest.mark.parametrize("damage", ["truncate", "magic", "rows", "trailing", "code"])
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
        n = data[6] | data[7] << 8
        data[10 + 2 * n] = 255  # a palette index past the palette
    with pytest.raises(ValueError):
        HintTable(board, io.BytesIO(bytes(data)))
