# Fake `keypad` with the real semantics (adafruit/circuitpython shared-module/keypad/*.c and
# shared-bindings/keypad/*.c): scanning in the background every `interval`, independent of the
# Python loop's pace (here: every scan due is caught up whenever Python looks, each with the pin
# levels of its time, chatter and all), debounce counters, a bounded event queue with an overflow
# flag, reset() (as the modelled CircuitPython version has it), value_when_pressed and the pulls
# on the simulated board's wiring, pins claimed until deinit(), and ShiftRegisterKeys reading its
# keys in the order the chips shift them out (so a wrongly documented wiring shows up as wrong
# holes).
import _sim
from _keypad_scan import Event, EventQueue  # noqa: F401 (keypad.Event, keypad.EventQueue)
from _keypad_scan import Scanner as _Scanner  # (not a name of CircuitPython's keypad)


class Keys(_Scanner):
    """One pin a key (shared-bindings/keypad/Keys.c, shared-module/keypad/Keys.c): key k pressed
    while its pin reads value_when_pressed; `pull` turns on the pin's pull towards the other level
    (up for value_when_pressed=False). A wrong value_when_pressed inverts every key, as on the
    chip: the sensors drive their pins (low with a peg), so every empty hole reads "pressed"."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        pins = list(pins)
        for i in range(len(pins)):
            if pins[i] in pins[i + 1:]:  # (sic: Keys' check names row_pins too)
                raise TypeError("row_pins contains duplicate pins")
        self._vwp = bool(value_when_pressed)
        self._pull = ("down" if self._vwp else "up") if pull else None
        self._src = [_sim.source_of(p) for p in pins]
        # the usual wiring, key k the sensor of hole k+1: read in one expression
        self._holes = self._src == [("hole", k) for k in range(len(pins))]
        _Scanner.__init__(self, pins, len(pins), interval, max_events, debounce_threshold)

    def _read(self):
        if self._holes:
            high = ~_sim.sensors  # the sensors' outputs: low with a peg
        else:
            high = 0
            for k in range(self._n):
                if _sim.level(self._src[k], self._pull):
                    high |= 1 << k
        return (high if self._vwp else ~high) & self._all


def ShiftRegisterKeys(**kw):
    """keypad.ShiftRegisterKeys, whose code (_keypad_more.py) only a board with shift registers
    loads: on the chip it is C, and the simulated heap should not carry what the firmware never
    uses."""
    from _keypad_more import ShiftRegisterKeys
    return ShiftRegisterKeys(**kw)


def KeyMatrix(row_pins, column_pins, **kw):
    """keypad.KeyMatrix (_keypad_more.py), as ShiftRegisterKeys."""
    from _keypad_more import KeyMatrix
    return KeyMatrix(row_pins, column_pins, **kw)
