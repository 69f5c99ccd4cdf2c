"""pegcore: rules, geometry and solver for triangle peg solitaire, shared by the chip and the host.

Runs unchanged under CircuitPython, MicroPython and CPython (no typing, dataclasses, floats).
"""

VERSION = "0.1.0"
