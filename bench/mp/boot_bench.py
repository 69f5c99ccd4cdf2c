# Runs in the MicroPython VMs: the firmware's start-up as the chip runs it (code.py from a deployed
# drive folder, the simulator's hardware fakes below it) up to the moment the game is ready.
# argv: FAKES_DIR DRIVE_DIR LIB_DIR. Prints "ticks_per_us N" (the clock's unit), then
# "first_light_ticks N" and "ready_ticks N" from the first line of code.py, and
# "longest_unfed_ticks N": the longest stretch the armed watchdog went without a feed (-1: never armed); the fakes and
# adafruit_pixelbuf (C modules on the chip) are imported before the clock starts.
# The clock: on thumbvm the emulated chip's cycles (_vmhost.cycles: Cortex-M0+ cycles under the
# model in host/pegboard/sim/thumbvm/host.c, 125 a µs at the RP2040's 125 MHz; the count repeats
# exactly, run after run); elsewhere µs of the PC's clock (the unix VM's ticks_us, chipvm's process
# CPU time): host figures, not the chip's.
import sys

try:
    from _vmhost import cycles as ticks, cpu_us  # thumbvm (CircuitPython's time has no ticks)

    TICKS_PER_US = 125
except ImportError:
    try:
        from time import ticks_us as ticks  # the unix VM
    except ImportError:
        from _vmhost import cpu_us as ticks  # chipvm: this process's CPU time, µs
    cpu_us = None
    TICKS_PER_US = 1
try:
    from time import ticks_diff  # the unix VM
except ImportError:
    def ticks_diff(a, b):
        return (a - b) & ((1 << 29) - 1)  # _vmhost's clocks wrap at 2**29


def mark():
    return ticks(), cpu_us() if cpu_us else 0


def span(m, at=None):
    """Ticks from mark() m to `at` (a later mark(); default now). On thumbvm past the cycle
    counter's wrap (2**29 cycles, 4.29 s) too: cpu_us, the same count in µs, says how many wraps
    went by."""
    t, us = at or mark()
    d = ticks_diff(t, m[0])
    if cpu_us:
        d += ((((us - m[1]) & ((1 << 29) - 1)) * TICKS_PER_US - d + (1 << 28)) >> 29) << 29
    return d


fakes, drive, lib = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path[:0] = [fakes, drive, drive + "/lib", lib]
import os  # noqa: E402

os.chdir(drive)
import _sim  # noqa: E402

if cpu_us:
    # thumbvm: the fakes' clock (supervisor.ticks_ms, the watchdog's and keypad's timing) runs in
    # the emulated chip's time, as the chip's does, not the PC's: the cycles then repeat exactly
    _sim.now_ms = lambda: cpu_us() // 1000
for _m in ("adafruit_pixelbuf", "board", "digitalio", "keypad", "microcontroller", "neopixel_write", "supervisor",
           "usb_cdc"):
    __import__(_m)
_sim.boot_done()  # boot.py has run: the data port is what it enabled
first = [None]


class WatchdogProbe:
    """microcontroller.watchdog as start-up sees it, noting the longest stretch without a feed
    from the moment it is armed: the chip resets if that passes the timeout (4 s)."""

    def __init__(self, real):
        self._real = real
        self.last = None  # mark() of the arming or the last feed
        self.longest = 0

    @property
    def timeout(self):
        return self._real.timeout

    @timeout.setter
    def timeout(self, v):
        self._real.timeout = v

    @property
    def mode(self):
        return self._real.mode

    @mode.setter
    def mode(self, v):
        self._real.mode = v
        self.last = mark()

    def note(self):
        if self.last is not None:
            self.longest = max(self.longest, span(self.last))

    def feed(self):
        self.note()
        self.last = mark()
        self._real.feed()

    def deinit(self):
        self._real.deinit()


import microcontroller  # noqa: E402

probe = microcontroller.watchdog = WatchdogProbe(microcontroller.watchdog)


def _send(obj):  # the pixel bytes' first appearance is the first light; nothing goes out
    if obj.get("t") == "px" and first[0] is None:
        first[0] = mark()


_sim.send = _send
with open("code.py") as f:
    src = f.read()
body = src.replace("\napp.run()", "\n")
if body == src:
    raise SystemExit("code.py has no app.run() line to stop before")
g = {"__name__": "__main__"}
t0 = mark()
exec(compile(body, "code.py", "exec"), g)  # code.py compiled from source, as the chip does
ready = span(t0)
probe.note()  # up to the ready App, whose loop feeds it every pass
if "app" not in g:
    raise SystemExit("code.py did not build the app")
print("ticks_per_us", TICKS_PER_US)
print("first_light_ticks", span(t0, first[0]) if first[0] is not None else -1)
print("ready_ticks", ready)
print("longest_unfed_ticks", probe.longest if probe.last is not None else -1)
