# Fake `neopixel_write`: the one call the real neopixel library makes to send its bytes. The
# simulator decodes them (per the pixel order) and estimates the current.
import _sim


def neopixel_write(pin, buf):
    _sim.pixels_sent += 1
    name = getattr(getattr(pin, "pin", pin), "name", "?")  # a DigitalInOut or a bare pin
    _sim.send({"t": "px", "pin": name, "d": _sim.hexs(bytes(buf))})
