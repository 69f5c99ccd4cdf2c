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

BUTTON_PIN = os.getenv("PEGBOARD_BUTTON_PIN")
sensors = 0        # bit i set = sensor i "pressed" (a peg in hole i+1) as the pins read it
button = 0         # 1 = hint button pressed
rx = bytearray()   # bytes from the host, waiting in the data port
connected = True
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
    global sensors, button, connected, tx_full, started, _heard_at
    for line in _lines():
        _heard_at = _ms()
        msg = json.loads(line)
        t = msg["t"]
        if t == "pins":
            sensors = msg["s"]
            button = msg["b"]
            started = True
        elif t == "rx":
            rx.extend(unhex(msg["d"]))
        elif t == "link":
            connected = msg["up"]
            if not connected:
                rx[:] = b""
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
