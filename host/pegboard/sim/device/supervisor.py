# Fake `supervisor`: ticks that wrap at 2**29 and start ~65 s before the wrap, as the chip's do.
import _sim

_PERIOD = 1 << 29
_START = _PERIOD - 65536
_t0 = _sim.now_ms()


def ticks_ms():
    return (_START + _sim.now_ms() - _t0) & (_PERIOD - 1)


class _Runtime:
    autoreload = True
    usb_connected = True

    @property
    def serial_connected(self):
        return _sim.connected


runtime = _Runtime()


def set_usb_identification(manufacturer=None, product=None, vid=None, pid=None):
    _sim.send({"t": "usbid", "manufacturer": manufacturer, "product": product})


def reload():
    _sim.send({"t": "reset", "why": "reload"})
