# Fake `supervisor`: ticks that wrap at 2**29 and start ~65 s before the wrap, as the chip's do.
import _sim

_sim.clock_ms()  # the chip starts now (the clock the fakes share: _sim.clock_ms)


def ticks_ms():
    return _sim.ticks_of(_sim.clock_ms())


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


# supervisor.get_setting, which CircuitPython added in 10.2.0 (shared-bindings/supervisor/__init__.c):
# on the chip runtimes, modelled in C (pegboard/sim/chipvm/modport.c) and offered only when the
# version the simulator models (PEGBOARD_SIM_CP_VERSION) has it. CPython and MicroPython's VM have
# none: their os.getenv is the PC's, every value a str (docs/simulator.md, "CircuitPython versions").
try:
    import _vmhost

    if _vmhost.circuitpython() >= (10, 2, 0):
        get_setting = _vmhost.get_setting
except ImportError:
    pass
