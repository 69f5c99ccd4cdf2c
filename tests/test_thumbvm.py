"""thumbvm (pegboard.sim.thumbvm): chipvm's core built for a Cortex-M0+ and run in an emulator that
counts the chip's cycles. It is the chip as the firmware meets it (32-bit, the 1.5 KB Python stack,
the core feature level), its cycle counts are the same on every run, its watchdog fires in emulated
chip time, and the simulated board answers a hint on it. The whole e2e set runs on it in `make
soak` (tests/support.py RUNTIMES)."""

import subprocess

import pytest

from pegboard.sim.simulator import Simulator
from pegboard.sim import thumbvm
from pegboard.link.client import BoardClient
from support import until


@pytest.fixture(scope="module")
def vm():
    try:
        return str(thumbvm.build().path)
    except thumbvm.BuildFailed as e:
        pytest.fail("thumbvm's tools are here but its build failed: %s" % e)
    except thumbvm.Unavailable as e:
        pytest.skip("thumbvm cannot be built here: %s" % e)


def run(vm, tmp_path, src, env=None):
    script = tmp_path / "t.py"
    script.write_text(src)
    p = subprocess.run([vm, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_it_is_the_chip_the_firmware_meets(vm, tmp_path):
    out = run(vm, tmp_path, """
import sys
print(sys.platform, sys.maxsize)
try:
    next(iter([]), 0)
except TypeError:
    print("no next2")
def deep(n):
    return deep(n + 1)
try:
    deep(0)
except RuntimeError as e:
    print(e)
""")
    assert out.split("\n")[:3] == ["thumbvm 2147483647", "no next2", "pystack exhausted"]


LOOP = """
from _vmhost import cycles
def work(n):
    x = 0
    for i in range(n):
        x += i & 7
    return x
def measure(n1, n2, n3):  # locals: a new global could grow the module's dict in the middle
    work(1)  # the first call in a frame pays a lookup the others do not (MicroPython's map lookup cache)
    a = cycles()
    work(n1)
    b = cycles()
    work(n2)
    c = cycles()
    work(n3)
    d = cycles()
    return b - a, c - b, d - c
measure(1, 1, 1)  # the first runs of this code aside
print(*measure(%d, %d, %d))
"""


def test_cycle_counts_are_exact_and_the_same_every_run(vm, tmp_path):
    first = run(vm, tmp_path, LOOP % (1000, 2000, 3000))
    assert run(vm, tmp_path, LOOP % (1000, 2000, 3000)) == first  # no clock of the PC in them
    one, two, three = (int(x) for x in first.split())
    assert three - two == two - one, first  # each iteration costs the same cycles
    per_iteration = (two - one) / 1000
    # a loop pass of small-int bytecode (nine opcodes): hundreds of cycles on a Cortex-M0+
    assert 100 < per_iteration < 2000, first


def test_the_watchdog_fires_in_emulated_chip_time(tmp_path):
    # a loop that stalls by the chip's cycles between feeds: 0.3 s of chip time passes a 1 s
    # watchdog, 1.5 s does not (the emulator fires it mid-pass, as the RP2040's does)
    def board(stall_ms, count=False):
        d = tmp_path / str(stall_ms)
        d.mkdir()
        (d / "code.py").write_text(
            "import microcontroller, _vmhost\n"
            "from watchdog import WatchDogMode\n"
            "wd = microcontroller.watchdog\n"
            "wd.timeout = 1\n"
            "wd.mode = WatchDogMode.RESET\n"
            "n = 0\n"
            "while True:\n"
            "    wd.feed()\n"
            "    n += 1\n"
            "%s"
            "    t = _vmhost.cycles()\n"
            "    while (_vmhost.cycles() - t) & ((1 << 29) - 1) < %d:\n"
            "        pass\n" % ("    print('pass', n)\n" if count else "", stall_ms * 125000))
        return Simulator(firmware=d, runtime="thumb")

    with board(300, count=True) as sim:
        # five stalled passes: 1.2 s of chip time since the first feed, past the watchdog's 1 s
        st = until(lambda: (lambda s: s if "pass 5" in s["console"] else None)(sim.control("status")), 30,
                   "five stalled passes")
        assert st["chip_watchdog_resets"] == 0 and st["resets"] == 0, st
        assert 300 <= st["longest_pass_ms"] < 400, st
    with board(1500) as sim:
        st = until(lambda: (lambda s: s if s["chip_watchdog_resets"] else None)(sim.control("status")), 20,
                   "the emulated watchdog to fire")
        assert any("watchdog reset: a loop pass took ~10" in line for line in st["console"]), st["console"]


def test_a_hint_on_the_thumb_board(tmp_path):
    with Simulator(runtime="thumb") as sim, BoardClient(sim.data_path) as b:
        sim.control("fill", empty=5)
        sim.control("wait_idle")
        h = b.request("hint")
        assert h["solvable"] is True and h["best_left"] == 1
        st = sim.control("status")
        assert st["chip_watchdog_resets"] == 0 and st["watchdog_resets"] == 0, st["console"]
        # passes that compile a module on demand included (the bench times the hint's own pass)
        assert 0 < st["longest_pass_ms"] < 4000, st
