# Runs in the MicroPython VMs: hint latency over every 15-hole position a hand can set (all 2**15
# masks), and the heap taken by the core + table. argv: nothing, or "heap" (the heap alone, no
# timing: chipvm's run). Prints "ticks_per_us N" (the clock's unit), heap, n (masks timed),
# median_ticks and worst_ticks (over the masks, the timer's own cost taken off), overhead_ticks,
# and collect_ticks (one gc.collect() on the heap as the lookups leave it).
# The clock: on thumbvm the emulated chip's cycles (_vmhost.cycles: Cortex-M0+ cycles under the
# model in host/pegboard/sim/thumbvm/host.c, 125 a µs at 125 MHz), one sample a mask: the count is
# the same on every run, so the worst is the worst single lookup; elsewhere µs of the PC's clock
# (host figures), each mask's median of 3 samples.
# Collections: automatic ones are off while the lookups are timed, and the lookups' garbage is
# collected between batches of them, never inside a sample: the firmware collects while the
# button is down, so the hint at the release never waits for one (pegfw.app). What a collection
# costs is printed on its own (collect_ticks).
import sys
import gc
try:
    from _vmhost import cycles as ticks  # thumbvm
    TICKS_PER_US = 125
    REPEATS = 1
except ImportError:
    try:
        from time import ticks_us as ticks  # the unix VM
    except ImportError:
        from _vmhost import cpu_us as ticks  # chipvm (CircuitPython's time has no ticks)
    TICKS_PER_US = 1
    REPEATS = 3
try:
    from time import ticks_diff  # the unix VM
except ImportError:
    def ticks_diff(a, b):
        return (a - b) & ((1 << 29) - 1)  # _vmhost's clocks wrap at 2**29
sys.path.insert(0, "firmware")
a = None  # the advisor: made in setup(), so that the only heap counted is the core's and the table's


def setup():
    from pegcore.geometry import Board
    from pegcore.hintfile import load
    from pegcore.advisor import Advisor
    import pegcore

    b = Board(5)
    adv = Advisor(b, load(b, "firmware/pegcore/t5_hints.bin"))
    del sys.modules["pegcore.hintfile"], pegcore.hintfile  # the firmware drops the reader too
    return adv


def clobber(n):
    # deep calls over the C stack setup() used: no stale word there keeps its garbage alive for the
    # collector, which scans the stack conservatively
    return clobber(n - 1) if n else 0


gc.collect()
before = gc.mem_alloc()
a = setup()
clobber(30)
gc.collect()
heap = gc.mem_alloc() - before
print("ticks_per_us", TICKS_PER_US)
print("heap", heap)
if sys.argv[1:] == ["heap"]:
    raise SystemExit
N = 1 << 15  # masks


def measure():
    """{ticks: masks} of each mask's sample (median of REPEATS): a histogram, no list of 2**15."""
    hint = a.hint
    diff = ticks_diff
    hist = {}
    rep = [0] * REPEATS
    # a batch: as many lookups as fill a quarter of the free heap with their garbage (a heap too
    # small for the batch fails loudly: MemoryError, automatic collections being off)
    gc.collect()
    at = gc.mem_alloc()
    for m in range(256):
        hint(m)
    per = (gc.mem_alloc() - at) // 256 + 16
    gc.collect()
    batch = max(1, gc.mem_free() // (4 * per * REPEATS))
    gc.disable()
    for first in range(0, N, batch):
        gc.collect()
        for m in range(first, min(first + batch, N)):
            for r in range(REPEATS):
                t = ticks()
                hint(m)
                rep[r] = diff(ticks(), t)
            rep.sort()
            d = rep[REPEATS // 2]
            hist[d] = hist.get(d, 0) + 1
    gc.enable()
    return hist


def empty_loop():
    # the timer's own cost, subtracted from each sample
    diff = ticks_diff
    best = 1 << 20
    for _ in range(1000):
        t = ticks()
        d = diff(ticks(), t)
        if d < best:
            best = d
    return best


overhead = empty_loop()
hist = measure()
n = sum(hist.values())
seen = 0
median = None
for t in sorted(hist):
    seen += hist[t]
    if median is None and seen > n // 2:
        median = t
worst = max(hist)
t = ticks()
gc.collect()
collect = ticks_diff(ticks(), t)
print("n", n)
print("overhead_ticks", overhead)
print("median_ticks", max(0, median - overhead))
print("worst_ticks", max(0, worst - overhead))
print("collect_ticks", collect)
