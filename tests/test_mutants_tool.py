"""`make mutants`' own pieces: which lines it mutates and how, and which tests it runs first."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutants  # noqa: E402


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "m.py"
    p.write_text(text)
    return p


def test_candidates_change_code_never_strings_comments_or_the_typing_constant(tmp_path: Path) -> None:
    p = write(tmp_path, 'TYPE_CHECKING = False\nx = "a < b"  # c and d\nif not ready:\n    y = n - 1\nz = n - 2\n')
    got = {n: new for n, _, new in mutants.candidates(p, 1)}
    assert 1 not in got and 2 not in got  # mypy's constant; a string and a comment
    assert got[3] == "if ready:"  # `not` goes with its space
    assert got[4] == "    y = n + 1"  # the off-by-one kind only: `- 2` is left
    assert 5 not in got


def test_candidates_every_nth_line(tmp_path: Path) -> None:
    p = write(tmp_path, "".join("a%d = x < %d\n" % (i, i) for i in range(6)))
    assert [n for n, _, _ in mutants.candidates(p, 2)] == [1, 3, 5]


def test_a_condition_spread_over_lines_is_one_span(tmp_path: Path) -> None:
    p = write(tmp_path, "if (a and\n        b):\n    c = 1\n")
    spans = mutants.statement_lines(p)
    assert spans[2] == range(1, 3)  # the header's lines, not the body's
    assert spans[3] == range(3, 4)


def test_tests_that_ran_the_line_come_first_and_all_when_none_did() -> None:
    covered = {"t_a.py": {"m.py": {5}}, "t_b.py": {"m.py": {9}}}
    assert mutants.running(["t_a.py", "t_b.py"], covered, "m.py", range(4, 6)) == ["t_a.py"]
    assert mutants.running(["t_a.py", "t_b.py"], covered, "m.py", range(20, 21)) == ["t_a.py", "t_b.py"]
