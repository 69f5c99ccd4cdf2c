"""Plain stand-ins for the objects pegfw.hardware.build hands to the App: deterministic,
no processes, driven tick by tick by the test. The bench drives the App through them too, in the
MicroPython VMs (bench/mp/firmware_bench.py), so this file is written for CPython, MicroPython and
the chip VM alike (no __future__, pathlib or typing at run time)."""

import sys

FIRMWARE = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/../firmware"
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)  # last: firmware/code.py must not shadow the stdlib's code

from pegfw import config  # noqa: E402


class Event:
    def __init__(self) -> None:
        self.key_number = 0
        self.pressed = False
        self.released = True
        self.timestamp = 0


class Queue:
    def __init__(self, limit: int = 64) -> None:
        self.items: list[tuple[int, bool]] = []
        self.overflowed = False
        self.limit = limit

    def put(self, key: int, pressed: bool, timestamp: int = 0) -> None:
        if len(self.items) >= self.limit:
            self.overflowed = True
        else:
            self.items.append((key, pressed, timestamp))

    def get_into(self, ev: Event) -> bool:
        if not self.items:
            return False
        ev.key_number, ev.pressed, ev.timestamp = self.items.pop(0)
        ev.released = not ev.pressed
        return True

    def clear(self) -> None:
        self.items = []
        self.overflowed = False


class Keys:
    def __init__(self, n: int, limit: int = 64, clock=None) -> None:  # type: ignore[no-untyped-def]
        self.clock = clock  # the event timestamps' clock (keypad: supervisor.ticks_ms at the scan)
        self.n = n
        self.state = 0
        self.events = Queue(limit)
        self.key_count = n

    def set(self, mask: int) -> None:
        changed = mask ^ self.state
        for k in range(self.n):
            if changed >> k & 1:
                self.events.put(k, bool(mask >> k & 1), self.clock() if self.clock else 0)
        self.state = mask

    def reset(self) -> None:
        for k in range(self.n):
            if self.state >> k & 1:
                self.events.put(k, True)


class Serial:
    def __init__(self) -> None:
        self.rx = bytearray()
        self.tx = bytearray()
        self.connected = True
        self.room = 1 << 30  # bytes the host will take
        self.timeout = 0
        self.write_timeout = 0

    @property
    def in_waiting(self) -> int:
        return len(self.rx)

    def read(self, n: int) -> bytes:
        data = bytes(self.rx[:n])
        self.rx = self.rx[n:]  # (MicroPython's bytearray has no slice deletion)
        return data

    def write(self, data: bytes) -> int:
        n = min(len(data), self.room)
        self.room -= n
        self.tx += data[:n]
        return n

    def lines(self) -> list[bytes]:
        out = self.tx.split(b"\n")
        self.tx = bytearray(out[-1])
        return [bytes(x) for x in out[:-1]]


class PowerCut(Exception):
    """The power went off inside a flash operation (FlashNvm.cut_after)."""


class FlashNvm:
    """microcontroller.nvm on an RP2040 as CircuitPython writes it: an assignment over bytes that
    are all 0xFF only programs them; any other erases the 4 KB sector first, then programs all of
    it, in order. `cut_after = n` cuts the power after n more steps (an erase is one step, each
    byte programmed one): the sector is left as the flash would be, blank after an erase or with
    only the bytes programmed so far, and PowerCut is raised. A byte is taken to program whole or
    not at all (an assumption: a cut inside a byte's program could leave some of its bits)."""

    def __init__(self, size: int = 4096) -> None:
        self.data = bytearray(b"\xff" * size)
        self.erases = 0
        self.programs = 0
        self.cut_after: int | None = None
        self.cut_in_erase_write = False  # the last cut fell inside a write that erased the sector

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        return self.data[i]

    def _step(self) -> None:
        if self.cut_after is not None:
            if self.cut_after <= 0:
                self.cut_after = None
                raise PowerCut()
            self.cut_after -= 1

    def __setitem__(self, i, value) -> None:  # type: ignore[no-untyped-def]
        if isinstance(i, int):  # (MicroPython cannot make a slice object: the bounds, then)
            start, stop, value = i, i + 1, bytes([value])
        else:
            start, stop = i.start or 0, i.stop
        n = len(value)
        assert stop is None or stop - start == n, "nvm slice assignment must keep the size"
        # no copies here: the bench's heap figures count what its fakes allocate too
        erased = True
        for k in range(start, start + n):
            if self.data[k] != 0xFF:
                erased = False
                break
        if self.cut_after is None:  # no cut to come: the outcome at once (the bench times passes)
            if erased:
                self.programs += 1
            else:
                self.erases += 1
            self.data[start:start + n] = value
            return
        if erased:
            self.programs += 1
            at, image = start, bytes(value)
            self.cut_in_erase_write = False
        else:
            self.erases += 1
            image = bytearray(self.data)  # the sector as it will be: the C code's buffer
            image[start:start + n] = value
            at = 0
            self._step()  # a cut before the erase changes nothing
            self.cut_in_erase_write = True
            for k in range(len(self.data)):  # the erase
                self.data[k] = 0xFF
        for k in range(len(image)):  # the program, a byte at a time in address order
            self._step()
            self.data[at + k] = image[k]
        self.cut_in_erase_write = False


class HW:
    def __init__(self, settings: dict[str, object] | None = None, nvm: FlashNvm | bytearray | None = None) -> None:
        s = {"PEGBOARD_SENSOR_PINS": ",".join("GP%d" % i for i in range(15)), "PEGBOARD_PIXEL_PIN": "GP16",
             "PEGBOARD_BUTTON_PIN": "GP15"}
        s.update(settings or {})
        self.cfg = config.load(lambda k: s.get(k))
        self.now = (1 << 29) - 5000  # close to the ticks wrap, as the chip's clock may be
        self.sensors = Keys(self.cfg.holes)
        self.button = Keys(1, 16, self.ticks_ms)
        self.debounce_ms = (20, 40)  # as pegfw.hardware's keypad for the button
        self.serial = Serial()
        self.nvm = nvm if nvm is not None else FlashNvm()
        self.event = Event()
        self.frames: list[list[int]] = []  # 0xRRGGBB per pixel
        self.fed = 0
        self.resets = 0
        self.console_busy = False  # a host holds the REPL port open and does not read

    def console_idle(self) -> bool:
        return not self.console_busy

    def reset(self) -> None:  # microcontroller.reset: the test sees it was called
        self.resets += 1

    def ticks_ms(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now = (self.now + ms) & ((1 << 29) - 1)

    def show(self, frame: list[int]) -> None:
        self.frames.append(list(frame))

    def feed(self) -> None:
        self.fed += 1


def make_app(hw: "HW | None" = None):
    from pegfw.app import App
    from pegfw.startup import load_table

    hw = hw or HW()
    app = App(hw, hw.cfg, load_table(hw.cfg.rows, FIRMWARE + "/pegcore/t5_hints.bin"))
    return hw, app


def boot(nvm, pegs: int):
    """Power on a board whose NVM is `nvm` with `pegs` (a mask) on its sensors; the start-up read adopted."""
    hw = HW(nvm=nvm)
    hw.sensors.state = pegs
    hw, app = make_app(hw)
    run(app, hw, 200)
    return hw, app


def run(app, hw: HW, ms: int = 100, step: int = 5) -> None:
    for _ in range(max(1, ms // step)):
        hw.advance(step)
        app.step()
