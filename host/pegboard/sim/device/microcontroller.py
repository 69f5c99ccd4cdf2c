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
    def __len__(self):
        return len(_sim.nvm)

    def __getitem__(self, i):
        return _sim.nvm[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            start = i.start or 0
            data = bytes(value)
            if start < 0 or start + len(data) > len(_sim.nvm) or (i.stop is not None and i.stop - start != len(data)):
                raise ValueError("nvm slice assignment must keep the size")
            _flash_time(start, data)
            _sim.nvm[start:start + len(data)] = data
            # to the simulator in pieces: on the chip this is C, so one 4 KB write must not cost
            # the simulated heap a 16 KB message
            for at in range(0, len(data), 256):
                _sim.send({"t": "nvmw", "o": start + at, "d": _sim.hexs(data[at:at + 256])})
        else:
            _flash_time(i, bytes([value]))
            _sim.nvm[i] = value
            _sim.send({"t": "nvmw", "o": i, "d": _sim.hexs(bytes([value]))})


def _flash_time(start, data):
    """Charge a write's flash time to the pass that makes it (chip time only)."""
    if not _FACTOR or not data:
        return
    if _sim.nvm[start:start + len(data)] == b"\xff" * len(data):
        watchdog.flash_us += ((start + len(data) - 1) // _PAGE - start // _PAGE + 1) * _PAGE_US
    else:
        watchdog.flash_us += _ERASE_US + (len(_sim.nvm) // _PAGE) * _PAGE_US


class _WatchDog:
    def __init__(self):
        self._timeout = None
        self._mode = None
        self._fed = 0
        self._cpu_at = 0
        self._longest_us = 0
        self.flash_us = 0  # flash writes in this pass (_flash_time)

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, v):
        self._timeout = v
        self._report()

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, v):
        self._mode = v
        self._report()

    def _report(self):
        if self._mode is not None and self._timeout:
            _sim.send({"t": "wd", "timeout_ms": int(self._timeout * 1000), "mode": str(self._mode)})
            if _FACTOR:
                self._cpu_at = _cpu_us()
                if _emulated_watchdog is not None:
                    _emulated_watchdog(int(self._timeout * 1000))

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
        if self._mode is not None and self._timeout and chip_us > self._timeout * 1000000:
            _sim.send({"t": "wd_expired", "chip_ms": chip_us // 1000})
            while True:  # the chip would be resetting now: wait for the simulator to do it
                _sim.pump()

    def feed(self):
        if _FACTOR:
            if _emulated_feed is not None:
                _emulated_feed()
            self._chip_time()
        # tell the simulator at most every 100 ms: enough to prove the loop is alive
        now = _sim.now_ms()
        if now - self._fed >= 100:
            self._fed = now
            _sim.send({"t": "feed"})

    def deinit(self):
        self._mode = None
        if _FACTOR and _emulated_watchdog is not None:
            _emulated_watchdog(0)
        _sim.send({"t": "wd", "timeout_ms": 0, "mode": None})


class _Cpu:
    frequency = 125000000
    temperature = 27
    uid = b"SIMULATED"


class Pin:
    pass


nvm = _Nvm()
watchdog = _WatchDog()
cpu = _Cpu()


def reset():
    _sim.send({"t": "reset", "why": "microcontroller.reset"})
    while True:
        _sim.pump()


def on_next_reset(mode):
    pass
