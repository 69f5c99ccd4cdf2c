# Fake `microcontroller`: nvm that the simulator keeps across power cycles, a watchdog whose
# timer runs in the simulator (so a hung firmware really gets reset), and reset().
# Chip time (PEGBOARD_SIM_CHIP_FACTOR set, on the chip and thumb runtimes): the CPU time between
# two feeds, plus the flash time of its NVM writes, is what that loop pass would take on the chip.
# On thumb the CPU time is the emulated chip's (factor 1), and the emulator also keeps the
# watchdog itself, in emulated time (it fires mid-pass, as the RP2040's does); on chip it is the
# VM's CPU time times an assumed factor (firmware_child.CHIP_FACTOR), checked at each feed. A pass
# the real watchdog would not survive resets the board here too, and the longest pass is reported.
import os
import _sim
from watchdog import WatchDogMode

try:
    from array import array as _array
    _BUFFERS = (bytes, bytearray, memoryview, _array)
except ImportError:
    _BUFFERS = (bytes, bytearray, memoryview)  # type: ignore[assignment]

try:
    from _vmhost import cpu_us as _cpu_us
except ImportError:
    _cpu_us = None  # type: ignore[assignment]  # not the chip VM: no chip time
try:
    from _vmhost import watchdog as _emulated_watchdog, feed as _emulated_feed  # thumbvm
except ImportError:
    _emulated_watchdog = _emulated_feed = None  # type: ignore[assignment]

# the chip VM's getenv gives settings.toml's integer as an int, the others give text: int() takes both
_FACTOR = int(os.getenv("PEGBOARD_SIM_CHIP_FACTOR") or 0) if _cpu_us is not None else 0
_MASK = (1 << 29) - 1
# Flash time a write costs the chip, which runs no code meanwhile (interrupts off): the Winbond
# W25Q16JV data sheet's worst page program (tPP 3 ms) and 4 KB sector erase (tSE 400 ms). A write
# into erased bytes programs their pages; any other erases the sector and programs all 16 pages.
_PAGE_US, _ERASE_US, _PAGE = 3000, 400000, 256


class _Nvm:
    """microcontroller.nvm as strict as the real one (shared-bindings/nvm/ByteArray.c): an index
    takes an int 0..255; a slice (step 1) takes bytes, a bytearray, an array.array of bytes or a
    memoryview, of exactly its length, and nothing else; a slice reads as a bytearray; no
    deletion."""

    def __len__(self):
        return len(_sim.nvm)

    def _at(self, i):
        """The index (py/obj.c, mp_get_index) or the (start, stop) of a slice with step 1
        (py/sequence.c, mp_seq_get_fast_slice_indexes)."""
        n = len(_sim.nvm)
        if isinstance(i, slice):
            if i.step not in (None, 1):
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            ends = [0 if i.start is None else i.start, n if i.stop is None else i.stop]
            for k in (0, 1):
                ends[k] = min(n, max(0, ends[k] + n if ends[k] < 0 else ends[k]))
            return ends[0], max(ends)
        if not isinstance(i, int):
            raise TypeError("ByteArray indices must be integers, not %s" % type(i).__name__)
        if not -n <= i < n:
            raise IndexError("index out of range")
        return i % n

    def __getitem__(self, i):
        at = self._at(i)
        return _sim.nvm[at] if isinstance(at, int) else bytearray(_sim.nvm[at[0]:at[1]])

    def __setitem__(self, i, value):
        at = self._at(i)
        if not isinstance(at, int):
            start, stop = at
            if not isinstance(value, _BUFFERS):
                raise NotImplementedError("array/bytes required on right side")
            # bytes and bytearrays as they are: on the chip this is C, which copies nothing, so a
            # 4 KB write must not cost the simulated heap a 4 KB copy (start-up's compaction runs
            # with little to spare); an array or a view is copied to check its items' size
            data = value if isinstance(value, (bytes, bytearray)) else bytes(value)
            if len(data) != stop - start:
                raise ValueError("Slice and value different lengths.")
            if len(data) != len(value):  # an array (or a view of one) of wider items
                raise ValueError("Array values should be single bytes.")
            _flash_time(start, len(data))
            _sim.nvm[start:start + len(data)] = data
            # to the simulator in pieces, for the same reason: not a 16 KB message
            for off in range(0, len(data), _PAGE):
                _sim.send({"t": "nvmw", "o": start + off, "d": _sim.hexs(data[off:off + _PAGE])})
        else:
            i = at
            if not isinstance(value, int):
                raise TypeError("can't convert %s to int" % type(value).__name__)
            if not 0 <= value <= 255:
                raise ValueError("bytes must be 0-255")
            _flash_time(i, 1)
            _sim.nvm[i] = value
            _sim.send({"t": "nvmw", "o": i, "d": _sim.hexs(bytes([value]))})

    def __delitem__(self, i):
        raise TypeError("'ByteArray' object doesn't support item deletion")


_ERASED = b"\xff" * 64


def _erased(start, n):
    """Are the n bytes from `start` all erased (0xFF)? Read 64 at a time: no copy of the write's size."""
    for at in range(start, start + n, 64):
        k = min(64, start + n - at)
        if _sim.nvm[at:at + k] != _ERASED[:k]:
            return False
    return True


def _flash_time(start, n):
    """Charge a write of n bytes at `start` its flash time, to the pass that makes it (chip time only)."""
    if not _FACTOR or not n:
        return
    if _erased(start, n):
        watchdog.flash_us += ((start + n - 1) // _PAGE - start // _PAGE + 1) * _PAGE_US
    else:
        watchdog.flash_us += _ERASE_US + (len(_sim.nvm) // _PAGE) * _PAGE_US


# pico-sdk's watchdog_enable(ms) loads ms * 2000 (the RP2040 counts down twice a microsecond,
# erratum RP2040-E1) into a 24-bit counter, capped at 0xffffff: 8388 ms at most; 0 ms resets at once
# (src/rp2_common/hardware_watchdog/watchdog.c, _watchdog_enable)
_LONGEST_MS = 0xFFFFFF // 2000


class _WatchDog:
    """microcontroller.watchdog on an RP2040 (shared-bindings/watchdog/WatchDogTimer.c and
    ports/raspberrypi/common-hal/watchdog/WatchDogTimer.c): timeout 0.0 and mode None at start;
    a timeout under 0 or over 8 s (its whole seconds: 8.9 passes and acts as 8.388) is refused with
    ValueError; mode RAISE is NotImplementedError on this port; feed() does nothing while the mode
    is None. The timer runs in the simulator ("wd", "feed" messages)."""

    def __init__(self):
        self._timeout = 0.0
        self._mode = None
        self._ms = 0  # the armed timeout, as the chip counts it
        self._fed = 0
        self._cpu_at = 0
        self._longest_us = 0
        self.flash_us = 0  # flash writes in this pass (_flash_time)

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, v):
        t = float(v)
        if int(t) < 0:  # mp_arg_validate_int_min(timeout, 0): the float truncated to an int
            raise ValueError("timeout must be >= 0")
        if int(t) > 8:  # the port's mp_arg_validate_int_max(new_timeout, 8)
            raise ValueError("timeout must be <= 8")
        self._timeout = t
        if self._mode is not None:
            self._arm()  # watchdog_enable again: the new timeout, counting from now

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, v):
        if v is not None and not isinstance(v, WatchDogMode):
            raise TypeError("mode must be of type WatchDogMode, not %s" % type(v).__name__)
        if v is self._mode:
            return  # (common_hal_watchdog_set_mode: no change, not even a feed)
        if v is None:
            self._disarm()
        elif v is WatchDogMode.RAISE:  # type: ignore[attr-defined]
            raise NotImplementedError()
        else:
            self._mode = v
            self._arm()

    def _arm(self):
        self._ms = min(int(self._timeout * 1000), _LONGEST_MS) or 1  # 0 ms: it triggers at once
        _sim.send({"t": "wd", "timeout_ms": self._ms, "mode": "RESET"})
        if _FACTOR:
            self._cpu_at = _cpu_us()
            if _emulated_watchdog is not None:
                _emulated_watchdog(self._ms)

    def _disarm(self):
        if self._mode is None:
            return
        self._mode = None
        if _FACTOR and _emulated_watchdog is not None:
            _emulated_watchdog(0)
        _sim.send({"t": "wd", "timeout_ms": 0, "mode": None})

    def _chip_time(self):
        now = _cpu_us()
        chip_us = ((now - self._cpu_at) & _MASK) * _FACTOR + self.flash_us
        self._cpu_at = now
        if self.flash_us:
            _sim.send({"t": "flash", "chip_ms": self.flash_us // 1000})
            self.flash_us = 0
        if chip_us > self._longest_us:
            self._longest_us = chip_us
            _sim.send({"t": "pass", "chip_ms": chip_us // 1000})
        if self._mode is not None and chip_us > self._ms * 1000:
            _sim.send({"t": "wd_expired", "chip_ms": chip_us // 1000})
            while True:  # the chip would be resetting now: wait for the simulator to do it
                _sim.pump()

    def feed(self):
        if _FACTOR:
            if _emulated_feed is not None and self._mode is not None:
                _emulated_feed()
            self._chip_time()
        if self._mode is None:
            return
        # tell the simulator at most every 100 ms: enough to prove the loop is alive
        now = _sim.now_ms()
        if now - self._fed >= 100:
            self._fed = now
            _sim.send({"t": "feed"})


class _WatchDog9(_WatchDog):
    """Before 10.0.0 the timer also had deinit() (adafruit/circuitpython 9b3731c, "Remove
    watchdog.deinit() for 10.0.0")."""

    def deinit(self):
        self._disarm()


def _code_ended(exception):
    """When code.py ends, CircuitPython turns the watchdog off unless it is in mode RESET and an
    exception (other than ctrl-C's or a reload's) ended code.py: then it stays armed, and the
    board resets once it expires (shared-module/watchdog/__init__.c, watchdog_reset)."""
    if exception is None or isinstance(exception, KeyboardInterrupt):
        _timer._disarm()


_sim.after_code(_code_ended)


class _Cpu:
    frequency = 125000000
    temperature = 27
    uid = b"SIMULATED"


class Pin:
    pass


nvm = _Nvm()
watchdog = _timer = _WatchDog() if _sim.cp_version() >= (10, 0, 0) else _WatchDog9()
cpu = _Cpu()


def reset():
    _sim.send({"t": "reset", "why": "microcontroller.reset"})
    while True:
        _sim.pump()


def on_next_reset(mode):
    pass
