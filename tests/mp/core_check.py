# Runs inside the MicroPython VMs (96 KB heap): the core gives the same answers as on CPython.
import sys
sys.path.insert(0, "firmware")
import gc
from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps, popcount
from pegcore.moves import validate_moves, MoveError
from pegcore.parity import colour_masks, last_peg_holes
from pegcore.solver import Solver
from pegcore.hintfile import load
from pegcore.advisor import Advisor
from pegcore import search

# big buffers first, while the heap is in one piece (the table, the solver's 4 KB bitsets), as
# the firmware does at boot
gc.collect()
b = Board(5)
t = load(b, "firmware/pegcore/t5_hints.bin")
s = Solver(b)
b4 = Board(4)
s4 = Solver(b4)
print("t4", [e for e in range(1, 11) if s4.solvable(start_mask(b4, e))])
del s4
gc.collect()
# Counting memoises every position in a dict: T5 counts need a bigger heap (core_count.py);
# the chip never counts, it reads the hint table.
print("t4 counts", [Solver(b4).count(start_mask(b4, e)) for e in (2, 3, 5)])
a = Advisor(b, t)
# walk the table's best line from every start: it must reach one peg
wins = 0
for e in range(1, 16):
    m = start_mask(b, e)
    for j in a.solution(m):
        assert j in legal_jumps(b, m)
        m ^= b.flip[j]
    if popcount(m) == 1:
        wins += 1
print("table wins", wins)
# the table agrees with the search on solvability along a game
m = start_mask(b, 1)
agree = 0
for k in range(13):
    j, ok, left = a.hint(m)
    if ok == s.solvable(m):
        agree += 1
    m ^= b.flip[j]
print("agree", agree)
n = 0
for kind, j, mm, step in search.steps(b, start_mask(b, 1)):
    n = step
print("steps", kind, n)
try:
    validate_moves(b, start_mask(b, 1), [[4, 2, 1], [1, 2, 4], [9, 9, 9]])
except MoveError as e:
    print("bad step", e.step)
b7 = Board(7)
c7 = colour_masks(b7)
print("t7 impossible", [e for e in range(1, 29) if not last_peg_holes(c7, start_mask(b7, e))])
from pegcore.pegcolours import peg_ids
print("peg ids", peg_ids(b, start_mask(b, 1), [b.find_jump(4, 2, 1), b.find_jump(6, 5, 4), b.find_jump(1, 3, 6)]))
# challenges (pegcore.targets): the finish and ends tables read a byte a lookup, beside the hint table
del s, a
gc.collect()
from pegcore import targets as T
from pegcore.search import LeaveSearch, MostSearch
gc.collect()
tg = T.open_tables(b, t)
met = 0
for e in range(1, 16):
    for h in range(1, 16):
        m = start_mask(b, e)
        for _ in range(15):
            j, ok = tg.hint((T.FINISH, h), m)
            if j < 0:
                break
            m ^= b.flip[j]
        if m == 1 << (h - 1) and tg.verdict((T.FINISH, h), m)[0]:
            met += 1
print("targets finish", met)
left = []
for k in range(1, 15):
    line = tg.line((T.LEAVE, k), start_mask(b, 4))
    if line is not None:
        m = start_mask(b, 4)
        for j in line:
            assert j in legal_jumps(b, m)
            m ^= b.flip[j]
        assert tg.verdict((T.LEAVE, k), m) == (True, k, k)
        left.append(k)
print("targets leave", left)
most = []
for e in range(1, 16):
    target = tg.resolve((T.MOST, 0), start_mask(b, e))
    m = start_mask(b, e)
    for j in tg.line(target, m):
        m ^= b.flip[j]
    assert tg.verdict(target, m)[0] is True
    most.append(target[1])
print("targets most", most)
print("targets parse", T.parse("finish:13", 15), T.to_text((T.LEAVE, 3)))
tg.close()
del tg
gc.collect()
b6 = Board(6)
ls = LeaveSearch(b6, start_mask(b6, 1), 8, memo_cap=256)  # the heap left beside the tables
while not ls.advance(50):
    pass
print("t6 leave 8", len(ls.jumps), ls.nodes)
ms = MostSearch(b6, start_mask(b6, 5), 256)
while not ms.advance(50) and ms.nodes < 600:
    pass
print("t6 most", ms.best, ms.nodes, ms.proven)
print("ok")
