# Runs in the MicroPython VM: hint latency over every reachable 15-hole position, and the heap
# taken by the core + table. argv: the file of reachable masks (uint16 little-endian).
import sys
import gc
import time
sys.path.insert(0, "firmware")
gc.collect()
before = gc.mem_alloc()
from pegcore.geometry import Board
from pegcore.hintfile import load
from pegcore.advisor import Advisor
b = Board(5)
a = Advisor(b, load(b, "firmware/pegcore/t5_hints.bin"))
import pegcore
del load, sys.modules["pegcore.hintfile"], pegcore.hintfile  # the firmware drops the reader too
gc.collect()
heap = gc.mem_alloc() - before
import array
f = open(sys.argv[1], "rb")
masks = array.array("H", f.read())
f.close()
REPEATS = 5


def measure():
    hint = a.hint
    ticks_us = time.ticks_us
    diff = time.ticks_diff
    per = []
    rep = [0] * REPEATS
    for m in masks:
        for r in range(REPEATS):
            t = ticks_us()
            hint(m)
            rep[r] = diff(ticks_us(), t)
        rep.sort()
        per.append(rep[REPEATS // 2])
    return per


def empty_loop():
    # the timer's own cost, subtracted from each sample
    ticks_us = time.ticks_us
    diff = time.ticks_diff
    best = 1000
    for _ in range(1000):
        t = ticks_us()
        d = diff(ticks_us(), t)
        if d < best:
            best = d
    return best


overhead = empty_loop()
per = measure()
per.sort()
print("heap", heap)
print("n", len(per))
print("median_us", per[len(per) // 2] - overhead)
print("worst_us", per[-1] - overhead)
