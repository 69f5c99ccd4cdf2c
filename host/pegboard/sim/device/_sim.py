# The simulated chip's side of the link to the simulator process (runs under CPython and the
# MicroPython VM). Messages are JSON lines: parent -> child on stdin; child -> parent on stdout,
# each prefixed by "\x1e" so the firmware's own print() output (the console) stays separate.
import sys
import json
import binascii

try:
    import _vmhost  # the chip VM: CircuitPython has neither select nor os.read nor time.ticks_ms
except ImportError:
    _vmhost = None  # type: ignore[assignment]  # CPython or the MicroPython VM

if _vmhost is not None:
    _read_fd = _vmhost.read
    _ms = _vmhost.ticks_ms
else:
    import select
    import time
    _poll = select.poll()
    _poll.register(sys.stdin, select.POLLIN)
    try:
        import os
        _read_fd = os.read  # CPython: raw non-blocking reads of fd 0
    except AttributeError:
        _read_fd = None
    # MicroPython's ticks_ms, else CPython's clock in the same unit
    _ms = getattr(time, "ticks_ms", None) or (lambda: int(time.monotonic() * 1000))

import os  # noqa: E402  (os.getenv: the settings and the simulator's own values)

try:
    BUTTON_PIN = os.getenv("PEGBOARD_BUTTON_PIN")
except ValueError:  # malformed: the chip runtimes' os.getenv raises, as up to CircuitPython 10.1 (the firmware says so)
    BUTTON_PIN = None
sensors = 0        # bit i set: a peg in hole i+1 (the sensor pins read low then: level())
button = 0         # 1 = hint button pressed
rx = bytearray()   # bytes from the host, waiting in the data port
connected = True   # the USB cable is in (the simulator's "link")
dtr = True         # the host has the data port open (its DTR line): the simulator's "dtr"
link_hooks = []    # called with each "link" and "dtr" message (usb_cdc's FIFO)
tx_full = False
nvm = bytearray(b"\xff" * 4096)  # erased flash: the simulator sends what is written
pixels_sent = 0
_inbuf = b""
_heard_at = 0      # when the simulator last sent something (ticks_ms)
QUIET_MS = 50      # after this long without a message, an idle board waits for one (up to WAIT_MS)
WAIT_MS = 1
_after_boot = []
_pings = []


def hexs(data):
    return binascii.hexlify(data).decode()


def unhex(text):
    return binascii.unhexlify(text)


def now_ms():
    return _ms()


_detached = False  # no simulator process (the bench runs the fakes alone): nothing read, nothing sent


def detach():
    global _detached
    _detached = True


def send(obj):
    if _detached:
        return
    sys.stdout.write("\x1e" + json.dumps(obj) + "\n")
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


if _vmhost is not None:
    def _readable(wait_ms=0):
        return _vmhost.readable(0, wait_ms)
else:
    def _readable(wait_ms=0):
        return bool(_poll.poll(wait_ms))


def _lines():
    global _inbuf
    out = []
    if _detached:
        return out
    if _read_fd is not None:
        while _readable():
            chunk = _read_fd(0, 65536)
            if not chunk:
                sys.exit(0)  # the simulator went away
            _inbuf += chunk
    else:
        # MicroPython: the simulator made our stdin non-blocking, so read() returns what is there
        # (readline() would buffer ahead and leave lines behind poll()'s back)
        while _poll.poll(0):
            try:
                chunk = sys.stdin.buffer.read(1024)
            except OSError:
                break
            if chunk is None:
                break
            if not chunk:
                sys.exit(0)
            _inbuf += chunk
    while b"\n" in _inbuf:
        i = _inbuf.find(b"\n")
        out.append(_inbuf[:i])
        _inbuf = _inbuf[i + 1:]
    return out


started = False    # the simulator's start-up messages (nvm, link, pins: pins last) have arrived


def pump():
    """Apply what the simulator sent: sensor levels, button, host bytes, link state."""
    global _heard_at
    for line in _lines():
        _heard_at = _ms()
        handle(json.loads(line))
    _let_go()


def handle(msg):
    """Apply one message from the simulator."""
    global connected, dtr, tx_full
    t = msg["t"]
    if t == "pins":
        _pins(msg)
    elif t == "rx":
        rx.extend(unhex(msg["d"]))
    elif t == "link" or t == "dtr":
        if t == "dtr":  # the host opened (True) or closed (False) the data port: its DTR line
            dtr = msg["v"]
        else:
            # the cable: pulled, the RX FIFO keeps its bytes (the firmware may still read them);
            # put back, the host's bus reset empties the CDC's FIFOs and the host opens the port
            # again (TinyUSB src/class/cdc/cdc_device.c: cdcd_reset, cdcd_open)
            connected = msg["up"]
            if connected:
                rx[:] = b""
                dtr = True
        for fn in link_hooks:
            fn(msg)
    elif t == "txfull":
        tx_full = msg["v"]
    elif t == "nvm":
        data = unhex(msg["d"])
        nvm[0:len(data)] = data
    elif t == "ping":
        _pings.append(msg["n"])
    elif t == "hang":
        while True:  # a stuck firmware: only the watchdog gets us out
            pass


def after_boot(fn):
    """Run `fn` once boot.py has run: what boot.py sets (usb_cdc.enable) takes effect then, as on
    the chip."""
    _after_boot.append(fn)


def boot_done():
    for fn in _after_boot:
        fn()


def idle(scanned_at):
    """Called by the keypad fake when its queue is empty: answers pending pings so the control
    port's wait_idle knows every sensor change so far has been consumed."""
    if _pings:
        n = _pings.pop(0)
        send({"t": "pong", "n": n, "at": scanned_at})
    elif (_ms() - _heard_at) & 0x3FFFFFFF > QUIET_MS:
        # Nothing from the simulator for a while: wait for its next message (at most WAIT_MS)
        # instead of spinning. The chip's loop never sleeps, but a PC running several simulated
        # boards would give each a whole core for nothing. The firmware sees only a slower idle
        # pass (its timing is by the clock, and chip time counts CPU time, not this wait).
        _readable(WAIT_MS)


# wait(ms): up to `ms` for the simulator's next message (a blocking read or write of the data port
# waiting for the host, as CircuitPython's runs background tasks meanwhile)
wait = _readable


_after_code = []


def after_code(fn):
    """Run `fn(exception)` when code.py ends: with None when it returned, else what ended it."""
    _after_code.append(fn)


def code_done(exception):
    for fn in _after_code:
        fn(exception)


# -- the chip's clock ----------------------------------------------------------------------------
# supervisor.ticks_ms wraps at 2**29 and is 0x1fff0000 at boot (shared-bindings/supervisor/__init__.c)
MASK = (1 << 29) - 1
_clock = [None, 0]  # [now_ms() when last read, ms since boot]


def clock_ms():
    """Milliseconds since the chip started, never wrapping: the one time line of supervisor.ticks_ms,
    keypad's scans and the sensor changes. Read through now_ms() (the bench puts its own clock there)."""
    t = now_ms()
    if _clock[0] is not None:
        _clock[1] += (t - _clock[0]) & MASK
    _clock[0] = t
    return _clock[1]


def ticks_of(ms):
    """supervisor.ticks_ms at `ms` since boot."""
    return (0x1FFF0000 + ms) & MASK


# -- the sensors and the pins --------------------------------------------------------------------
pins_version = 0  # counts the changes of `sensors` and `button`
scanners = []     # each keypad scanner's catch-up: its scans up to a time (clock_ms)
_changed_at = 0   # when they last changed
_release_due = None  # a press held for a set time ("hold"): when the button goes up (clock_ms)
_let_go_early = False  # that press ended here before the simulator said so


def _pins(msg):
    """New sensor and button levels. The simulator says when they changed ("at", on its clock,
    which is now_ms()'s: the PC's CLOCK_MONOTONIC in ms; a minute off or more, the clocks disagree
    and it counts as now). First every keypad scanner catches up on the scans it made before then,
    with the old levels: the chip scans in the background while the firmware is busy, so a long
    pass misses no change (nor any chatter)."""
    global started, _release_due, _let_go_early
    when = clock_ms()
    age = (now_ms() - msg.get("at", now_ms())) & MASK
    if age < 60000:
        when -= age
    _let_go()
    down = msg["b"]
    if "hold" in msg or not down:
        _let_go_early = False  # a new press, or the simulator's own word that the button is up
        _release_due = None
    elif _let_go_early:
        down = 0  # a peg moved before the simulator's late word of a held press's end: it is over
    _levels(when, msg["s"], down)
    if "hold" in msg:  # a press of a set length: up after it on this clock, however late its word comes
        _release_due = max(when, _changed_at) + msg["hold"]
    started = True


def _levels(when, new_sensors, new_button):
    """The levels from `when` (clock_ms) on, the scanners caught up with the old ones first."""
    global sensors, button, pins_version, _changed_at
    when = max(when, _changed_at)
    for catch_up in scanners:
        catch_up(when - 1)
    sensors = new_sensors
    button = new_button
    _changed_at = when
    pins_version += 1


def _let_go():
    """A held press ends at its time."""
    global _release_due, _let_go_early
    if _release_due is not None and clock_ms() >= _release_due:
        due, _release_due = _release_due, None
        _let_go_early = True
        _levels(due, sensors, 0)


_wiring = None


def source_of(pin):
    """What the simulated board wires to `pin`, from the settings it plays (the board files,
    hardware/README.md): ("hole", i) the sensor of hole i+1, ("button", 0) the hint button, or
    None (nothing: the pin floats)."""
    global _wiring
    if _wiring is None:
        import board
        _wiring = [(getattr(board, BUTTON_PIN or "", None), ("button", 0))]
        try:
            names = os.getenv("PEGBOARD_SENSOR_PINS") if os.getenv("PEGBOARD_SENSORS") in (None, "gpio") else ""
        except ValueError:
            names = ""
        for i, name in enumerate(names.split(",") if isinstance(names, str) else ()):
            _wiring.append((getattr(board, name.strip(), None), ("hole", i)))
    for p, src in _wiring:
        if p is pin:
            return src
    return None


def level(src, pull):
    """The level (True: high) a digital input reads, driven by `src` (source_of) with its internal
    pull ("up", "down" or None). The sensors are DRV5032FA hall switches, push-pull, their output low
    with a magnet near (hardware/README.md, "Choosing the sensor"): low with a peg, else high,
    whatever the pull. The button ties its pin to GND while pressed; released, as any pin with
    nothing on it, the pin floats and only a pull sets its level. ASSUMED: a floating pin without a
    pull reads low (on the chip it reads at random)."""
    if src and src[0] == "hole":
        return not sensors >> src[1] & 1
    return pull == "up" and not (src and button & 1)


_claimed = []


def claim(pins):
    """Take pins as DigitalInOuts (or a keypad scanner) do: TypeError for anything but a board pin,
    ValueError "GP0 in use" for one taken and not released (validate_obj_is_free_pin and
    assert_pin_free, shared-bindings/microcontroller/Pin.c); all or none."""
    import board
    for pin in pins:
        if not isinstance(pin, board.Pin):
            raise TypeError("pin must be of type Pin, not %s" % type(pin).__name__)
        if pin in _claimed:
            raise ValueError("%s in use" % pin.name)
    _claimed.extend(pins)


def release(pin):
    if pin in _claimed:
        _claimed.remove(pin)


# shared-bindings/util.c, raise_deinited_error: what every deinitialised object raises
DEINITIALIZED = "Object has been deinitialized and can no longer be used. Create a new object."
_version = []


def cp_version():
    """(major, minor, patch) of the CircuitPython the simulated board runs: PEGBOARD_SIM_CP_VERSION
    ("9.2.1"; a pre-release counts as its release), else the newest. The fakes follow it where
    CircuitPython's behaviour changed between 9.1 and 10.x."""
    if not _version:
        try:
            text = (os.getenv("PEGBOARD_SIM_CP_VERSION") or "").strip('"')
            _version.append(tuple(int(x) for x in text.split("-")[0].split(".")))
        except (TypeError, ValueError):
            _version.append((10, 99, 99))  # none given: the newest (any 10.x is alike to the fakes)
    return _version[0]
