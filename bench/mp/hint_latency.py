# Runs in the MicroPython VMs: hint latency over every 15-hole position a hand can set (all 2**15
# masks), and the heap taken by the core + table.
import sys
import gc
try:
    from time import ticks_us, ticks_diff
except ImportError:  # the chip VM: CircuitPython's time has no ticks; this process's CPU clock
    from _vmhost import cpu_us as ticks_us

    def ticks_diff(a, b):
        return ((a - b + (1 << 28)) & ((1 << 29) - 1)) - (1 << 28)
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
masks = range(1 << 15)
REPEATS = 3


def measure():
    """A histogram of each mask's median time (µs, the last bin: that or more): no list of 2**15."""
    hint = a.hint
    diff = ticks_diff
    hist = [0] * 200
    rep = [0] * REPEATS
    for m in masks:
        for r in range(REPEATS):
            t = ticks_us()
            hint(m)
            rep[r] = diff(ticks_us(), t)
        rep.sort()
        hist[min(rep[REPEATS // 2], 199)] += 1
    return hist


def empty_loop():
    # the timer's own cost, subtracted from each sample
    diff = ticks_diff
    best = 1000
    for _ in range(1000):
        t = ticks_us()
        d = diff(ticks_us(), t)
        if d < best:
            best = d
    return best


overhead = empty_loop()
hist = measure()
n = sum(hist)
seen = 0
median = None
worst = 0
for us in range(200):
    seen += hist[us]
    if median is None and seen > n // 2:
        median = us
    if hist[us]:
        worst = us  # 199: that or more
print("heap", heap)
print("n", n)
print("median_us", max(0, median - overhead))
print("worst_us", max(0, worst - overhead))
