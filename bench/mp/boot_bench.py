# Runs in the MicroPython VM: the firmware's start-up as the chip runs it (code.py from a deployed
# drive folder, the simulator's hardware fakes below it) up to the moment the game is ready.
# argv: FAKES_DIR DRIVE_DIR LIB_DIR. Prints "first_light_us N" and "ready_us N" from the first line
# of code.py; the fakes and adafruit_pixelbuf (C modules on the chip) are imported before the clock
# starts.
import sys
import time

fakes, drive, lib = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path[:0] = [fakes, drive, drive + "/lib", lib]
import os  # noqa: E402

os.chdir(drive)
import _sim  # noqa: E402

for _m in ("adafruit_pixelbuf", "board", "digitalio", "keypad", "microcontroller", "neopixel_write", "supervisor",
           "usb_cdc"):
    __import__(_m)
_sim.boot_done()  # boot.py has run: the data port is what it enabled
first = [0]


def _send(obj):  # the pixel bytes' first appearance is the first light; nothing goes out
    if obj.get("t") == "px" and not first[0]:
        first[0] = time.ticks_us()


_sim.send = _send
with open("code.py") as f:
    src = f.read()
body = src.replace("\napp.run()", "\n")
if body == src:
    raise SystemExit("code.py has no app.run() line to stop before")
g = {"__name__": "__main__"}
t0 = time.ticks_us()
exec(compile(body, "code.py", "exec"), g)
t1 = time.ticks_us()
if "app" not in g:
    raise SystemExit("code.py did not build the app")
print("first_light_us", time.ticks_diff(first[0], t0) if first[0] else -1)
print("ready_us", time.ticks_diff(t1, t0))
