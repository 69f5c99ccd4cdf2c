# Runs on thumbvm: the hint as the player meets it. The real App, started by the firmware's own
# start-up, runs pass after pass with no gap (as code.py's loop does), its clock the emulated chip's
# (cycles at 125 MHz); the hint button is pressed and released at random moments of that loop
# while the idle pass, a move's flash write, the heap statistics and a laptop's request run.
# A release reaches the firmware as the keypad's scan queues it (the debounce before that is the
# keypad's: 20-40 ms, reported apart); each sample is from that moment to the hint's lights sent,
# in emulated µs, beside the board's own figure for it (stats' last_hint_ms). A `hint` request's
# bytes arriving at random moments are timed the same way, from their arrival.
# argv: the repository's folder, the folder with the neopixel library, the NVM image, presses.
# Prints "press CONTEXT KIND WAIT_US OWN_MS" and "request WHEN WAIT_US OWN_MS" lines, one a sample
# (OWN_MS: the board's own last_hint_ms after it, from its clock in whole ms).
import sys
import gc
from _vmhost import cpu_us

ROOT, LIB, NVM_IMAGE, PRESSES = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])  # PRESSES: a multiple of 6
sys.path[:0] = [ROOT + "/firmware", ROOT + "/host/pegboard/sim/device", LIB, ROOT + "/tests"]
import _sim  # noqa: E402
_sim.detach()
_sim.now_ms = lambda: cpu_us() // 1000  # the fakes' own clock: the emulated chip's time
import board, digitalio, keypad, microcontroller, supervisor, usb_cdc, neopixel_write, pwmio, adafruit_pixelbuf  # noqa
import fakehw  # noqa: E402

WRAP_US = 1 << 29  # cpu_us wraps at 2**29 µs (537 s): every span here is far shorter
FLASH_PROGRAM_US = 3000  # a page program, W25Q16JV data sheet's worst tPP: the chip runs nothing meanwhile


class Clock:
    """The chip's time in µs: the emulated CPU's, plus the flash's stalls (a page program stops
    the chip's code; the fake flash takes none)."""

    def __init__(self):
        self.stalled = 0

    def us(self):
        return (cpu_us() + self.stalled) & (WRAP_US - 1)


CLOCK = Clock()


def uncharged(fn):
    """`fn` of a fake whose real counterpart is C (keypad's queue, usb_cdc): its Python time here
    is not the chip's, so the clock stops while it runs (the few µs of the C call are left out).
    One or two arguments, no `*a`: a tuple a call would be garbage the chip's C call never makes,
    and the heap's collections would come sooner here than on the chip."""
    def call(a, b=_NO_ARG):
        t = cpu_us()
        try:
            return fn(a) if b is _NO_ARG else fn(a, b)
        finally:
            CLOCK.stalled -= (cpu_us() - t) & (WRAP_US - 1)
    return call


_NO_ARG = object()


def later(a, b):
    """a is at or after b (µs, wrapping)."""
    return ((a - b) & (WRAP_US - 1)) < (WRAP_US >> 1)


class TimedQueue:
    """keypad's EventQueue for the hint button: an event is there once the scan that queues it
    has run (its time, in the chip's µs)."""

    def __init__(self):
        self.pending = []  # (due_us, pressed)
        self.overflowed = False

    def get_into(self, ev):
        if not self.pending or not later(CLOCK.us(), self.pending[0][0]):
            return False
        due, pressed = self.pending.pop(0)
        ev.key_number, ev.pressed, ev.released = 0, pressed, not pressed
        ev.timestamp = (due // 1000 + OFFSET_MS) & ((1 << 29) - 1)  # supervisor.ticks_ms at the scan
        return True

    def clear(self):
        self.pending = []


class TimedSerial(fakehw.Serial):
    """The data port: a request's bytes reach the chip at their time."""

    def __init__(self):
        super().__init__()
        self.due = None  # (due_us, bytes) not yet arrived

    @property
    def in_waiting(self):
        return self._in_waiting()

    @uncharged
    def _in_waiting(self):
        if self.due is not None and later(CLOCK.us(), self.due[0]):
            self.rx += self.due[1]
            self.due = None
        return len(self.rx)

    @uncharged
    def read(self, n):
        return super().read(n)

    @uncharged
    def write(self, b):
        if DEBUG:
            print(bytes(b))
        if self.awaiting is not None and b'"id"' in b and (b": %d," % self.awaiting in b or
                                                           b": %d}" % self.awaiting in b):
            self.awaiting = None  # its reply is out
        return len(b)  # the host reads everything; nothing kept

    awaiting = None  # the id of the request whose reply the bench waits for


DEBUG = False
OFFSET_MS = 0  # set below: the firmware's ticks_ms starts close to its wrap, as the chip's may


class BenchHW(fakehw.HW):
    def __init__(self):
        super().__init__(nvm=fakehw.FlashNvm())
        with open(NVM_IMAGE, "rb") as f:
            self.nvm.data[:] = f.read()
        self.serial = TimedSerial()
        self.button.events = TimedQueue()
        for q in (self.button.events, self.sensors.events):
            q.get_into = uncharged(q.get_into)
        self.shown_at = 0
        self.pixels = None

    def ticks_ms(self):
        return (CLOCK.us() // 1000 + OFFSET_MS) & ((1 << 29) - 1)

    def advance(self, ms):
        raise RuntimeError("the clock here is the chip's: passes take their own time")

    def show(self, frame):
        self.shown_at = CLOCK.us()


class Random:
    """A small LCG (thumbvm has no random module): the same moments every run."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


# the requests a press follows (the read-only forms of those that change settings): every kind
# but those that start a show or a job (a press stops a show, and waits for a job), reset and quiet
AFTER = [("state", b'"cmd": "state"'), ("hint", b'"cmd": "hint"'), ("stats", b'"cmd": "stats"'),
         ("info", b'"cmd": "info"'), ("bests", b'"cmd": "bests"'), ("records", b'"cmd": "records"'),
         ("brightness", b'"cmd": "brightness"'), ("theme", b'"cmd": "theme"'), ("roles", b'"cmd": "roles"'),
         ("sound", b'"cmd": "sound"'), ("solve", b'"cmd": "solve"'), ("stop", b'"cmd": "stop"')]
AFTER_EACH = 4  # presses after each kind: half on pegs set by hand, half in a game


def main():
    global OFFSET_MS
    OFFSET_MS = ((1 << 29) - 3000 - cpu_us() // 1000) & ((1 << 29) - 1)
    hw = BenchHW()
    from pegfw import hardware

    hardware.build = lambda cfg, early=None: hw
    from pegfw.startup import start

    app = start()
    del start
    from pegfw.ondemand import unload

    unload("pegfw.startup")
    gc.collect()
    nvm = hw.nvm
    hint_at = [None]
    show_hint = app.show_hint

    def timed_show_hint(*a, **k):
        r = show_hint(*a, **k)
        hint_at[0] = hw.shown_at  # show_hint sends its frame before it returns
        return r

    app.show_hint = timed_show_hint
    harness = [cpu_us()]  # when the bench's own code between passes began: not the chip's time

    def step():
        CLOCK.stalled -= (cpu_us() - harness[0]) & (WRAP_US - 1)
        programs = nvm.programs
        app.step()
        CLOCK.stalled += (nvm.programs - programs) * FLASH_PROGRAM_US
        harness[0] = cpu_us()

    def run_ms(ms):
        t = CLOCK.us()
        while not later(CLOCK.us(), t + ms * 1000):
            step()

    def wait_for_hint(since_us):
        """Passes until the hint's lights are sent after `since_us`."""
        while hint_at[0] is None or not later(hint_at[0], since_us):
            step()
            if not later(since_us + 2000000, CLOCK.us()):
                raise SystemExit("no hint within 2 s")
        return (hint_at[0] - since_us) & (WRAP_US - 1)

    full = (1 << 15) - 1
    b = app.board
    rnd = Random(2026)
    game = [full & ~1, []]  # the pegs, the jumps still to play

    def new_game():
        game[0] = full & ~1
        hw.sensors.set(game[0])
        run_ms(300)
        game[1] = app.advisor.solution(game[0])

    def press(context, kind):
        """One press, its release at a random moment while `kind` of work runs."""
        if kind == "flash write":  # a jump under way: the jumper and the jumped peg lifted
            if not game[1]:
                new_game()
            j = game[1].pop(0)
            for bit in (b.jump_from[j], b.jump_over[j]):
                game[0] ^= 1 << bit
                hw.sensors.set(game[0])
                run_ms(30)
        app.released_at = None  # each press a hint of its own (two soon after a start set a challenge)
        press_due = (CLOCK.us() + 1000 * (1 + rnd.below(20))) & (WRAP_US - 1)
        release_due = (press_due + 1000 * (45 + rnd.below(200))) & (WRAP_US - 1)  # a press of 45-245 ms
        hw.button.events.pending = [(press_due, True), (release_due, False)]
        # the other work at a random moment of the 8 ms before the release (a pass longer than
        # that would have met the release already)
        other_due = (release_due - rnd.below(8000)) & (WRAP_US - 1)
        if kind == "request":  # a laptop asks for the state as the release comes
            hw.serial.due = (other_due, b"state\n")
        hint_at[0] = app.hint_ms = None
        while kind in ("heap statistics", "flash write") and not later(CLOCK.us(), other_due):
            step()
        if kind == "heap statistics":
            app.heap_sample_at = app.hw.ticks_ms()  # the statistics' collection due now
        elif kind == "flash write":  # the jumper lands: the move is logged
            game[0] ^= 1 << b.jump_to[j]
            hw.sensors.set(game[0])
        print("press", context, kind.replace(" ", "_"), wait_for_hint(release_due), app.hint_ms)
        run_ms(20)

    new_game()
    for k in range(PRESSES * 2 // 3):  # in a game
        press("game", ("idle", "heap statistics", "flash write", "request")[k % 4])
    # on pegs set by hand (free play): every peg out past the settle time, then 7 placed
    hw.sensors.set(0)
    run_ms(700)
    for h in (2, 4, 5, 7, 9, 12, 13):
        hw.sensors.set(hw.sensors.state | 1 << (h - 1))
        run_ms(30)
    for k in range(PRESSES // 6):
        press("hand_set", ("idle", "heap statistics", "request")[k % 3])
    # toward a challenge (the last peg in the hole that started empty): the finish table's lookups
    new_game()
    hw.serial.rx += b'{"cmd":"challenge","target":"finish"}\n'
    run_ms(400)
    for k in range(PRESSES // 6):
        press("challenge", ("idle", "heap statistics", "request")[k % 3])
    # right after each kind of request the host tool sends (the rare ones compile their code and
    # leave it behind as garbage; a hint request lights a hint of its own): its reply out, then
    # the press; or its bytes arriving a moment before the press; on pegs set by hand and in a game
    hw.serial.rx += b'{"cmd":"challenge","target":"none"}\n'
    for where in ("hand_set", "game"):
        if where == "game":
            new_game()
        else:
            hw.sensors.set(0)
            run_ms(700)
            for h in (1, 3, 4, 6, 8, 11, 14, 15):
                hw.sensors.set(hw.sensors.state | 1 << (h - 1))
                run_ms(30)
        for k in range(len(AFTER) * AFTER_EACH // 2):
            kind, line = AFTER[k % len(AFTER)]
            rid = 70000 + k
            during = k // len(AFTER) % 2
            if during:  # its bytes arrive up to 25 ms before the press (or just after it)
                hw.serial.due = ((CLOCK.us() + rnd.below(25000)) & (WRAP_US - 1), b'{"id": %d, %s}\n' % (rid, line))
            else:  # its reply out, then the press
                hw.serial.awaiting = rid
                hw.serial.rx += b'{"id": %d, %s}\n' % (rid, line)
                t = CLOCK.us()
                while hw.serial.awaiting is not None:
                    step()
                    if not later(t + 2000000, CLOCK.us()):
                        raise SystemExit("no reply to %s within 2 s" % kind)
            press(("during_" if during else "after_") + kind, where)
            run_ms(200)  # past a double press: each press a hint of its own
    # a laptop's hint request as the host tool sends it, its bytes arriving at random moments;
    # then a few as the heap statistics' collection falls due (a collection no pass interrupts)
    hw.serial.rx += b'{"cmd":"challenge","target":"none"}\n'
    new_game()
    for k in range(PRESSES // 2 + PRESSES // 20):
        collecting = k >= PRESSES // 2
        due = (CLOCK.us() + rnd.below(4000)) & (WRAP_US - 1)
        if collecting:
            app.heap_sample_at = app.hw.ticks_ms() + rnd.below(4)
        hw.serial.due = (due, b'{"id": %d, "cmd": "hint"}\n' % k)
        hint_at[0] = None
        print("request", "collecting" if collecting else "random", wait_for_hint(due), app.hint_ms)
        run_ms(20)

main()
