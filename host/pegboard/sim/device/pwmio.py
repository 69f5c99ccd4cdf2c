# Fake `pwmio`: PWMOut as strict as CircuitPython's where the firmware goes
# (shared-bindings/pwmio/PWMOut.c; ports/raspberrypi/common-hal/pwmio/PWMOut.c): the pin is
# claimed until deinit(), every use after deinit() raises, duty_cycle must be 0..65535
# (ValueError), the frequency is writable only with variable_frequency=True (AttributeError
# "Invalid variable_frequency"), and 0 or above half the 125 MHz clock is an invalid frequency.
# Each change is sent to the simulator with the chip's time, so it records every tone as played:
# frequency, duty and how long it lasted (pegboard.sim.piezo).
import _sim

CLOCK_HZ = 125000000


def _invalid_frequency():
    return ValueError("Invalid frequency")


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        if not 0 < frequency <= CLOCK_HZ // 2:
            raise _invalid_frequency()
        if not 0 <= duty_cycle <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        _sim.claim((pin,))
        self._pin = pin
        self._live = True
        self._variable = bool(variable_frequency)
        self._frequency = int(frequency)
        self._duty = int(duty_cycle)
        self._send()

    def _check(self):
        if not self._live:
            raise ValueError(_sim.DEINITIALIZED)

    def _send(self):
        _sim.send({"t": "pwm", "pin": self._pin.name, "f": self._frequency, "d": self._duty, "ms": _sim.now_ms()})

    @property
    def duty_cycle(self):
        self._check()
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        self._check()
        value = int(value)
        if not 0 <= value <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = value
        self._send()

    @property
    def frequency(self):
        self._check()
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        self._check()
        if not self._variable:
            raise AttributeError("Invalid variable_frequency")
        value = int(value)
        if value == 0 or value > CLOCK_HZ // 2:
            raise _invalid_frequency()
        self._frequency = value
        self._send()

    def deinit(self):
        if self._live:
            self._live = False
            self._duty = 0
            self._send()
            _sim.release(self._pin)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
