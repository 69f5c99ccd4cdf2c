"""The chip's precomputed tables: the hint table as good as the core's search on every mask the board
can show, and the finish table exact on every mask and finish hole."""

import io

import pytest

from pegboard.solve.tablegen import build_both, reachable
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


@pytest.fixture(scope="module")
def built():
    """(hint table, finish table) as `make table` builds them now: built once for the module."""
    return build_both(5)


def test_shipped_tables_are_current(built):
    hints, finish = built
    with open(ROOT_TABLE, "rb") as f:
        assert f.read() == hints, "run `make table` to regenerate firmware/pegcore/t5_hints.bin"
    with open(ROOT_TABLE.replace("_hints", "_finish"), "rb") as f:
        assert f.read() == finish, "run `make table` to regenerate firmware/pegcore/t5_finish.bin"


def test_every_mask_gets_a_best_move(board, table):
    # hand-placed pegs included: every picture the sensors can show is in the table
    solver = Solver(board)
    for m in range(board.full + 1):
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


def test_positions_outside_a_game_are_looked_up_too(board, table):
    odd = 0b000000000000111  # pegs in 1, 2, 3 only: not reachable from a single vacancy
    assert odd not in reachable(board)
    a = Advisor(board, table)
    j, ok, left = a.hint(odd)
    assert left == Solver(board).best_left(odd) and not ok and a._solver is None


def test_finish_table_knows_where_the_last_peg_can_end(board, table):
    from pegcore.finishfile import FinishTable
    from pegboard.solve.tablegen import finish_sets

    sets = finish_sets(board)
    ft = FinishTable(table, ROOT_TABLE.replace("_hints", "_finish"))
    try:
        for m in range(0, board.full + 1, 7):  # every 7th mask: all symmetries and sizes show up
            for hole in range(1, board.holes + 1):
                assert ft.finish_ok(m, hole) == bool(sets[m] >> (hole - 1) & 1)
    finally:
        ft.close()
    solver = Solver(board)
    for m in (board.full & ~1, board.full & ~(1 << 4), 0b111000011000000):
        assert sets[m] == sum(1 << (h - 1) for h in range(1, 16) if Solver(board, h).solvable(m))
    # a last peg has a hole to end in exactly where the position can be won (holes 7, 8, 13, 14, 15: not)
    assert solver.best_left(0b111000011000000) == 2 and sets[0b111000011000000] == 0
    for m in range(0, board.full + 1, 7):
        assert bool(sets[m]) == (solver.best_left(m) == 1), m


def test_finish_table_refuses_a_table_it_does_not_belong_to(table, built, tmp_path):
    from pegcore.finishfile import FinishTable

    data = bytearray(built[1])
    data[7] ^= 1  # k1
    bad = tmp_path / "f.bin"
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError):
        FinishTable(table, str(bad))


def test_advisor_uses_the_table_in_a_game(board, table):
    class Counting:
        calls = 0

        def lookup(self, m):
            Counting.calls += 1
            return table.lookup(m)

    a = Advisor(board, Counting())
    line = a.solution(board.full & ~1)
    assert len(line) == 13 and Counting.calls == 14 and a._solver is None  # no search at all


def test_every_canonical_position_has_its_own_slot(board):
    from pegboard.solve.tablegen import perfect_hash
    from pegcore.symmetry import canonical, symmetries

    syms = symmetries(board)
    keys = sorted({canonical(m, syms)[0] for m in range(board.full + 1)})
    k1, k2, disp, where = perfect_hash(keys, len(keys) + len(keys) // 10, (len(keys) + 2) // 3)
    assert len(set(where)) == len(keys)
    for m, x in zip(keys, where, strict=True):
        assert ((m * k2 >> 8) + disp[(m * k1 >> 8) % len(disp)]) % (len(keys) + len(keys) // 10) == x


def test_missing_table_is_none(board, tmp_path):
    assert load(board, str(tmp_path / "nope.bin")) is None


@pytest.mark.parametrize("damage", ["truncate", "magic", "rows", "trailing", "code", "multiplier"])
def test_damaged_table_is_refused(board, built, damage):
    data = bytearray(built[0])
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


def test_table_is_small(built):
    # one byte a symmetry class (5,728 of them), ~10 % spare slots, a byte of displacement per 3
    hints, finish = built
    assert len(hints) < 9600 and len(finish) < 6500


@pytest.mark.parametrize("rows", [6, 7])
def test_opening_books_are_current_and_win_from_every_solvable_start(rows):
    from pegboard.solve.tablegen import build_book
    from pegcore.book import load, path_for, rest_of_line
    from pegcore.geometry import Board, start_mask

    b = Board(rows)
    path = path_for(rows)
    with open(path, "rb") as f:
        assert f.read() == build_book(rows), "run `make table` to regenerate %s" % path
    lines = load(b, path)
    solver = Solver(b)
    assert sorted(lines) == [e for e in range(1, b.holes + 1) if solver.solvable(start_mask(b, e))]
    for start, line in lines.items():
        m = start_mask(b, start)
        for j in line:
            assert j in legal_jumps(b, m)
            m ^= b.flip[j]
        assert m and not m & (m - 1)  # one peg left
        assert rest_of_line(lines, start, list(line[:3])) == line[3:]
        # off the line (another first move, or another third one), or past its end: no more of it
        assert rest_of_line(lines, start, [line[0] ^ 1]) is None
        assert rest_of_line(lines, start, list(line[:2]) + [line[2] ^ 1]) is None
        assert rest_of_line(lines, start, list(line)) is None


def test_a_damaged_book_is_refused(tmp_path):
    from pegboard.solve.tablegen import build_book
    from pegcore.book import load
    from pegcore.geometry import Board

    data = bytearray(build_book(6))
    bad = tmp_path / "b.bin"
    for damage in ("rows", "jump", "cut"):
        d = bytearray(data)
        if damage == "rows":
            d[4] = 7
        elif damage == "jump":
            d[8] = 250
        else:
            d = d[:20]
        bad.write_bytes(bytes(d))
        with pytest.raises(ValueError):
            load(Board(6), str(bad))
    assert load(Board(6), str(tmp_path / "none.bin")) == {}
