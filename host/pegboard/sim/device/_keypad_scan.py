# The fake keypad's event queue and the scanner every kind of keys shares (on the chip one C
# module, shared-module/keypad/*.c): apart from keypad.py so that keypad.py and the kinds it
# loads on use (_keypad_more.py) both import it and neither imports the other back.
import _sim
from supervisor import ticks_ms


class Event:
    """A key's transition. Its fields are read-only, as the real Event's (shared-bindings/keypad/
    Event.c); equal when key_number and pressed are (the timestamp is not compared)."""

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if key_number < 0:
            raise ValueError("key_number must be >= 0")
        self._k = key_number
        self._p = bool(pressed)
        self._t = ticks_ms() if timestamp is None else timestamp

    key_number = property(lambda self: self._k)
    pressed = property(lambda self: self._p)
    released = property(lambda self: not self._p)
    timestamp = property(lambda self: self._t)

    def __eq__(self, other):
        return isinstance(other, Event) and self._k == other._k and self._p == other._p

    def __hash__(self):
        return self._p << 15 | self._k

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._k, "pressed" if self._p else "released")


class EventQueue:
    """A scanner's events (shared-module/keypad/EventQueue.c): at most max_events; a scan that
    finds it full loses its event and sets `overflowed`. `sync()` catches the scanner up to now
    (returning the time, clock_ms); `pending` (the events, and last the overflow flag) is shared
    with the scanner, which fills it: CircuitPython's queue has no public way in, and the fake
    must not add one the firmware could come to rely on."""

    def __init__(self, sync, pending):
        self._sync = sync
        self._q = pending

    def get(self):
        ev = Event()
        return ev if self.get_into(ev) else None

    def get_into(self, event):
        if not isinstance(event, Event):
            raise TypeError("event must be of type Event, not %s" % type(event).__name__)
        at = self._sync()
        q = self._q
        if len(q) == 1:
            _sim.idle(at)
            return False
        # "construct" into the given event, as common_hal_keypad_eventqueue_get_into does
        event._k, event._p, event._t = q.pop(0)
        return True

    def clear(self):
        self._sync()
        self._q[:] = [False]

    @property
    def overflowed(self):
        self._sync()
        return self._q[-1]

    def __len__(self):
        self._sync()
        # before 9.2.7 len() gave the ring buffer's bytes: 2 + 4 (a pointer) an event
        # (shared-module/keypad/EventQueue.c, common_hal_keypad_eventqueue_get_length; fixed in 9.2.7)
        return (len(self._q) - 1) * (1 if _sim.cp_version() >= (9, 2, 7) else 6)

    def __bool__(self):
        self._sync()
        return len(self._q) > 1


class Scanner:
    """What every scanner shares (shared-module/keypad/__init__.c). It scans in the background on
    the chip's tick (1/1024 s), every int(interval * 1024) ticks from its construction or last
    reset(), reading every key; a key's counter steps towards what it reads and reports a change
    when it crosses zero (keypad_debounce), so debounce_threshold consecutive readings make an
    event, stamped with the scan's supervisor.ticks_ms. Here the scans run whenever the firmware
    looks (any method, any property) and whenever the sensors change: every scan due since the
    last one, each with the levels of its time (_sim.clock_ms). Subclasses give `_read()`: bit k
    set, key k reads pressed."""

    def __init__(self, pins, key_count, interval, max_events, debounce_threshold):
        # the checks of shared-bindings/keypad/Keys.c and its siblings (py/argcheck.c's messages)
        if interval < 0:
            raise ValueError("interval must be >= 0")
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        _sim.claim(pins)  # as the DigitalInOut each pin gets (common_hal_digitalio_digitalinout_construct)
        self._pins = pins
        self._n = key_count
        self._all = (1 << key_count) - 1
        self._th = debounce_threshold
        # a new counter array is zeroed (m_malloc_without_collect; py/gc.c clears what it allocates),
        # so the first scans adopt what they read without an event: a key held at construction is
        # reported by reset() only
        self._count = [0] * key_count
        self._top = 0      # keys whose counter is +threshold (reported pressed, steady)
        self._bottom = 0   # ... -threshold (reported released, steady)
        # interval_ticks = int(interval * 1024) ticks of 1/1024 s (0: a scan every tick), in 1/1024 ms
        self._step = (int(interval * 1024) or 1) * 1000
        self._seen = -1    # the _sim.pins_version _want was read at
        self._max = max_events
        self._q = [False]  # type: list  # the events, then the overflow flag
        self._events = EventQueue(self._sync, self._q)
        self._hook = self._catch_up
        _sim.scanners.append(self._hook)  # keypad_register_scanner
        self._next = self._frac = 0  # the next scan: ms since boot, and 1/1024 ms
        self._scan_now(_sim.clock_ms())  # keypad_construct_common scans at once

    def _read(self):
        return 0  # (KeyMatrix: the simulated board has no key matrix)

    def _wanted(self):
        if self._seen != _sim.pins_version:
            self._seen = _sim.pins_version
            self._want = self._read()
        return self._want

    def _scan(self, ms):
        want = self._wanted()
        todo = ((want & ~self._top) | (~want & ~self._bottom)) & self._all
        th = self._th
        count = self._count
        q = self._q
        k = 0
        while todo:
            if todo & 1:
                bit = 1 << k
                c = count[k] + (1 if want & bit else -1)
                if c == 0:  # keypad_debounce: a change, recorded unless the queue is full
                    c = th if want & bit else -th
                    if len(q) > self._max:
                        q[-1] = True
                    else:
                        q.insert(-1, (k, c > 0, _sim.ticks_of(ms)))
                count[k] = c
                self._top = self._top | bit if c == th else self._top & ~bit
                self._bottom = self._bottom | bit if c == -th else self._bottom & ~bit
            todo >>= 1
            k += 1

    def _advance(self, scans):
        f = self._frac + scans * self._step
        self._next += f >> 10
        self._frac = f & 1023

    def _scan_now(self, ms):
        # keypad_scan_now: the next scan one interval from now, then this one
        self._next, self._frac = ms, 0
        self._advance(1)
        self._scan(ms)

    def _catch_up(self, until):
        """Make every scan due at `until` (clock_ms) or before."""
        while self._pins is not None and self._next <= until:
            want = self._wanted()
            if not ((want & ~self._top) | (~want & ~self._bottom)) & self._all:
                # every scan from here to `until` reads what the last one did: skip them, on schedule
                d = until - self._next + 1
                self._advance((d * 1024 - self._frac + self._step - 1) // self._step)
                return
            self._scan(self._next)
            self._advance(1)

    def _sync(self):
        _sim.pump()  # the sensor changes so far (each catches the scanners up to its time)
        now = _sim.clock_ms()
        self._catch_up(now)
        return now

    def _check(self):
        if self._pins is None:
            raise ValueError(_sim.DEINITIALIZED)

    @property
    def events(self):
        self._check()
        return self._events

    @property
    def key_count(self):
        self._check()
        return self._n

    def reset(self):
        """common_hal_keypad_generic_reset: every counter to -threshold ("released"), then a scan at
        once: a held key is reported pressed (after debounce_threshold scans). Before 9.2.1 the
        counters went to +threshold ("pressed"): a held key said nothing and every free key was
        reported released (adafruit/circuitpython c5a929e, "fix keys.*.reset() behavior to send
        pressed instead of released events", first in 9.2.1)."""
        self._check()
        now = self._sync()
        old = _sim.cp_version() < (9, 2, 1)
        self._count = [self._th if old else -self._th] * self._n
        self._top = self._all if old else 0
        self._bottom = 0 if old else self._all
        self._scan_now(now)

    def deinit(self):
        """Stop scanning and release the pins; the EventQueue keeps what it holds."""
        if self._pins is not None:
            self._sync()
            _sim.scanners.remove(self._hook)
            for p in self._pins:
                _sim.release(p)
            self._pins = None

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
