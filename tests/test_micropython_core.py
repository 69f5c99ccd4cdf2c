"""The core runs unchanged in the real MicroPython VM with a 96 KB heap (the chip VM too) and agrees with CPython."""

import subprocess

from conftest import ROOT

from pegcore import search
from pegcore.geometry import Board, start_mask


def test_core_in_micropython_96k(vm):
    p = subprocess.run([vm, "-X", "heapsize=96K", "tests/mp/core_check.py"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert "t4 [2, 3, 4, 6, 8, 9]" in lines
    assert "t4 counts [14, 14, 0]" in lines
    assert "table wins 15" in lines
    assert "agree 13" in lines
    b = Board(5)
    n = 0
    for kind, _j, _m, step in search.steps(b, start_mask(b, 1)):
        n = step
    assert "steps %s %d" % (kind, n) in lines  # same search, step for step
    assert "bad step 1" in lines
    assert "t7 impossible [1, 5, 7, 10, 13, 17, 20, 22, 25, 28]" in lines  # colour parity, no search
    from pegcore.pegcolours import peg_ids

    jumps = [b.find_jump(4, 2, 1), b.find_jump(6, 5, 4), b.find_jump(1, 3, 6)]
    assert "peg ids %s" % peg_ids(b, start_mask(b, 1), jumps) in lines  # as CPython's
    _targets_as_cpython(b, lines)
    assert lines[-1] == "ok"


def _targets_as_cpython(b, lines):
    """The challenges' lines of core_check.py: the same answers as CPython's tables and searches."""
    from pegcore import targets as T
    from pegcore.hintfile import load
    from pegcore.search import LeaveSearch, MostSearch

    tg = T.open_tables(b, load(b, "firmware/pegcore/t5_hints.bin"))
    try:
        finishes = sum(1 for e in range(1, 16) for h in range(1, 16) if tg.finish.finish_ok(start_mask(b, e), h))
        ends = tg.ends.ends(start_mask(b, 4))
        most = [tg.ends.most(start_mask(b, e)) for e in range(1, 16)]
    finally:
        tg.close()
    assert "targets finish %d" % finishes in lines  # every reachable finish met by following the hints
    assert "targets leave %s" % [k for k in range(1, 15) if ends >> k & 1] in lines
    assert "targets most %s" % most in lines
    assert "targets parse ('finish', 13) leave:3" in lines
    b6 = Board(6)
    ls = LeaveSearch(b6, start_mask(b6, 1), 8, memo_cap=256)
    while not ls.advance(50):
        pass
    assert "t6 leave 8 %d %d" % (len(ls.jumps), ls.nodes) in lines  # the same search, node for node
    ms = MostSearch(b6, start_mask(b6, 5), 256)
    while not ms.advance(50) and ms.nodes < 600:
        pass
    assert "t6 most %d %d %s" % (ms.best, ms.nodes, ms.proven) in lines


def test_t5_counts_in_micropython(micropython):
    from test_core_reference import T5_COUNTS

    p = subprocess.run([micropython, "-X", "heapsize=2M", "tests/mp/core_count.py"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip() == "t5 %s" % [T5_COUNTS[e] for e in range(1, 16)]
