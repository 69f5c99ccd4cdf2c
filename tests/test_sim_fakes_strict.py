"""The simulator's device fakes (host/pegboard/sim/device) are as strict as CircuitPython's own
modules (issue realboard, items 4 and 5): keypad scans in the background on its own clock,
usb_cdc keeps TinyUSB's FIFO while nobody reads, the watchdog has the RP2040's limits, nvm and
neopixel_write refuse what the chip refuses. Each test loads the fakes into this process, as the
firmware's process has them, on a clock of the test's own: `Chip.tell` is a message from the
simulator, `Chip.sent` what the fakes sent it. (PEGBOARD_FAKES_UNDER_TEST points the tests at
another copy of the fakes: an older one, to see which of these tests it fails.)"""

import importlib
import json
import os
import sys
import time
from array import array
from pathlib import Path

import pytest
from support import until

from pegboard.sim.simulator import Simulator

ROOT = Path(__file__).resolve().parent.parent
DEVICE = Path(os.environ.get("PEGBOARD_FAKES_UNDER_TEST") or ROOT / "host" / "pegboard" / "sim" / "device")
FAKES = ("_sim", "pinnames", "board", "supervisor", "watchdog", "digitalio", "keypad", "_keypad_scan", "_keypad_more",
         "microcontroller", "neopixel_write", "usb_cdc")
SENSORS = ",".join("GP%d" % i for i in range(15))
DEINIT = "Object has been deinitialized and can no longer be used. Create a new object."
SCAN_MS = 20 * 1000 / 1024  # keypad scans every int(0.02 * 1024) ticks of 1/1024 s


class Chip:
    """The fakes in this process: messages from the simulator through a pipe (the fakes' stdin),
    what they send collected, and a clock that moves only by advance()."""

    def __init__(self, env):
        self.t = 5_000_000  # ms on the clock the fakes read (the PC's, in the simulator)
        self._r, self._w = os.pipe()
        self._stdin = sys.stdin
        sys.stdin = os.fdopen(self._r, "rb", buffering=0)  # what _sim polls
        self._saved = {n: sys.modules.pop(n) for n in FAKES if n in sys.modules}
        self._env = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        sys.path.insert(0, str(DEVICE))
        self.sim = importlib.import_module("_sim")
        self.sim.now_ms = lambda: self.t
        self.sim._read_fd = lambda fd, n: os.read(self._r, n)
        self.sent = []
        self.sim.send = self.sent.append

    def close(self):
        sys.path.remove(str(DEVICE))
        for n in FAKES:
            sys.modules.pop(n, None)
        sys.modules.update(self._saved)
        for k, v in self._env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        sys.stdin.close()
        sys.stdin = self._stdin
        os.close(self._w)

    def load(self, name):
        return importlib.import_module(name)

    def tell(self, **msg):
        os.write(self._w, (json.dumps(msg) + "\n").encode())

    def pins(self, holes=(), button=False, at=None):
        """The sensors (a peg in each of `holes`, 1-based) and the button, changed at `at` (the
        clock's ms; default now)."""
        mask = sum(1 << (h - 1) for h in holes)
        self.tell(t="pins", s=mask, b=int(button), at=self.t if at is None else at)

    def advance(self, ms):
        self.t += ms

    def sent_of(self, kind):
        return [m for m in self.sent if m["t"] == kind]


@pytest.fixture
def chip_env():
    return {"PEGBOARD_SENSOR_PINS": SENSORS, "PEGBOARD_SENSORS": "gpio", "PEGBOARD_BUTTON_PIN": "GP15",
            "PEGBOARD_SIM_BOARD": "raspberry_pi_pico", "PEGBOARD_SIM_CP_VERSION": "10.2.1"}


@pytest.fixture
def chip(chip_env):
    c = Chip(chip_env)
    try:
        c.pins()
        c.sim.pump()
        yield c
    finally:
        c.close()


def events(keys):
    """Every event the keys' queue holds now: (key, pressed, timestamp)."""
    kp = sys.modules["keypad"]
    ev = kp.Event()
    out = []
    while keys.events.get_into(ev):
        out.append((ev.key_number, ev.pressed, ev.timestamp))
    return out


def sensor_keys(chip, **kw):
    kp, board = chip.load("keypad"), chip.load("board")
    args = {"value_when_pressed": False, "pull": True, "interval": 0.02, "max_events": 64}
    args.update(kw)
    return kp.Keys([getattr(board, "GP%d" % i) for i in range(15)], **args)


# -- keypad ----------------------------------------------------------------------------------------

def test_keypad_scans_in_the_background_while_the_firmware_is_busy(chip):
    # a peg placed, lifted and placed again while the firmware does not look (a long pass): the
    # scanner ran on its own clock meanwhile, so each change is an event, stamped with its scan
    keys = sensor_keys(chip)
    t0 = chip.t
    chip.pins([3], at=t0 + 30)
    chip.pins([], at=t0 + 100)
    chip.pins([3], at=t0 + 170)
    chip.advance(400)  # the pass ends: the firmware looks now
    got = events(keys)
    assert [(k, p) for k, p, _ in got] == [(2, True), (2, False), (2, True)]
    # each at the first scan after its change (scans every 20/1024 s from the construction)
    start = chip.sim.clock_ms() - 400
    want = [int(n * SCAN_MS) for n in (2, 6, 9)]  # 39, 117, 175 ms after the construction
    assert [ts for _, _, ts in got] == [chip.sim.ticks_of(start + ms) for ms in want]


def test_keypad_chatter_that_a_scan_meets_is_an_event(chip):
    # a bouncy place: the level flips while the scans go on; every scan that sees a change reports
    # it (debounce_threshold 1), so a scan landing in the chatter gives a press and a release
    keys = sensor_keys(chip)
    t0 = chip.t
    chip.pins([5], at=t0 + 36)
    chip.pins([], at=t0 + 42)
    chip.pins([5], at=t0 + 60)
    chip.advance(100)
    assert [(k, p) for k, p, _ in events(keys)] == [(4, True), (4, False), (4, True)]


def test_keypad_queue_overflows_when_a_long_pass_leaves_more_changes_than_it_holds(chip):
    keys = sensor_keys(chip, max_events=2)
    t0 = chip.t
    for i, at in enumerate((30, 70, 110, 150)):
        chip.pins([1] if i % 2 == 0 else [], at=t0 + at)
    chip.advance(300)
    assert keys.events.overflowed
    assert [(k, p) for k, p, _ in events(keys)] == [(0, True), (0, False)]  # the rest were lost
    keys.events.clear()
    assert not keys.events.overflowed


def test_keypad_adopts_keys_held_at_construction_silently_and_reset_reports_them(chip):
    # shared-module/keypad/__init__.c: the counters start at 0, so the first scans adopt what they
    # read; reset() (9.2.1 on) sets them to -threshold, so a held key is reported pressed
    chip.pins([1, 3])
    chip.sim.pump()
    keys = sensor_keys(chip)
    chip.advance(100)
    assert events(keys) == []
    keys.reset()
    assert [(k, p) for k, p, _ in events(keys)] == [(0, True), (2, True)]


def test_keypad_reset_before_9_2_1_reports_the_free_keys_released(chip_env):
    # 9.1.x-9.2.0 set the counters to +threshold in reset(): held keys say nothing, every free key
    # is reported released (fixed in 9.2.1: adafruit/circuitpython c5a929e)
    chip_env["PEGBOARD_SIM_CP_VERSION"] = "9.1.0"
    c = Chip(chip_env)
    try:
        c.pins([1, 3])
        c.sim.pump()
        keys = sensor_keys(c)
        keys.reset()
        got = [(k, p) for k, p, _ in events(keys)]
        assert got == [(k, False) for k in range(15) if k not in (0, 2)]
    finally:
        c.close()


def test_keypad_debounce_threshold_counts_scans(chip):
    kp, board = chip.load("keypad"), chip.load("board")
    button = kp.Keys((board.GP15,), value_when_pressed=False, pull=True, interval=0.02, max_events=16,
                     debounce_threshold=2)
    chip.advance(100)  # settled: the counter at -2 (it starts at 0: a change in the first
    # interval would be reported after one scan)
    t0 = chip.t
    chip.pins(button=True, at=t0 + 1)
    chip.advance(30)  # one scan (at 117.2 ms) has seen it: not yet
    assert events(button) == []
    chip.advance(10)  # the second (136.7 ms)
    assert [(k, p) for k, p, _ in events(button)] == [(0, True)]


def test_a_press_held_for_a_set_time_ends_on_the_fakes_clock_though_its_release_comes_late(chip):
    # `press ms=10` on a busy PC: the simulator's release may come long after; the fakes let go
    # after 10 ms of their own clock, so no scan sees the short press past the debounce
    kp, board = chip.load("keypad"), chip.load("board")
    button = kp.Keys((board.GP15,), value_when_pressed=False, pull=True, interval=0.02, max_events=16,
                     debounce_threshold=3)
    chip.advance(100)
    t0 = chip.t
    chip.tell(t="pins", s=0, b=1, at=t0, hold=10)
    chip.advance(200)  # the firmware looks, the release not yet heard
    assert events(button) == []
    chip.pins([3], button=True, at=t0 + 150)  # a peg placed before that word: the button stays up
    chip.advance(100)
    assert events(button) == []
    chip.pins([3], button=False, at=t0 + 10)  # the release's word, late
    chip.advance(100)
    assert events(button) == []
    # held longer than the debounce: one press, then its release, with no word after the press
    t1 = chip.t
    chip.tell(t="pins", s=0, b=1, at=t1, hold=100)
    chip.advance(300)
    assert [(k, p) for k, p, _ in events(button)] == [(0, True), (0, False)]


def test_keypad_value_when_pressed_and_pull_act_on_the_pins_levels(chip):
    # the sensors drive their pins low with a peg (hardware/README.md): value_when_pressed=True
    # inverts every key, as on the chip
    chip.pins([1])
    chip.sim.pump()
    keys = sensor_keys(chip, value_when_pressed=True)
    keys.reset()
    assert sorted(k for k, p, _ in events(keys) if p) == list(range(1, 15))
    # the button (to GND) without a pull floats: the fake reads a floating pin low, so an
    # active-low button without pull=True looks held
    kp, board = chip.load("keypad"), chip.load("board")
    button = kp.Keys((board.GP15,), value_when_pressed=False, pull=False)
    button.reset()
    assert [(k, p) for k, p, _ in events(button)] == [(0, True)]


def test_keypad_claims_its_pins_until_deinit(chip):
    kp, board, dio = chip.load("keypad"), chip.load("board"), chip.load("digitalio")
    keys = sensor_keys(chip)
    with pytest.raises(ValueError, match="GP0 in use"):
        dio.DigitalInOut(board.GP0)
    with pytest.raises(ValueError, match="GP3 in use"):
        kp.Keys((board.GP3,), value_when_pressed=False)
    with pytest.raises(TypeError, match="duplicate"):
        kp.Keys((board.GP20, board.GP20), value_when_pressed=False)
    queue = keys.events
    keys.deinit()
    keys.deinit()  # a second deinit does nothing
    with pytest.raises(ValueError, match=DEINIT):
        _ = keys.events
    with pytest.raises(ValueError, match=DEINIT):
        keys.reset()
    assert queue.get() is None  # the queue itself stays usable
    dio.DigitalInOut(board.GP0).deinit()  # free again


def test_keypad_checks_its_arguments_and_events_are_read_only(chip):
    kp, board = chip.load("keypad"), chip.load("board")
    with pytest.raises(TypeError):
        kp.Keys((board.GP20,), True)  # value_when_pressed is keyword-only
    with pytest.raises(ValueError, match="debounce_threshold must be 1-127"):
        kp.Keys((board.GP20,), value_when_pressed=False, debounce_threshold=0)
    with pytest.raises(ValueError, match="max_events must be >= 1"):
        kp.Keys((board.GP20,), value_when_pressed=False, max_events=0)
    ev = kp.Event(3, False)
    with pytest.raises(AttributeError):
        ev.pressed = True
    keys = sensor_keys(chip)
    with pytest.raises(TypeError):
        keys.events.get_into(object())
    assert not hasattr(keys, "value_when_pressed")  # the real Keys has no such attribute


def test_keypad_len_counted_bytes_before_9_2_7(chip_env):
    for version, per_event in (("9.2.6", 6), ("9.2.7", 1)):
        chip_env["PEGBOARD_SIM_CP_VERSION"] = version
        c = Chip(chip_env)
        try:
            c.pins()
            c.sim.pump()
            keys = sensor_keys(c)
            c.pins([1, 2])
            c.advance(30)
            assert len(keys.events) == 2 * per_event and keys.events
        finally:
            c.close()


def test_keypad_shift_register_reads_the_chain_as_wired(chip_env):
    chip_env.update({"PEGBOARD_SENSORS": "shift", "PEGBOARD_SR_DATA": "GP3",
                     "PEGBOARD_SIM_SHIFT_WIRING": ",".join("%d%s" % (1 + h // 8, "HGFEDCBA"[h % 8]) for h in range(15))})
    c = Chip(chip_env)
    try:
        c.pins([2, 9])
        c.sim.pump()
        kp, board = c.load("keypad"), c.load("board")
        keys = kp.ShiftRegisterKeys(clock=board.GP2, data=board.GP3, latch=board.GP4, key_count=15,
                                    value_when_pressed=False)
        keys.reset()
        assert [(k, p) for k, p, _ in events(keys)] == [(1, True), (8, True)]
        with pytest.raises(ValueError, match="GP2 in use"):
            c.load("digitalio").DigitalInOut(board.GP2)
    finally:
        c.close()


# -- usb_cdc ---------------------------------------------------------------------------------------

@pytest.fixture
def port(chip):
    usb_cdc = chip.load("usb_cdc")
    usb_cdc.enable(console=True, data=True)
    chip.sim.boot_done()
    s = usb_cdc.data
    s.timeout = 0
    s.write_timeout = 0
    return s


def test_usb_cdc_read_of_nothing_is_empty_bytes(chip, port):
    assert port.read(16) == b""  # py/stream.c: a read that got nothing is b"", never None
    chip.tell(t="rx", d=b"ab\ncd".hex())
    assert port.readline() == b"ab\n" and port.readline() == b"cd" and port.readline() == b""


def test_usb_cdc_keeps_the_newest_bytes_while_the_port_is_closed(chip, port):
    # the host closes the port (DTR low): TinyUSB's FIFO is overwritable then, every write takes
    # all, and when the host opens the port again it reads the packet handed to the endpoint at
    # the first write (up to 64 bytes: that write's) and the newest 256 bytes: a stale tail,
    # starting mid-line
    chip.tell(t="dtr", v=False)
    lines = [b'{"event": "place", "hole": %2d}\n' % i for i in range(20)]
    for line in lines:
        assert port.write(line) == len(line)
    assert not port.connected
    assert chip.sent_of("tx") == []
    assert port.out_waiting == 256
    chip.tell(t="dtr", v=True)
    assert port.connected
    got = b"".join(bytes.fromhex(m["d"]) for m in chip.sent_of("tx"))
    everything = b"".join(lines)
    assert got == lines[0] + everything[-256:]
    assert not got[len(lines[0]):].startswith(b"{")  # the tail starts mid-line


def test_usb_cdc_with_the_cable_out_the_fifo_fills_and_the_bus_reset_empties_it(chip, port):
    chip.tell(t="link", up=False)
    assert port.write(b"x" * 200) == 200  # into the FIFO (DTR still high: not overwritable)
    assert port.write(b"y" * 200) == 56
    assert port.write(b"z") == 0
    assert port.out_waiting == 256
    chip.tell(t="link", up=True)  # plugged back: the host's bus reset empties the FIFO
    assert port.out_waiting == 0 and port.connected
    assert chip.sent_of("tx") == []


def test_usb_cdc_enable_is_keyword_only_and_only_for_boot_py(chip):
    usb_cdc = chip.load("usb_cdc")
    with pytest.raises(TypeError):
        usb_cdc.enable(True, True)
    usb_cdc.enable(console=True, data=True)
    chip.sim.boot_done()
    with pytest.raises(RuntimeError, match="Cannot change USB devices now"):
        usb_cdc.enable(console=True, data=False)


def test_usb_cdc_before_9_2_7_reads_nothing_while_the_port_is_closed(chip_env):
    for version, readable in (("9.2.6", False), ("9.2.7", True)):
        chip_env["PEGBOARD_SIM_CP_VERSION"] = version
        c = Chip(chip_env)
        try:
            usb_cdc = c.load("usb_cdc")
            usb_cdc.enable(console=True, data=True)
            c.sim.boot_done()
            s = usb_cdc.data
            s.timeout = 0
            c.tell(t="rx", d=b"hi".hex())
            c.tell(t="dtr", v=False)
            assert s.in_waiting == 2
            assert s.read(2) == (b"hi" if readable else b"")
        finally:
            c.close()


# -- watchdog --------------------------------------------------------------------------------------

def test_watchdog_has_the_rp2040s_limits(chip):
    mc, wd = chip.load("microcontroller"), chip.load("watchdog")
    w = mc.watchdog
    assert w.timeout == 0.0 and w.mode is None
    w.feed()  # before a mode: nothing (and no error)
    assert chip.sent_of("feed") == []
    with pytest.raises(ValueError, match="timeout must be <= 8"):
        w.timeout = 9
    with pytest.raises(ValueError, match="timeout must be >= 0"):
        w.timeout = -1
    w.timeout = 8.9  # its whole seconds are checked: 8 passes, and the chip counts 8.388 s at most
    with pytest.raises(NotImplementedError):
        w.mode = wd.WatchDogMode.RAISE
    with pytest.raises(TypeError):
        w.mode = "RESET"
    assert w.mode is None
    w.mode = wd.WatchDogMode.RESET
    assert chip.sent_of("wd")[-1] == {"t": "wd", "timeout_ms": 8388, "mode": "RESET"}
    w.feed()
    assert chip.sent_of("feed")
    assert not hasattr(w, "deinit")  # removed in 10.0.0


def test_watchdog_deinit_exists_before_10(chip_env):
    chip_env["PEGBOARD_SIM_CP_VERSION"] = "9.2.1"
    c = Chip(chip_env)
    try:
        mc, wd = c.load("microcontroller"), c.load("watchdog")
        mc.watchdog.timeout = 2
        mc.watchdog.mode = wd.WatchDogMode.RESET
        mc.watchdog.deinit()
        assert mc.watchdog.mode is None and c.sent_of("wd")[-1]["timeout_ms"] == 0
    finally:
        c.close()


def _armed_code(tmp_path, end):
    (tmp_path / "code.py").write_text(
        "import microcontroller\n"
        "from watchdog import WatchDogMode\n"
        "microcontroller.watchdog.timeout = 1\n"
        "microcontroller.watchdog.mode = WatchDogMode.RESET\n"
        "print('armed')\n" + end)
    return tmp_path


@pytest.mark.parametrize("end,resets", [("", False), ("raise RuntimeError('the firmware fell over')\n", True)])
def test_watchdog_stays_armed_after_code_py_ends_by_an_exception(tmp_path, end, resets):
    # shared-module/watchdog/__init__.c: code.py's end turns the watchdog off, unless an exception
    # ended it in mode RESET: then the board resets once the watchdog expires
    with Simulator(firmware=_armed_code(tmp_path, end)) as sim:
        until(lambda: any("firmware stopped" in line for line in sim.console), 5, "code.py to end")
        if resets:  # the reset comes once the watchdog expires: waited for, not slept on
            until(lambda: sim.watchdog_resets > 0, 30, "the watchdog's reset")
        else:  # turned off at code.py's end: no reset can come, and none came
            until(lambda: sim.watchdog.timeout_ms == 0, 30, "the watchdog turned off")
            assert sim.watchdog_resets == 0, list(sim.console)


# -- nvm -------------------------------------------------------------------------------------------

def test_nvm_takes_only_what_the_chips_bytearray_takes(chip):
    nvm = chip.load("microcontroller").nvm
    nvm[0:3] = b"abc"
    nvm[3:5] = bytearray(b"de")
    nvm[5:7] = memoryview(b"fg")
    nvm[7:9] = array("B", [1, 2])
    assert bytes(nvm[0:9]) == b"abcdefg\x01\x02" and isinstance(nvm[0:2], bytearray)
    with pytest.raises(NotImplementedError, match="array/bytes required on right side"):
        nvm[0:2] = [1, 2]
    with pytest.raises(NotImplementedError):
        nvm[0:2] = "ab"
    with pytest.raises(NotImplementedError):
        nvm[0:2] = 5
    with pytest.raises(ValueError, match="Slice and value different lengths."):
        nvm[0:3] = b"ab"
    with pytest.raises(ValueError, match="Array values should be single bytes."):
        nvm[0:4] = array("H", [1, 2])
    with pytest.raises(NotImplementedError, match="step=1"):
        nvm[0:4:2] = b"ab"
    nvm[-1] = 255
    assert nvm[len(nvm) - 1] == 255
    with pytest.raises(ValueError, match="bytes must be 0-255"):
        nvm[0] = 256
    with pytest.raises(TypeError):
        nvm[0] = "a"
    with pytest.raises(IndexError):
        nvm[len(nvm)] = 1
    with pytest.raises(TypeError):
        del nvm[0]
    assert bytes(nvm[0:2]) == b"ab"  # nothing refused was written


# -- neopixel_write and digitalio ------------------------------------------------------------------

def test_neopixel_write_refuses_a_deinitialised_pin(chip):
    npw, dio, board = chip.load("neopixel_write"), chip.load("digitalio"), chip.load("board")
    io = dio.DigitalInOut(board.GP16)
    io.direction = dio.Direction.OUTPUT
    npw.neopixel_write(io, bytearray(3))
    assert chip.sent_of("px")[-1]["pin"] == "GP16"
    io.deinit()
    with pytest.raises(ValueError, match=DEINIT):
        npw.neopixel_write(io, bytearray(3))
    with pytest.raises(TypeError):
        npw.neopixel_write(board.GP16, bytearray(3))  # a DigitalInOut, not a pin
    assert len(chip.sent_of("px")) == 1


def test_digitalinout_is_as_strict_as_the_chips(chip):
    dio, board = chip.load("digitalio"), chip.load("board")
    io = dio.DigitalInOut(board.GP16)
    with pytest.raises(ValueError, match="GP16 in use"):
        dio.DigitalInOut(board.GP16)
    with pytest.raises(AttributeError, match="Cannot set value when direction is input."):
        io.value = True
    io.switch_to_output(value=True)
    with pytest.raises(AttributeError, match="Pull not used when direction is output."):
        _ = io.pull
    io.deinit()
    with pytest.raises(ValueError, match=DEINIT):
        _ = io.value
    button = dio.DigitalInOut(board.GP15)
    button.switch_to_input(pull=dio.Pull.UP)
    assert button.value is True  # the released button: the pull-up
    chip.pins(button=True)
    assert button.value is False


# -- end to end ------------------------------------------------------------------------------------

def read_all(fd, seconds):
    got = bytearray()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            got += os.read(fd, 4096)
        except BlockingIOError:
            time.sleep(0.02)
    return got


def test_a_reply_the_host_left_unread_meets_it_when_it_reopens_the_port():
    # the host asks, then closes the port without reading the reply: the reply stays in the
    # board's FIFO (TinyUSB's, which the firmware cannot empty), and whoever opens the port next
    # reads its first packet and newest bytes first, before anything new
    with Simulator() as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        fd = os.open(sim.data_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        read_all(fd, 0.3)  # the events so far
        os.write(fd, b'{"id": 7, "cmd": "state"}\n')
        time.sleep(0.5)  # the board has answered; nobody reads it
        os.close(fd)
        sim.control("close_port")
        sim.control("lift", hole=4)  # an event while nobody listens: the firmware drops it
        sim.control("wait_idle")
        fd = os.open(sim.data_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            sim.control("open_port")
            got = read_all(fd, 0.5)
        finally:
            os.close(fd)
        # the reply (~1 KB) cut: its first 64 bytes and its last 256, one broken line
        assert got.startswith(b'{"id": 7') and got.endswith(b"}\n") and len(got) == 64 + 256, got
        with pytest.raises(ValueError):
            json.loads(got)


def test_a_board_on_the_oldest_supported_circuitpython_reads_the_pegs_held_at_start():
    # the firmware reads the pegs at start-up from keypad's reset(), which reports held keys from
    # 9.2.1 on (9.1.0-9.2.0 do not, so pegboard.deploy.circuitpython names 9.2.1 the oldest supported)
    from pegboard.deploy.circuitpython import OLDEST

    with Simulator(circuitpython=OLDEST) as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        sim.control("power_cycle")
        st = until(lambda: sim.control("sensors") and _state(sim), 10, "the board to answer")
        assert st["pegs"] == list(range(2, 16)), st


def test_circuitpython_before_9_2_1_is_not_simulated_as_supported():
    from pegboard.sim.errors import SimError

    with pytest.raises(SimError, match="9.2.1 to 10.2.1"):
        Simulator(circuitpython="9.2.0")


def _state(sim):
    from pegboard.link.client import BoardClient, BoardError

    try:
        sim.control("wait_idle")
        with BoardClient(sim.data_path) as b:
            return b.request("state", timeout=2)
    except (BoardError, OSError):
        return None
