# Fake `digitalio`: enough for the Adafruit neopixel library (a data pin set to output).


class Direction:
    INPUT = 0
    OUTPUT = 1


class Pull:
    UP = 1
    DOWN = 2


_claimed = []  # pins in use, as CircuitPython keeps them: a second claim raises


class DigitalInOut:
    def __init__(self, pin):
        for p in _claimed:
            if p is pin:
                raise ValueError("%r in use" % (pin,))
        _claimed.append(pin)
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = False
        self.pull = None

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        for i in range(len(_claimed)):
            if _claimed[i] is self.pin:
                _claimed.pop(i)
                break
