"""Graded puzzles: every puzzle of the shipped tables can be won, from a real game, with the figures
of its grade (recomputed here by plain recursion, not by the generator's solver); the files are what
the generator writes now; the chip's reader returns exactly what went in and refuses damaged files."""

import subprocess
import tempfile
from fractions import Fraction

import pytest
from conftest import ROOT

from pegboard.solve import puzzlegen
from pegboard.solve.puzzlegen import PER_GRADE, Figures, Puzzle, decode, encode, generate, grade_of
from pegcore.geometry import Board
from pegcore.puzzlefile import PuzzleTable, path_for
from pegcore.rules import legal_jumps, popcount
from pegcore.solver import Solver
from pegcore.symmetry import symmetries, transform

BOARDS = (5, 6)


@pytest.fixture(scope="module")
def made():
    """{rows: the puzzles as the generator makes them now}: generated once for the module."""
    return {rows: generate(rows) for rows in BOARDS}


def shipped(rows):
    with open(path_for(rows), "rb") as f:
        return f.read()


def brute_lines(board, mask, fmask, memo):
    """Winning jump sequences from mask, by plain recursion over the rules (a dict for speed)."""
    if popcount(mask) == 1:
        return 1 if mask & fmask else 0
    if mask not in memo:
        memo[mask] = sum(brute_lines(board, mask ^ board.flip[j], fmask, memo) for j in legal_jumps(board, mask))
    return memo[mask]


def brute_figures(board, mask, finish):
    fmask = board.full if not finish else 1 << (finish - 1)
    memo = {}
    lines = brute_lines(board, mask, fmask, memo)
    shares, line = [], []
    while popcount(mask) > 1:
        js = legal_jumps(board, mask)
        counts = {j: brute_lines(board, mask ^ board.flip[j], fmask, memo) for j in js}
        won = [j for j in js if counts[j]]
        shares.append(Fraction(len(won), len(js)))
        best = won[0]
        for j in won:  # most lines after it, the lowest index first among equals
            if counts[j] > counts[best]:
                best = j
        line.append(best)
        mask ^= board.flip[best]
    assert mask & fmask
    return Figures(len(line), lines, sum(shares) / len(shares), min(shares), tuple(line))


def from_a_start(board, mask):
    """Back from mask to a board with one hole empty, undoing jumps (f, o empty and t full before:
    f, o full and t empty after), depth first."""
    bad = set()
    stack = [mask]
    while stack:
        m = stack.pop()
        if popcount(m) == board.holes - 1:
            return True
        for j in range(len(board.need)):
            if not m & board.need[j] and m & board.land[j]:
                back = m ^ board.flip[j]
                if back not in bad:
                    bad.add(back)
                    stack.append(back)
    return False


@pytest.mark.parametrize("rows", BOARDS)
def test_the_shipped_file_is_what_the_generator_writes(made, rows):
    assert shipped(rows) == encode(rows, made[rows]), (
        "regenerate: python -m pegboard.solve.puzzlegen firmware/pegcore/t%d_puzzles.bin --rows %d" % (rows, rows))
    assert decode(shipped(rows)) == (rows, made[rows])


@pytest.mark.parametrize("rows", BOARDS)
def test_every_puzzle_has_its_grades_figures(made, rows):
    board = Board(rows)
    lo, hi = puzzlegen.PEGS[rows]
    solvers = {}
    for p in made[rows]:
        fig = brute_figures(board, p.mask, p.finish)
        assert fig == puzzlegen.figures(board, p.mask, p.finish), p
        assert grade_of(fig) == p.grade, (p, fig)
        assert lo <= popcount(p.mask) <= hi and fig.length == popcount(p.mask) - 1
        s = solvers.setdefault(p.finish, Solver(board, p.finish or None))
        assert s.count(p.mask) == fig.lines
        sol = s.solution(p.mask)
        assert sol is not None and len(sol) == fig.length
        m = p.mask
        for j in sol:
            assert j in legal_jumps(board, m)
            m ^= board.flip[j]
        assert popcount(m) == 1 and (not p.finish or m == 1 << (p.finish - 1))
        if p.finish:  # the finish hole narrows the lines: not the same puzzle as anywhere
            assert 0 < fig.lines < brute_lines(board, p.mask, board.full, {})
        assert from_a_start(board, p.mask), p


def test_grades_follow_the_documented_score():
    def fig(share, low, length, lines):
        return Figures(length, lines, Fraction(share), Fraction(low), ())

    # score = (1000 - share_pm) // 10 + (1000 - min_pm) // 20 + 3 length - 2 floor(log2 lines)
    assert puzzlegen.score_of(fig(Fraction(1, 2), Fraction(1, 3), 6, 9)) == 50 + 33 + 18 - 6
    assert [grade_of(fig(1, 1, n, 1)) for n in (14, 15, 19, 20, 24, 25, 29, 30)] == [1, 2, 2, 3, 3, 4, 4, 5]
    assert grade_of(fig(Fraction(1, 3), Fraction(1, 5), 9, 2)) == 5
    assert grade_of(fig(Fraction(9, 10), Fraction(4, 5), 5, 64)) == 1


@pytest.mark.parametrize("rows", BOARDS)
def test_puzzles_are_distinct_up_to_symmetry_and_every_grade_is_full(made, rows):
    board = Board(rows)
    syms = symmetries(board)
    seen = set()
    for p in made[rows]:
        images = {(transform(p.mask, s), s[p.finish - 1] + 1 if p.finish else 0) for s in syms}
        assert not images & seen, p
        seen |= images
    for g in range(1, puzzlegen.GRADES + 1):
        of_g = [p for p in made[rows] if p.grade == g]
        assert len(of_g) >= PER_GRADE[rows]
        assert any(p.finish for p in of_g) and any(not p.finish for p in of_g)


@pytest.mark.parametrize("rows", BOARDS)
def test_the_reader_returns_every_entry(made, rows):
    holes = Board(rows).holes
    t = PuzzleTable(path_for(rows), holes)
    try:
        assert t.count == len(made[rows]) and t.grades == puzzlegen.GRADES
        for g in range(1, t.grades + 1):
            r = t.of_grade(g)
            assert r.start == t.first(g) and [made[rows][i].grade for i in r] == [g] * len(r)
        assert [Puzzle(*t.puzzle(i), t.grade_of(i)) for i in range(t.count)] == made[rows]
        with pytest.raises(IndexError):
            t.puzzle(t.count)
        with pytest.raises(ValueError):
            t.of_grade(t.grades + 1)
    finally:
        t.close()


def test_path_for():
    assert path_for(5).endswith("pegcore/t5_puzzles.bin") and path_for(6).endswith("pegcore/t6_puzzles.bin")
    assert path_for(4) is None and path_for(7) is None


def test_damaged_or_foreign_files_are_refused(tmp_path):
    good = shipped(5)
    bad_first = bytearray(good)
    bad_first[8:10] = b"\x05\x00"  # grade 1 starting after grade 2
    cases = {"magic": b"PGZ0" + good[4:], "short": good[:-1], "long": good + b"\0", "head": good[:6],
             "empty": b"", "order": bytes(bad_first),
             "hints": (ROOT / "firmware" / "pegcore" / "t5_hints.bin").read_bytes()}
    for name, data in cases.items():
        p = tmp_path / (name + ".bin")
        p.write_bytes(data)
        with pytest.raises(ValueError):
            PuzzleTable(str(p), 15)
    with pytest.raises(ValueError, match="for 5 rows"):
        PuzzleTable(path_for(5), 21)
    with pytest.raises(ValueError):
        PuzzleTable(path_for(6), 15)
    hole_99 = bytearray(good)
    hole_99[-1] = 99
    p = tmp_path / "entry.bin"
    p.write_bytes(bytes(hole_99))
    t = PuzzleTable(str(p), 15)
    try:
        with pytest.raises(ValueError):
            t.puzzle(t.count - 1)
    finally:
        t.close()


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "t5.bin"
    assert puzzlegen.main([str(out), "--rows", "5", "--per-grade", "4"]) == 0
    assert "wrote" in capsys.readouterr().out
    rows, puzzles = decode(out.read_bytes())
    assert rows == 5 and [sum(p.grade == g for p in puzzles) for g in range(1, 6)] == [4] * 5
    for argv in ([str(out), "--rows", "7"], [str(out)], [str(out), "--rows", "5", "--per-grade", "0"],
                 [str(tmp_path / "no" / "x.bin"), "--rows", "5"]):
        with pytest.raises(SystemExit) as e:
            puzzlegen.main(argv)
        assert e.value.code == 2
    assert puzzlegen.main([str(out), "--rows", "5", "--per-grade", "999"]) == 2  # too few candidates
    assert "fewer than 999" in capsys.readouterr().err


def test_the_reader_runs_in_micropython(vm):
    script = ("import sys\nsys.path.insert(0, 'firmware')\nfrom pegcore.puzzlefile import PuzzleTable\n"
              "t = PuzzleTable('firmware/pegcore/t6_puzzles.bin', 21)\n"
              "print(t.count, t.grades, list(t.of_grade(2)), t.grade_of(t.count - 1), t.puzzle(t.count - 1))\n"
              "t.close()\n")
    with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
        f.write(script)
        f.flush()
        p = subprocess.run([vm, f.name], cwd=ROOT, capture_output=True, text=True, timeout=60)
    t = PuzzleTable(path_for(6), 21)
    try:
        want = "%d %d %s %d %s" % (t.count, t.grades, list(t.of_grade(2)), t.grade_of(t.count - 1),
                                   t.puzzle(t.count - 1))
    finally:
        t.close()
    assert p.stdout.strip() == want, p.stdout + p.stderr
