# Runs the firmware as the chip would: boot.py, then code.py, with the fakes first on sys.path.
# argv: FAKES_DIR FIRMWARE_DIR LIB_DIR. Settings come as environment variables (os.getenv).
# LIB_DIR stands for what CircuitPython has built in (adafruit_pixelbuf on RP2040) and for the
# neopixel library when the firmware folder has no lib/ of its own (the project's firmware/).
import sys

fakes, firmware, lib = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path[:0] = [fakes, firmware, firmware + "/lib", lib]
try:
    import os
    os.chdir(firmware)
except (AttributeError, OSError):
    pass

import _sim  # noqa: E402

# take the nvm contents and the initial pins before anything runs: the simulator writes them just
# after starting us, and a quick VM can be here first
while not _sim.started:
    _sim.pump()
_sim.send({"t": "up", "runtime": sys.implementation.name})
import usb_cdc  # noqa: E402, F401  (registers what boot.py enables, to take effect after it)


def _run(name):
    with open(name) as f:
        src = f.read()
    exec(compile(src, name, "exec"), {"__name__": "__main__"})


try:
    _run("boot.py")
except OSError:
    pass
_sim.boot_done()
try:
    _run("code.py")
except BaseException as e:  # what CircuitPython does after code.py (the watchdog) sees it too
    _sim.code_done(e)
    raise
_sim.code_done(None)
_sim.send({"t": "done"})
