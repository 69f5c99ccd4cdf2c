# Fake `keypad` with the real semantics: scanning every `interval` independent of the Python
# loop's pace (caught up whenever Python looks), a bounded event queue with an overflow flag,
# reset() reporting held keys as pressed again, and ShiftRegisterKeys reading its keys in the
# order the chips shift them out (so a wrongly documented wiring shows up as wrong holes).
import os

import _sim
import board
from supervisor import ticks_ms

_LETTERS = "ABCDEFGH"


def shift_key_of_hole():
    """For each hole (index 0..), the key number keypad.ShiftRegisterKeys gives its sensor, from
    the wiring the simulator was told (PEGBOARD_SIM_SHIFT_WIRING: "1H,1G,..." = chip and input
    per hole; chip 1 drives the data pin, chip 2 shifts into chip 1's SER, ...). The chips
    shift out input H first, then G .. A, then the next chip's: key 0 is chip 1's H."""
    spec = os.getenv("PEGBOARD_SIM_SHIFT_WIRING")
    if not spec:
        raise ValueError("the simulator gave no 74HC165 wiring (PEGBOARD_SIM_SHIFT_WIRING)")
    out = []
    for item in spec.split(","):
        chip, letter = int(item[:-1]), item[-1]
        out.append((chip - 1) * 8 + 7 - _LETTERS.index(letter))
    return out


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=0):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = timestamp

    def __eq__(self, other):
        return self.key_number == other.key_number and self.pressed == other.pressed

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self.key_number, "pressed" if self.pressed else "released")


class EventQueue:
    """`scan()` catches the keys up (and returns when they last scanned); `pending` is the list
    the keys append their events to (both given by the keys: CircuitPython's queue has no public
    way in, and the fake must not add one the firmware could come to rely on)."""

    def __init__(self, scan, pending):
        self._scan = scan
        self._q = pending
        self.overflowed = False

    def get(self):
        scanned_at = self._scan()
        if not self._q:
            _sim.idle(scanned_at)
            return None
        k, p, ts = self._q.pop(0)
        return Event(k, p, ts)

    def get_into(self, event):
        scanned_at = self._scan()
        if not self._q:
            _sim.idle(scanned_at)
            return False
        k, p, ts = self._q.pop(0)
        event.key_number, event.pressed, event.released, event.timestamp = k, p, not p, ts
        return True

    def clear(self):
        del self._q[:]  # the keys hold the same list
        self.overflowed = False

    def __len__(self):
        self._scan()
        return len(self._q)

    def __bool__(self):
        return len(self) > 0


class _Keys:
    def __init__(self, count, source, value_when_pressed, interval, max_events, debounce_threshold=1):
        self.key_count = count
        # keypad's debounce (shared-module/keypad/__init__.c): a counter per key moves one step
        # towards what each scan reads; a change is reported when it crosses zero
        self._threshold = max(1, debounce_threshold)
        self._counter = [-self._threshold] * count
        self._unsettled = 0  # keys whose counter is between the ends
        self._source = source  # "sensors" or "button"
        self._interval = max(1, int(interval * 1000))
        self._reported = 0
        self._last_scan = ticks_ms()
        self._pending = []
        self._max_events = max_events
        self.events = EventQueue(self._scan, self._pending)
        # the fake pins read pegs directly as "pressed", whatever the polarity wiring is
        self.value_when_pressed = value_when_pressed
        self._key_of_hole = None  # sensors wired in another order than hole order (shift registers)

    def _raw(self):
        _sim.pump()
        if self._source == "button":
            return _sim.button & 1
        pegs = _sim.sensors
        if self._key_of_hole is None:
            return pegs & ((1 << self.key_count) - 1)
        keys = 0
        for hole, key in enumerate(self._key_of_hole):
            if pegs >> hole & 1 and key < self.key_count:  # keys past key_count are never shifted in
                keys |= 1 << key
        return keys

    def _put(self, key, pressed, ts):
        if len(self._pending) >= self._max_events:
            self.events.overflowed = True  # dropped, like the real queue
            return
        self._pending.append((key, pressed, ts))

    def _scan(self):
        """Scan if an interval has passed since the last scan; return when the last scan was."""
        now = ticks_ms()
        elapsed = (now - self._last_scan) & ((1 << 29) - 1)
        if elapsed < self._interval:
            return self._last_scan
        self._last_scan = now
        raw = self._raw()
        todo = (raw ^ self._reported) | self._unsettled
        k = 0
        top = self._threshold
        while todo:
            if todo & 1:
                c = self._counter[k]
                bit = 1 << k
                if raw & bit:
                    if c < top:
                        c += 1
                        if c == 0:
                            c = top
                            self._reported |= bit
                            self._put(k, True, now)
                elif c > -top:
                    c -= 1
                    if c == 0:
                        c = -top
                        self._reported &= ~bit
                        self._put(k, False, now)
                self._counter[k] = c
                if c == top or c == -top:
                    self._unsettled &= ~bit
                else:
                    self._unsettled |= bit
            todo >>= 1
            k += 1
        return now

    def reset(self):
        self._reported = 0  # every held key reports pressed again, after the debounce
        self._counter = [-self._threshold] * self.key_count
        self._unsettled = 0
        self._last_scan = (ticks_ms() - self._interval) & ((1 << 29) - 1)

    def deinit(self):
        pass


class Keys(_Keys):
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64,
                 debounce_threshold=1):
        button = getattr(board, _sim.BUTTON_PIN or "", None)
        src = "button" if len(pins) == 1 and button is not None and pins[0] is button else "sensors"
        _Keys.__init__(self, len(pins), src, value_when_pressed, interval, max_events, debounce_threshold)


class ShiftRegisterKeys(_Keys):
    def __init__(self, *, clock, data, latch, key_count, value_when_pressed, value_to_latch=True,
                 interval=0.02, max_events=64, debounce_threshold=1):
        _Keys.__init__(self, key_count, "sensors", value_when_pressed, interval, max_events, debounce_threshold)
        self._key_of_hole = shift_key_of_hole()


class KeyMatrix(_Keys):
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02, max_events=64):
        _Keys.__init__(self, len(row_pins) * len(column_pins), "sensors", True, interval, max_events)
