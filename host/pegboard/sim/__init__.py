"""The simulated device: the unchanged firmware on the PC, fake hardware only at the lowest layer
(pins, keypad, neopixel_write, usb_cdc, microcontroller, supervisor, watchdog), reachable over
pseudo-terminals exactly like the real board's USB serial port."""

from pegboard.sim.errors import SimError
from pegboard.sim.simulator import Simulator

__all__ = ["Simulator", "SimError"]
