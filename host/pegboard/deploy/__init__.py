"""Putting the firmware on a CIRCUITPY drive: the copy, mpy-cross, settings merge, supported versions."""
