# The simple-loop benchmark behind the project's RP2040 speed factor (docs/chip-runtime.md): run it
# on the PC's MicroPython unix port and on a board (copy it to CIRCUITPY and `import speed_factor`
# at the REPL); the factor is the board's time over the PC's, loop by loop. The loops run inside
# functions, as the firmware's do (module-level loops are slower on every port).
import time

try:
    ticks_us, ticks_diff = time.ticks_us, time.ticks_diff  # MicroPython's unix port
except AttributeError:  # CircuitPython (and the chip VM, set up as it is): time.monotonic_ns
    def ticks_us():
        return time.monotonic_ns() // 1000

    def ticks_diff(a, b):
        return a - b


def additions(n):
    x = 0
    for i in range(n):
        x += i
    return x


def _f(i):
    return i


def calls(n):
    for i in range(n):
        _f(i)


def timed(fn, n):
    t = ticks_us()
    fn(n)
    return ticks_diff(ticks_us(), t)


for name, fn, n in (("additions_200000", additions, 200000), ("calls_100000", calls, 100000)):
    print(name, timed(fn, n), "us")
