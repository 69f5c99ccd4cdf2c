"""`pegboard solve --method recursive | iterative | breadth` (pegboard/solve/methods.py): the three
plain searches find legal solutions, agree with the core's solver, and report their stats."""

import json

import pytest

from pegboard.commands.cli import main
from pegboard.solve import methods
from pegboard.solve.methods import METHODS, Stats
from pegcore import rules
from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver

B5 = Board(5)
B6 = Board(6)


def replay(board, start, moves, finish=None):
    """Play the moves with the core's rules, each checked legal; the last position."""
    m = start
    for frm, over, to in moves:
        j = board.find_jump(frm, over, to)
        assert j >= 0, (frm, over, to)
        assert rules.is_legal(board, m, j), (rules.holes_of(m), (frm, over, to))
        m = rules.apply(board, m, j)
    assert rules.popcount(m) == 1
    if finish is not None:
        assert m == 1 << (finish - 1)
    return m


@pytest.mark.parametrize("method", METHODS)
def test_every_15_hole_start_is_solved_legally(method):
    for e in range(1, 16):
        start = start_mask(B5, e)
        moves, stats = methods.solve(method, B5, start)
        assert moves is not None and len(moves) == 13, (method, e)
        replay(B5, start, moves)
        assert stats.positions >= 14 and stats.seconds >= 0 and stats.peak_bytes is None


@pytest.mark.parametrize("method", METHODS)
def test_they_agree_with_the_core_on_every_15_hole_start_and_finish_in_the_same_hole(method):
    # finishing anywhere, every start has a solution; finishing where the hole was empty, some have
    # none: both must agree with the core's solver
    said_no = 0
    for finish in (None, "same"):
        for e in range(1, 16):
            f = e if finish == "same" else None
            start = start_mask(B5, e)
            expected = Solver(B5, f).solvable(start)
            moves, _ = methods.solve(method, B5, start, f)
            assert (moves is not None) == expected, (method, e, f)
            if moves is not None:
                replay(B5, start, moves, f)
            else:
                said_no += 1
    assert said_no == 3  # the starts 5, 8 and 9 cannot finish in their own hole (the case mix pinned)


def test_the_depth_first_searches_visit_the_same_positions_and_find_the_same_line():
    for e in range(1, 16):
        start = start_mask(B5, e)
        a, sa = methods.search("recursive", B5, start, B5.full)
        b, sb = methods.search("iterative", B5, start, B5.full)
        assert a == b and sa.positions == sb.positions
        # breadth first stores every position of every level before the last: never fewer
        _, sc = methods.search("breadth", B5, start, B5.full)
        assert sc.positions >= sa.positions


@pytest.mark.parametrize("method,empties", [("recursive", (1, 4, 5, 13)), ("iterative", (1, 4, 5, 13)),
                                            ("breadth", (1, 5))])
def test_21_holes_from_a_few_starts(method, empties):
    # breadth first on 21 holes stores ~230,000-330,000 positions a start (about a second each here)
    for e in empties:
        start = start_mask(B6, e)
        moves, stats = methods.solve(method, B6, start)
        assert moves is not None and len(moves) == 19
        replay(B6, start, moves)
        assert stats.positions > 19


def test_21_holes_with_a_finish_hole():
    start = start_mask(B6, 1)
    for method in ("recursive", "iterative"):
        moves, _ = methods.solve(method, B6, start, 1)
        replay(B6, start, moves, 1)


@pytest.mark.parametrize("method", METHODS)
def test_no_solution_gives_none(method):
    # two pegs that cannot reach each other, and a full start whose finish hole is out of reach
    lone = rules.mask_of([1, 15])
    assert methods.solve(method, B5, lone)[0] is None
    moves, stats = methods.solve(method, B5, start_mask(B5, 5), 1)
    assert moves is None and stats.positions == 1651  # every position reachable from hole 5
    assert methods.solve(method, Board(4), start_mask(Board(4), 1))[0] is None  # 10 holes: none at all


def test_a_won_position_needs_no_jump():
    for method in METHODS:
        assert methods.solve(method, B5, rules.mask_of([13]))[0] == []
        assert methods.solve(method, B5, rules.mask_of([13]), 12)[0] is None


def test_peak_memory_is_measured_and_breadth_needs_the_most():
    start = start_mask(B5, 1)
    peaks = {m: methods.solve(m, B5, start, memory=True)[1].peak_bytes for m in METHODS}
    assert all(isinstance(p, int) and p > 0 for p in peaks.values())
    assert peaks["breadth"] > 5 * max(peaks["recursive"], peaks["iterative"])


def test_peak_memory_under_tracing_already_on():
    import tracemalloc

    tracemalloc.start()
    try:
        assert methods.peak_memory(lambda: list(range(100_000))) > 100_000 * 8
        assert tracemalloc.is_tracing()
    finally:
        tracemalloc.stop()


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="method must be one of"):
        methods.search("sideways", B5, start_mask(B5, 1), B5.full)


def test_stats_text_and_json_have_the_three_fields():
    s = Stats(12345, 0.0123, 2 * 1024 * 1024)
    assert s.text() == "positions visited: 12,345; time: 12.3 ms; peak memory: 2048.0 KB (tracemalloc peak on the host)"
    assert s.as_json() == {"positions_visited": 12345, "seconds": 0.0123, "peak_memory_bytes": 2097152,
                           "peak_memory_is": "tracemalloc peak on the host"}


# -- the command ----------------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("method", METHODS + ("core",))
def test_cli_stats_text(capsys, method):
    code, out, _ = run(capsys, "solve", "--empty", "5", "--method", method, "--stats")
    assert code == 0 and out.startswith("Solution from hole 5 (13 jumps)")
    last = out.strip().splitlines()[-1]
    assert last.startswith("stats (%s search from hole 5): positions visited: " % method)
    assert "; time: " in last and "; peak memory: " in last and "(tracemalloc peak on the host)" in last


@pytest.mark.parametrize("method", METHODS)
def test_cli_json_has_method_and_stats(capsys, method):
    code, out, _ = run(capsys, "solve", "--empty", "4", "--finish", "4", "--method", method, "--stats", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["method"] == method and obj["finish"] == 4
    replay(B5, start_mask(B5, 4), obj["moves"], 4)
    stats = obj["stats"]
    assert stats["positions_visited"] > 13 and stats["seconds"] >= 0 and stats["peak_memory_bytes"] > 0
    assert stats["peak_memory_is"] == "tracemalloc peak on the host"


def test_cli_no_solution_with_a_method(capsys):
    code, out, err = run(capsys, "solve", "--empty", "5", "--finish", "1", "--method", "breadth", "--stats", "--json")
    obj = json.loads(out)
    assert code == 1 and obj["ok"] is False and obj["method"] == "breadth"
    assert obj["stats"]["positions_visited"] == 1651 and "no solution from hole 5 finishing in 1" in err
    code, out, err = run(capsys, "solve", "--empty", "5", "--finish", "1", "--method", "recursive", "--stats")
    assert code == 1 and out.startswith("stats (recursive search from hole 5): positions visited: 1,651;")


def test_cli_method_without_stats_and_the_default_unchanged(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "1", "--method", "iterative", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["method"] == "iterative" and "stats" not in obj
    code, out, _ = run(capsys, "solve", "--empty", "1", "--json")
    assert code == 0 and set(json.loads(out)) == {"rows", "empty", "finish", "moves"}
    code, out, _ = run(capsys, "solve", "--empty", "1", "--method", "recursive")
    assert code == 0 and "stats" not in out


def test_cli_every_start_with_a_method(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "all", "--method", "breadth", "--stats", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["empty"] for r in rows] == list(range(1, 16))
    assert all(r["method"] == "breadth" and r["stats"]["positions_visited"] > 1000 for r in rows)


def test_cli_usage_errors(capsys):
    for argv in (["--count", "--method", "breadth"], ["--all", "--stats"], ["--min-moves", "--method", "recursive"]):
        code, _, err = run(capsys, "solve", "--empty", "1", *argv)
        assert code == 2 and "--method/--stats" in err, argv
    code, _, err = run(capsys, "solve", "--rows", "7", "--empty", "3", "--method", "breadth")
    assert code == 2 and "out of reach" in err
    with pytest.raises(SystemExit) as e:  # argparse's own refusal
        main(["solve", "--empty", "1", "--method", "sideways"])
    assert e.value.code == 2 and "invalid choice: 'sideways'" in capsys.readouterr().err
