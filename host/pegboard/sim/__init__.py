"""The simulated device: the unchanged firmware on the PC, fake hardware only at the lowest layer
(pins, keypad, neopixel_write, pwmio, usb_cdc, microcontroller, supervisor, watchdog), reachable over
pseudo-terminals exactly like the real board's USB serial port. `pegboard.sim.simulator.Simulator`
is the board; `pegboard.sim.errors.SimError` what it raises.

This package's face imports nothing: importing one of its parts (`pegboard.sim.chipvm`, which
thumbvm uses) runs this file first, and a face that loaded the simulator would load those runtimes
in turn (an import circle through the package)."""
