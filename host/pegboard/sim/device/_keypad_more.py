# keypad's ShiftRegisterKeys and KeyMatrix, apart from the fake keypad module so that a board
# without them does not carry their code on the simulated heap (keypad.py imports them on use).
import os

import _sim
import board
from _keypad_scan import Scanner  # the scanner the fake keypad's Keys share (one C module on the chip)

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


class ShiftRegisterKeys(Scanner):
    """Keys shifted in from a chain of 74HC165s (shared-module/keypad/ShiftRegisterKeys.c): each
    scan sets the latch pin to value_to_latch, reads the data pin (key 0 before the first clock),
    clocks, reads the next, ... The simulated chain is the one documented (hardware/README.md: its
    data pin PEGBOARD_SR_DATA, holes on the inputs PEGBOARD_SIM_SHIFT_WIRING says, an unused input
    at the no-peg level, the last chip's SER grounded). With value_to_latch False the chips stay in
    load mode and every bit is chip 1's input H. A data pin the chain does not drive floats (low)."""

    def __init__(self, *, clock, data, latch, value_to_latch=True, key_count, value_when_pressed,
                 interval=0.020, max_events=64, debounce_threshold=1):
        datas = [data] if isinstance(data, board.Pin) else list(data)
        counts = [key_count] if isinstance(key_count, int) else list(key_count)
        if len(counts) != len(datas):
            raise ValueError("key_count length must be %d" % len(datas))
        if min(counts) < 1:
            raise ValueError("key_count must be >= 1")
        self._vwp = bool(value_when_pressed)
        self._latch = bool(value_to_latch)
        self._counts = counts
        self._chain = [p is getattr(board, os.getenv("PEGBOARD_SR_DATA") or "", None) for p in datas]
        self._holes = shift_key_of_hole() if True in self._chain else []
        Scanner.__init__(self, datas + [clock, latch], sum(counts), interval, max_events, debounce_threshold)

    def _read(self):
        # the bits the chain shifts out: inputs no hole uses sit at the no-peg level (high), and
        # past the last chip its SER's GND
        bits = (1 << (max(self._holes + [-8]) // 8 * 8 + 8)) - 1
        for hole in range(len(self._holes)):
            if _sim.sensors >> hole & 1:
                bits &= ~(1 << self._holes[hole])
        if not self._latch:
            bits = -(bits & 1)  # every bit is the first one
        high = 0
        at = 0
        for d in range(len(self._counts)):
            if self._chain[d]:
                high |= (bits & ((1 << self._counts[d]) - 1)) << at
            at += self._counts[d]
        return (high if self._vwp else ~high) & self._all


class KeyMatrix(Scanner):
    """Keys at the crossings of row and column pins. The simulated board has no key matrix: its
    pins are claimed, and no key is ever pressed."""

    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        Scanner.__init__(self, list(row_pins) + list(column_pins), len(row_pins) * len(column_pins),
                          interval, max_events, debounce_threshold)
