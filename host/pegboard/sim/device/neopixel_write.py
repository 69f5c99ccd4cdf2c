# Fake `neopixel_write`: the one call the real neopixel library makes to send its bytes. The
# simulator decodes them (per the pixel order) and estimates the current. As strict as the real
# one (shared-bindings/neopixel_write/__init__.c): a digitalio.DigitalInOut only, and not a
# deinitialised one (check_for_deinit: ValueError, shared-bindings/util.c).
import _sim
import digitalio


def neopixel_write(digitalinout, buf):
    if not isinstance(digitalinout, digitalio.DigitalInOut):
        raise TypeError("digitalinout must be of type DigitalInOut, not %s" % type(digitalinout).__name__)
    if not digitalinout._live:
        raise ValueError(_sim.DEINITIALIZED)
    if isinstance(buf, int):  # (bytes(n) would make n zeros)
        raise TypeError("object with buffer protocol required")
    data = bytes(buf)  # any object with the buffer protocol, as mp_get_buffer_raise
    _sim.pixels_sent += 1
    _sim.send({"t": "px", "pin": digitalinout._pin.name, "d": _sim.hexs(data)})
