# Fake `digitalio`, as strict as CircuitPython's where the firmware and the neopixel library go
# (shared-bindings/digitalio/DigitalInOut.c): a pin is claimed until deinit() (another DigitalInOut
# or keypad scanner on it raises "GP16 in use"), every use after deinit() raises, a value is not
# set on an input nor a pull read on an output. An input reads the simulated board's wiring
# (_sim.level). (No drive_mode: the fake has open-drain nowhere to go.)
import _sim


class _Enum:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return self._name


class Direction:
    INPUT = _Enum("digitalio.Direction.INPUT")
    OUTPUT = _Enum("digitalio.Direction.OUTPUT")


class Pull:
    UP = _Enum("digitalio.Pull.UP")
    DOWN = _Enum("digitalio.Pull.DOWN")


class DriveMode:
    PUSH_PULL = _Enum("digitalio.DriveMode.PUSH_PULL")
    OPEN_DRAIN = _Enum("digitalio.DriveMode.OPEN_DRAIN")


class DigitalInOut:
    def __init__(self, pin):
        _sim.claim((pin,))
        self._pin = pin
        self._live = True
        self._out = False  # common_hal_digitalio_digitalinout_construct: an input, no pull
        self._value = False
        self._pull = None

    def _check(self, output=None):
        """Refuse a deinitialised object, and (output given) one in the other direction."""
        if not self._live:
            raise ValueError(_sim.DEINITIALIZED)
        if output is not None and self._out != output:
            raise AttributeError("Cannot set value when direction is input." if output else
                                 "Pull not used when direction is output.")

    def deinit(self):
        if self._live:
            self._live = False
            _sim.release(self._pin)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        self._out = True
        self._value = bool(value)

    def switch_to_input(self, pull=None):
        self._check()
        if pull not in (None, Pull.UP, Pull.DOWN):
            raise TypeError("pull must be of type Pull or None, not %s" % type(pull).__name__)
        self._out = False
        self._pull = pull

    @property
    def direction(self):
        self._check()
        return Direction.OUTPUT if self._out else Direction.INPUT

    @direction.setter
    def direction(self, value):
        if value is Direction.OUTPUT:
            self.switch_to_output()
        elif value is Direction.INPUT:
            self.switch_to_input()
        else:
            raise ValueError("Invalid direction")

    @property
    def value(self):
        self._check()
        if self._out:
            return self._value
        _sim.pump()
        return _sim.level(_sim.source_of(self._pin), "up" if self._pull is Pull.UP else None)

    @value.setter
    def value(self, v):
        self._check(True)
        self._value = bool(v)

    @property
    def pull(self):
        self._check(False)
        return self._pull

    @pull.setter
    def pull(self, pull):
        self._check(False)
        self.switch_to_input(pull)
