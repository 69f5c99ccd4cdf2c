# Runs in the MicroPython VMs: the real App, started by the firmware's own start-up
# (pegfw.startup.start, as code.py runs it) and driven through the tests' fake hardware
# (tests/fakehw.py), beside the real hardware objects (pegfw.hardware.build over the simulator's
# fake pins, keypad, ... and the real Adafruit neopixel library), which are built and held so their
# heap counts as on the chip. argv: the repository's folder, the folder with the neopixel library,
# "devices" or "plain" (without the real hardware objects: the firmware's own heap alone); the
# settings come from the environment (bench/firmware.py), the working folder is firmware/.
# Prints "ticks_per_us N" (the clock's unit, below), then figures: free_at_base (heap free before
# the firmware starts), and in ticks boot_ticks, idle_ticks (median loop pass; p99 and worst beside
# it), sensor_ticks (the pass that turns a sensor event into lights; the worst beside it; the
# hint's wait is bench/mp/release_latency.py's), load_ticks (slowest on-demand module), the
# longest passes; heap after boot and peak live heap during a game, a demo and every kind of
# request from a laptop.
# The clock: on thumbvm the emulated chip's cycles (_vmhost.cycles: Cortex-M0+ cycles under the
# model in host/pegboard/sim/thumbvm/host.c, 125 a µs at the RP2040's 125 MHz; the count repeats
# exactly, run after run); elsewhere µs of the PC's clock (the unix VM's ticks_us; on chipvm, whose
# time module is CircuitPython's and has no ticks, this process's CPU time): host figures, not the
# chip's.
# Exit status: 0 done; NO_MEMORY when a MemoryError reached the scenario or a request was refused
# for memory; START_FAILED when start-up failed (the chip would blink a code: a VM without
# sys.exc_info, as the chip's, cannot say why); 1 anything else.
import sys
import gc
try:
    from _vmhost import cycles as ticks, cpu_us  # thumbvm
    TICKS_PER_US = 125
except ImportError:
    try:
        from time import ticks_us as ticks  # the unix VM
    except ImportError:
        from _vmhost import cpu_us as ticks  # chipvm
    TICKS_PER_US = 1
try:
    from time import ticks_diff  # the unix VM
except ImportError:
    def ticks_diff(a, b):
        # _vmhost's clocks wrap at 2**29: spans (a after b) up to 4.29 s of cycles; longer: span()
        return (a - b) & ((1 << 29) - 1)


def mark():
    return ticks(), cpu_us() if TICKS_PER_US != 1 else 0


def span(m):
    """Ticks since mark() m, past the cycle counter's wrap (2**29 cycles, 4.29 s) too: cpu_us,
    the same count in µs (wrapping at 2**29 µs), says how many wraps went by."""
    d = ticks_diff(ticks(), m[0])
    if TICKS_PER_US != 1:
        us = (cpu_us() - m[1]) & ((1 << 29) - 1)
        d += ((us * TICKS_PER_US - d + (1 << 28)) >> 29) << 29
    return d


NO_MEMORY = 3  # bench/firmware.py knows these two
START_FAILED = 4
ROOT, LIB, MODE, NVM_IMAGE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
sys.path[:0] = [ROOT + "/firmware", ROOT + "/host/pegboard/sim/device", LIB, ROOT + "/tests"]
# What the chip has built in (C modules, no heap of ours): here the simulator's fakes of them, and
# adafruit_pixelbuf (a C module in CircuitPython, a Python library here). No simulator process is
# listening: the fakes neither read nor send.
import _sim
_sim.detach()
if TICKS_PER_US != 1:
    # thumbvm: the fakes' clock (supervisor.ticks_ms, the watchdog's and keypad's timing) runs in
    # the emulated chip's time, as the chip's does, not the PC's: the cycles then repeat exactly
    _sim.now_ms = lambda: cpu_us() // 1000
try:
    import board, digitalio, keypad, microcontroller, supervisor, usb_cdc, neopixel_write, pwmio, adafruit_pixelbuf  # noqa
except MemoryError:  # a heap too small even for the fakes: too small, as for the firmware (below)
    raise SystemExit(3) from None  # (not sys.exit: a MemoryError mid-import can leave the VM in that module's globals)
import json, binascii, os  # noqa: E401,F401 (C modules on the chip and the chip VM)
try:
    import watchdog  # noqa: F401
except ImportError:
    pass
try:
    import fakehw  # noqa: E402
except MemoryError:  # a heap too small even for the fakes: too small, as for the firmware
    sys.exit(3)  # NO_MEMORY, spelled out: a heap this small may not even hold the global


class CountingSerial(fakehw.Serial):
    """The host's end of the data port: counts the replies (and the refusals, for memory or a
    search's limit) and keeps no bytes, so the bench's heap does not grow with them."""

    def __init__(self):
        super().__init__()
        self.replies = 0
        self.refused = 0
        self.no_memory = 0
        self.gave_up = 0
        self.first_refusal = b""

    def write(self, b):
        b = bytes(b)  # MicroPython 1.19 (the chip VM) has no bytearray.count
        self.replies += b.count(b'"ok": true')
        if b'"ok": false' in b and not self.refused:
            self.first_refusal = b[:200]  # said when the scenario fails
        self.refused += b.count(b'"ok": false')
        self.no_memory += b.count(b'"no_memory"')
        self.gave_up += b.count(b'"search_limit"')
        return len(b)


class BenchPiezo:
    """pwmio.PWMOut as the firmware's tunes use it: a frequency and a duty cycle, set a note at a time."""

    def __init__(self):
        self.frequency = 4000
        self.duty_cycle = 0


class BenchHW(fakehw.HW):
    """The tests' fake hardware, timing when a frame goes out instead of keeping it."""

    def __init__(self):
        super().__init__(nvm=fakehw.FlashNvm())  # counts the flash's programs and erases
        with open(NVM_IMAGE, "rb") as f:  # a record whose log is nearly full (bench/firmware.py)
            self.nvm.data[:] = f.read()
        self.serial = CountingSerial()
        self.shown_at = 0
        self.pixels = None  # start-up's blink codes have nothing to light here: frames are timed
        self.piezo = BenchPiezo()  # the tunes play (PEGBOARD_PIEZO_PIN): a PWM's two settings


    def show(self, frame):
        self.shown_at = ticks()


# a game from hole 1 played to a lost end (its 4th move, 13 -> 11 over 12, loses the win): the review
LOST_LINE = ((4, 2, 1), (11, 7, 4), (9, 8, 7), (13, 12, 11), (7, 4, 2), (2, 5, 9), (6, 9, 13), (1, 3, 6),
             (10, 6, 3), (14, 13, 12), (11, 12, 13))


def review_a_lost_game(app, hw, full, advance, sample):
    """A lost game by the sensors (its 4th move loses the win), then where it went wrong: a short
    press of the button (the game's positions judged by lookups, the move lit, the retry set up),
    and the same for the first kept game by request."""
    b = app.board
    mask = full & ~1
    hw.sensors.set(mask)
    advance(100)
    for f, o, t in LOST_LINE:
        j = [k for k in range(len(b.flip))
             if (b.jump_from[k], b.jump_over[k], b.jump_to[k]) == (f - 1, o - 1, t - 1)][0]
        for bit in (b.jump_from[j], b.jump_to[j], b.jump_over[j]):
            mask ^= 1 << bit
            hw.sensors.set(mask)
            advance(30)
        sample()
    advance(100)
    hw.button.set(1)
    advance(60)
    hw.button.set(0)
    advance(100)
    if app.shows.kind != "review":
        raise SystemExit("review: the button after a lost game lit no review (%s)" % app.shows.kind)
    for _ in range(12):
        advance(400)
        sample()
    replies_before = hw.serial.replies
    for line in (b'{"cmd":"review","game":1}', b"stop"):
        hw.serial.rx += line + b"\n"
        advance(400)
        sample()
    if hw.serial.refused or hw.serial.replies - replies_before != 2:
        print("review failed: %d ok, %d refused" % (hw.serial.replies - replies_before, hw.serial.refused))
        sys.exit(NO_MEMORY if hw.serial.no_memory else 1)


def puzzle_by_the_button(app, hw, full, advance, sample):
    """Three quick presses: the next unsolved puzzle's set-up lights (its table read from flash),
    given up by stop; then a puzzle of a grade by request, given up too."""
    hw.sensors.set(full & ~1)
    advance(100)
    for _ in range(3):
        hw.button.set(1)
        advance(60)
        hw.button.set(0)
        advance(100)
    if app.tracker.mode != "setup" or not app.tracker.target:
        raise SystemExit("puzzle: three quick presses set up no puzzle (%s)" % app.tracker.mode)
    sample()
    replies_before = hw.serial.replies
    for line in (b"stop", b'{"cmd":"puzzle","grade":2}', b"stop"):  # and one of a grade by request
        hw.serial.rx += line + b"\n"
        advance(400)
        sample()
    if hw.serial.refused or hw.serial.replies - replies_before != 3:
        print("puzzle failed: %d ok, %d refused" % (hw.serial.replies - replies_before, hw.serial.refused))
        sys.exit(NO_MEMORY if hw.serial.no_memory else 1)


def main():
    hw = BenchHW()  # the fake hardware (and its NVM, flash on the chip) is not the firmware's heap
    # the bench's own timing lists, made before counting starts and kept to the end, so neither the
    # sampled heap nor the smallest heap the scenario runs in charges them to the firmware
    idle = [0] * 2000
    sens = [0] * 25
    held = []  # the real hardware objects, built by start-up and held
    gc.collect()
    base = gc.mem_alloc()
    free_at_base = gc.mem_free()  # the heap the firmware has (the GC's own tables already taken off)
    t_boot = mark()
    # the firmware's start-up, as code.py runs it; the hardware it builds is held, and the App gets
    # the fake hardware the bench drives
    from pegfw import hardware
    from pegfw.ondemand import unload

    real_build = [hardware.build]

    def build(cfg, early=None):
        make = real_build.pop()  # no reference to pegfw.hardware stays: start-up unloads it
        if MODE == "devices":
            held.append(make(cfg, early))
        return hw

    def blink_clock():  # start-up asks the hardware's clock only to blink a code, forever, on failure
        sys.exit(START_FAILED)

    hardware.build = build
    hardware.ticks_ms = blink_clock
    del hardware
    from pegfw.startup import start

    try:
        app = start()
    except Exception as e:  # start-up's failure path failed in turn (nothing else escapes start())
        if hasattr(sys, "print_exception"):
            sys.print_exception(e)
        sys.exit(START_FAILED)
    del start
    unload("pegfw.startup")  # as code.py does
    boot = span(t_boot)
    gc.collect()
    heap_boot = gc.mem_alloc() - base
    peak = [heap_boot]

    def sample():
        gc.collect()
        h = gc.mem_alloc() - base
        if h > peak[0]:
            peak[0] = h

    # the longest loop pass of the whole scenario, in ticks: of those that compiled code on demand (a rare
    # request's or a show's module, from source), and of all the others
    longest = [0, 0]
    compiled = [False]  # a module not yet loaded was imported (compiled) during this pass
    import builtins

    _import = builtins.__import__

    def _watching_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name.startswith("peg"):
            mod = sys.modules.get(name)
            if mod is None or any(not hasattr(mod, f) for f in fromlist or ()):  # e.g. from pegfw import x
                compiled[0] = True
        return _import(name, globals, locals, fromlist, level)

    builtins.__import__ = _watching_import

    # the passes that wrote the flash: [CPU ticks, page programs, sector erases] of the longest with a
    # program only (passes that compiled code aside, as for longest_pass_ticks), and of the longest
    # with an erase (a compaction); bench/firmware.py adds the flash time from the data sheet (the
    # chip runs no code meanwhile)
    flash_pass = [[0, 0, 0], [0, 0, 0]]
    nvm = hw.nvm

    def advance(ms):
        for _ in range(ms // 5):
            hw.advance(5)
            compiled[0] = False
            programs, erases = nvm.programs, nvm.erases
            t = ticks()
            app.step()
            d = ticks_diff(ticks(), t)
            k = 1 if compiled[0] else 0
            if d > longest[k]:
                longest[k] = d
            if nvm.erases != erases or (nvm.programs != programs and not k):  # (compiling: next figure)
                f = flash_pass[1 if nvm.erases != erases else 0]
                if d > f[0]:
                    f[0], f[1], f[2] = d, nvm.programs - programs, nvm.erases - erases

    def timed_pass():
        hw.advance(5)
        t = ticks()
        app.step()
        return ticks_diff(ticks(), t)

    def press_for_hint():
        """A short press: its release asks for a hint (timed by bench/mp/release_latency.py)."""
        app.released_at = None  # each press a hint of its own: two within 0.4 s at a game's start set a challenge
        hw.button.set(1)
        advance(20)
        hw.button.set(0)
        advance(25)
        sample()

    full = (1 << 15) - 1
    # before a game: a few pegs by hand and the hint button (the search answers, then lets go)
    hw.sensors.set(0b11111)
    advance(200)
    hw.button.set(1)
    advance(20)
    hw.button.set(0)
    advance(200)
    sample()
    hw.sensors.set(full & ~1)
    advance(200)
    sample()
    # nobody plays for 2.6 s: the nearly full log is rewritten in a quiet pass (a compaction)
    advance(2600)
    sample()
    # idle passes
    for k in range(2000):
        idle[k] = timed_pass()
    idle.sort()
    # sensor event -> lights: lift 4 (lights its landing hole)
    for k in range(25):
        hw.sensors.set(hw.sensors.state ^ (1 << 3))
        hw.advance(25)  # past the frame interval, as a real pass would be
        t = ticks()
        app.step()
        sens[k] = ticks_diff(hw.shown_at, t)
        advance(40)
        press_for_hint()
    sens.sort()
    # the hint button on pegs set by hand (free play): every peg out past the settle time, then a
    # position of 7 pegs placed a hole at a time; the hint is still a table lookup
    hw.sensors.set(0)
    advance(700)
    for h in (2, 4, 5, 7, 9, 12, 13):
        hw.sensors.set(hw.sensors.state | 1 << (h - 1))
        advance(30)
    for k in range(25):
        press_for_hint()
    # the hint button toward a challenge (the last peg in the hole that started empty): still table
    # lookups (the finish table); the challenge is taken off after, so the game below is an ordinary one
    hw.sensors.set(full & ~1)
    advance(200)
    hw.serial.rx += b'{"cmd":"challenge","target":"finish"}\n'
    advance(400)
    for k in range(25):
        press_for_hint()
    hw.serial.rx += b'{"cmd":"challenge","target":"none"}\n'
    advance(100)
    sample()
    # a whole game by sensors, then a demo from a new game, sampling the live heap
    b = app.board
    mask = full & ~1
    hw.sensors.set(mask)
    advance(100)
    for j in app.advisor.solution(mask):
        for bit in (b.jump_from[j], b.jump_over[j], b.jump_to[j]):
            mask ^= 1 << bit
            hw.sensors.set(mask)
            advance(30)
        sample()
    hw.sensors.set(full & ~1)
    advance(100)
    hw.button.set(1)
    advance(900)
    hw.button.set(0)
    for _ in range(20):
        advance(800)
        sample()
    # a laptop asks everything the protocol offers, one request at a time (the rare ones load their
    # code for the answer and drop it after)
    hw.sensors.set(full & ~1)
    advance(100)
    REQUESTS = (b"info", b"state", b"hint", b"stats", b'{"cmd":"brightness","value":30}',
                b'{"cmd":"theme","name":"wooden"}', b"solve", b'{"cmd":"solve","finish":13}',
                b'{"cmd":"guide","moves":[[4,2,1]]}', b"stop", b'{"cmd":"demo","moves":[[4,2,1],[6,5,4]]}',
                b"stop", b'{"cmd":"watch","speed":5}', b"stop", b'{"cmd":"selftest","seconds":1}', b"stop",
                b"records", b'{"cmd":"challenge","target":"leave:3"}', b"hint",
                b'{"cmd":"challenge","target":"none"}', b"state", b"bests")
    replies_before = hw.serial.replies  # (the challenge's two requests above)
    for line in REQUESTS:
        hw.serial.rx += line + b"\n"
        advance(400)
        sample()
    if hw.serial.refused or hw.serial.replies - replies_before != len(REQUESTS):
        print("requests failed: %d ok, %d refused (%d for no_memory); the first: %s" % (
            hw.serial.replies, hw.serial.refused, hw.serial.no_memory, hw.serial.first_refusal))
        sys.exit(NO_MEMORY if hw.serial.no_memory else 1)
    review_a_lost_game(app, hw, full, advance, sample)  # (its own frame: main's is on every pass's stack)
    puzzle_by_the_button(app, hw, full, advance, sample)
    # solve with a finish hole, from every start and to every hole (the board walks its finish table,
    # a slice per pass; impossible finishes are refused)
    from pegcore.geometry import start_mask

    solves = 0
    solve_t = 0  # the longest time from a solve request to its answer, in CPU ticks
    replies_before = hw.serial.replies + hw.serial.refused
    for empty in range(1, 16):
        hw.sensors.set(start_mask(b, empty))
        advance(100)
        for finish in range(1, 16):
            hw.serial.rx += b'{"cmd":"solve","finish":%d}\n' % finish
            solves += 1
            answers = hw.serial.replies + hw.serial.refused
            spent = 0
            for _ in range(200):
                if hw.serial.replies + hw.serial.refused != answers:
                    break
                t = ticks()
                advance(5)
                spent += ticks_diff(ticks(), t)
            solve_t = max(solve_t, spent)
            advance(50)
        sample()
    answered = hw.serial.replies + hw.serial.refused - replies_before
    if answered != solves:
        raise SystemExit("solve: %d requests, %d answers" % (solves, answered))
    if hw.serial.no_memory or hw.serial.gave_up:
        print("solve failed: %d gave up (%d for no_memory)" % (hw.serial.gave_up, hw.serial.no_memory))
        sys.exit(NO_MEMORY if hw.serial.no_memory else 1)
    # the pause when code the game does not keep is compiled on demand (a show starting, a rare
    # request): the slowest of them, each imported fresh and dropped again
    load_t = 0
    for name in ("pegfw.show_over", "pegfw.show_demo", "pegfw.show_chase", "pegfw.game_requests",
                 "pegfw.board_requests", "pegfw.sense_requests", "pegfw.position_requests", "pegfw.store_log",
                 "pegfw.store_records", "pegfw.show_watch", "pegfw.guide", "pegfw.jobs", "pegfw.resume", "pegfw.review",
                 "pegfw.show_review", "pegfw.puzzles", "pegfw.bests"):
        loaded = list(sys.modules)
        t = ticks()
        __import__(name)
        load_t = max(load_t, ticks_diff(ticks(), t))
        for m in list(sys.modules):
            if m not in loaded:
                unload(m)
    print("ticks_per_us", TICKS_PER_US)
    print("free_at_base", free_at_base)
    print("boot_ticks", boot)
    print("idle_ticks", idle[len(idle) // 2])
    print("idle_p99_ticks", idle[len(idle) * 99 // 100])
    print("idle_worst_ticks", idle[-1])
    print("sensor_ticks", sens[len(sens) // 2])
    print("sensor_worst_ticks", sens[-1])
    print("load_ticks", load_t)
    print("heap_boot", heap_boot)
    print("heap_peak", peak[0])
    print("longest_pass_ticks", longest[0])
    print("longest_compile_pass_ticks", longest[1])
    print("solve_ticks", solve_t)
    print("flash_write_pass_ticks", flash_pass[0][0])
    print("flash_write_pass_programs", flash_pass[0][1])
    print("compaction_pass_ticks", flash_pass[1][0])
    print("compaction_pass_erases", flash_pass[1][2])


try:
    main()
except MemoryError:
    sys.exit(3)  # NO_MEMORY, spelled out: a heap this small may not even hold the global
