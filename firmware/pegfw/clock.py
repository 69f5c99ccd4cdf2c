"""Millisecond ticks as CircuitPython's supervisor.ticks_ms() gives them: they wrap at 2**29 (the
first wrap ~65 s after power-on, on purpose), so always compare through ticks_diff."""

TICKS_PERIOD = 1 << 29
_HALF = TICKS_PERIOD // 2
_MASK = TICKS_PERIOD - 1


def ticks_diff(a, b):
    """Signed a - b in ms, correct across the wrap (for spans under ~3 days)."""
    return ((a - b + _HALF) & _MASK) - _HALF
