"""Each role's pattern in time (PEGBOARD_ROLES = "motion"): the board's lights, the TUI and the
page tell the roles apart by how they change, not by hue alone. A pattern is 16 steps of
2**shift ms; a step's level is in eighths of the role's full brightness (8: as the colour is;
never above it, so a pattern never raises a frame's current). Steps are powers of two long so
that the chip's tick counter, which wraps at 2**29, never breaks a pattern's rhythm. Every role
that can be lit at once has a pattern of its own (tests/test_senses.py tells them apart by
brightness alone); pegs and empty holes stay steady."""

STEPS = 16
FULL = 8

# role (the views' names: pegboard.tui.roles) -> (shift, 16 levels)
PATTERNS = {
    "from": (7, b"\x02\x03\x04\x05\x06\x07\x08\x08\x08\x08\x07\x06\x05\x04\x03\x02"),  # pulses slowly (2 s)
    "over": (7, b"\x08\x08\x01\x01\x08\x08\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"),  # blinks twice, rests
    "to": (7, b"\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x01\x01"),    # steady, one short break
    "landing": (8, b"\x04\x04\x05\x06\x07\x08\x08\x08\x08\x08\x07\x06\x05\x04\x04\x04"),  # breathes (4 s, shallow)
    "pull": (7, b"\x08\x08\x08\x08\x01\x01\x01\x01\x08\x08\x08\x08\x01\x01\x01\x01"),  # blinks evenly (1 s)
    "illegal": (6, b"\x08\x01\x08\x01\x08\x01\x08\x01\x08\x01\x08\x01\x08\x01\x08\x01"),  # flickers fast (8 Hz)
}


def level(role, ticks):
    """The role's level (0..FULL) at `ticks` ms (FULL for a steady role)."""
    p = PATTERNS.get(role)
    if p is None:
        return FULL
    return p[1][(ticks >> p[0]) & (STEPS - 1)]
