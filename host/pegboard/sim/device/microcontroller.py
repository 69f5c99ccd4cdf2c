# Fake `microcontroller`: nvm that the simulator keeps across power cycles, a watchdog whose
# timer runs in the simulator (so a hung firmware really gets reset), and reset().
import _sim


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
            _sim.nvm[start:start + len(data)] = data
            _sim.send({"t": "nvmw", "o": start, "d": _sim.hexs(data)})
        else:
            _sim.nvm[i] = value
            _sim.send({"t": "nvmw", "o": i, "d": _sim.hexs(bytes([value]))})


class _WatchDog:
    def __init__(self):
        self._timeout = None
        self._mode = None
        self._fed = 0

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

    def feed(self):
        # tell the simulator at most every 100 ms: enough to prove the loop is alive
        now = _sim.now_ms()
        if now - self._fed >= 100:
            self._fed = now
            _sim.send({"t": "feed"})

    def deinit(self):
        self._mode = None
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
