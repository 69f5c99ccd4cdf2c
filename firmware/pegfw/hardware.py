"""The one seam to the hardware: the only firmware module that imports CircuitPython's hardware
modules (board, digitalio, keypad, microcontroller, neopixel_write, neopixel, pwmio, supervisor,
usb_cdc; boot.py imports usb_cdc alone). Everything else gets plain objects built here from
settings.toml (pegfw.devices.Devices). Needed at start-up only: code.py drops it from the heap
once the game runs."""

import os

import board
import digitalio
import keypad
import microcontroller
import neopixel_write
import supervisor
import usb_cdc

from pegfw.lights import Limiter, budget_before_settings

try:
    from watchdog import WatchDogMode

    RESET_MODE = WatchDogMode.RESET
except ImportError:  # a port without the watchdog module
    RESET_MODE = None  # type: ignore[assignment]

WATCHDOG_S = 4  # RP2040 allows up to ~8.3 s; the loop feeds it every pass
SCAN_S = 0.02   # keypad scan interval: 20 ms
# Scans a button change must hold. The hint button (hardware/bom.csv: Omron B3F-4055) bounces 5 ms
# at most (Omron B3F data sheet, ratings: bounce time 5 ms max.); scans are 20 ms apart, so a bounce
# can meet one scan at most, which only delays the edge by a scan. Two scans (a reading held
# 20 ms, four times the bounce) leave a margin for a worn contact: the release reaches the
# firmware 20-40 ms after the button comes up (three scans took 40-60 ms).
BUTTON_DEBOUNCE = 2
# where start-up errors blink when PEGBOARD_PIXEL_PIN is missing or wrong: the documented pixel pin
# of the default board (hardware/boards/pico-gpio.toml), then the board's own status pixel
DEFAULT_PIXEL_PIN = "GP16"
ERROR_PIXELS = 15
# every pixel while starting: dim violet, whatever the brightness; 51 mA for 15 pixels, 96 mA for 28
# by the firmware's estimate (pegfw.lights.estimate_ma), and like every frame the firmware sends
# it passes the current limiter (early_limiter): under a budget below that it is dimmer still
FIRST_LIGHT = 0x0C0818
PIEZO_HZ = 4000  # the piezo's starting frequency: its resonance (hardware/README.md, Sound)


def _lookup(name):
    # a str only: a bare number where a pin name belongs must not reach getattr (a TypeError there
    # would stop the first light before any blink code could show)
    return getattr(board, name, None) if name and isinstance(name, str) else None


def typed_getenv(getenv, get_setting):
    # A getenv(key) that reads settings.toml the same on every supported CircuitPython version
    # (docs/architecture.md, "Reading settings.toml", has the rule and its sources): None for an
    # absent key, a str for a "quoted string", an int for a bare integer as int(text, 0) reads it,
    # ValueError for any other value. Up to 10.1 that is os.getenv itself (adafruit/circuitpython
    # 9.1.0-10.1.4, shared-module/os/getenv.c: a bare value goes through mp_parse_num_integer(text,
    # base 0), as int(text, 0) does, py/objint.c). From 10.2.0 os.getenv returns every value as a str
    # (the default for a broken one: 10.2.0-10.2.1, shared-module/os/__init__.c), so
    # supervisor.get_setting (10.2.0 on, supervisor/shared/settings.c) tells a quoted string (a str)
    # from the rest (an int, a bool, from 10.3.0-alpha.2 a float, or ValueError), and the rest's bare
    # text goes through int(text, 0).
    if get_setting is None:
        return getenv

    def read(key):
        try:
            v = get_setting(key)
        except ValueError:  # found, but neither a string, an integer nor true/false
            v = False
        if v is None or isinstance(v, str):
            return v
        text = getenv(key)  # the bare text; None for a broken value (os.getenv's default)
        if text is None:
            raise ValueError("%s: not a quoted string or an integer" % key)
        return int(text, 0)

    return read


# every setting is read through this (config.load, the early pixels)
setting = typed_getenv(os.getenv, getattr(supervisor, "get_setting", None))


def settings():
    """The validated Config: every setting well-formed and every pin one this board has, none
    used twice (compared as pins, not names). Raises config.ConfigError."""
    # imported here, not at the top: once started, the settings code can leave the heap
    from pegfw.config import check_pins, load

    cfg = load(setting)
    check_pins(cfg, _lookup)
    return cfg


def build(cfg, early=None):
    """The hardware objects for the loop, from the validated settings. `early`: the pixels of
    early_pixels(), released here. Start-up only: the Devices it returns need nothing from this
    module afterwards."""
    from pegfw.devices import Devices

    try:
        supervisor.runtime.autoreload = False  # a host writing CIRCUITPY must not restart a game
    except AttributeError:
        pass
    pressed = not cfg.active_low
    if cfg.sensors == "gpio":
        sensors = keypad.Keys([_lookup(p) for p in cfg.sensor_pins], value_when_pressed=pressed,
                              pull=True, interval=SCAN_S, max_events=64)  # type: keypad.Keys | keypad.ShiftRegisterKeys
    else:
        # key 0 is the first bit shifted out: input H of the chip wired to the data pin
        # (hardware/README.md wires hole 1 there)
        sensors = keypad.ShiftRegisterKeys(clock=_lookup(cfg.sr_clock), data=_lookup(cfg.sr_data),
                                           latch=_lookup(cfg.sr_latch), key_count=cfg.holes,
                                           value_when_pressed=pressed, interval=SCAN_S, max_events=64)
    button = keypad.Keys((_lookup(cfg.button_pin),), value_when_pressed=False, pull=True, interval=SCAN_S,
                         max_events=16, debounce_threshold=BUTTON_DEBOUNCE)
    # brightness stays 1.0 here: the firmware scales colours itself so the current limiter sees
    # exactly the bytes that go out
    import neopixel  # compiled only now: the first light did not wait for it (and if lib/ lacks it,
    # the early pixels are still there to blink the code)

    if early is not None:
        early.deinit()  # frees the pin for the configured pixels (which keep its light until drawn)
    pixels = neopixel.NeoPixel(_lookup(cfg.pixel_pin), cfg.holes, brightness=1.0, auto_write=False,
                               pixel_order=cfg.pixel_order)
    serial = usb_cdc.data
    if serial is not None:
        serial.timeout = 0
        serial.write_timeout = 0
    piezo = None
    if cfg.piezo_pin:  # silent until a tune plays (pegfw.sound); the frequency changes per note
        import pwmio  # only with the part: a board without it never needs the module

        piezo = pwmio.PWMOut(_lookup(cfg.piezo_pin), duty_cycle=0, frequency=PIEZO_HZ, variable_frequency=True)
    # armed last: every device above is built before its 4 s start
    watchdog = microcontroller.watchdog
    if RESET_MODE is not None and watchdog is not None:
        watchdog.timeout = WATCHDOG_S
        watchdog.mode = RESET_MODE
    devices = Devices(sensors, button, pixels, serial, microcontroller.nvm, watchdog, keypad.Event(),
                      supervisor.ticks_ms, microcontroller.reset)
    devices.piezo = piezo
    devices.console = usb_cdc.console  # the loop prints only when that cannot block (Devices.console_idle)
    scan_ms = int(SCAN_S * 1000)
    devices.debounce_ms = ((BUTTON_DEBOUNCE - 1) * scan_ms, BUTTON_DEBOUNCE * scan_ms)
    return devices


def _setting(key):
    try:
        return setting(key)
    except ValueError:  # malformed: treated as absent here (config reports it)
        return None


class RawPixels:
    """Pixels written with the built-in neopixel_write, before the neopixel library is compiled:
    the first light and blink codes. Colours are 0xRRGGBB; `order` is the bytes' order."""

    def __init__(self, pin, n, order):
        self.n = n
        self.order = order
        self.pin = pin
        self.io = None  # type: digitalio.DigitalInOut | None
        self._claim()
        self.buf = bytearray(n * len(order))

    def _claim(self):
        io = self.io = digitalio.DigitalInOut(self.pin)
        io.direction = digitalio.Direction.OUTPUT
        return io

    def __len__(self):
        return self.n

    def __setitem__(self, i, color):
        at = i * len(self.order)
        for c in self.order:
            self.buf[at] = color >> 16 & 255 if c == "R" else color >> 8 & 255 if c == "G" else \
                color & 255 if c == "B" else 0
            at += 1

    def show(self):
        io = self.io
        if io is None:
            # released for the configured pixels, which then failed to start: the blink code needs
            # the pin back (neopixel_write refuses a deinitialised DigitalInOut)
            io = self._claim()
        neopixel_write.neopixel_write(io, self.buf)

    def deinit(self):
        if self.io is not None:
            self.io.deinit()
            self.io = None


def early_pixels():
    """Pixels for the first light and blink codes before the settings are validated: the
    configured pin if this board has it, else the default pixel pin, else the board's own status
    pixel (a Feather's NEOPIXEL). None if there is none of them or it will not start."""
    try:
        rows = int(_setting("PEGBOARD_ROWS") or 5)
    except ValueError:
        rows = 5
    n = rows * (rows + 1) // 2 if 4 <= rows <= 8 else ERROR_PIXELS
    pin = _lookup(_setting("PEGBOARD_PIXEL_PIN"))
    if pin is None:
        pin = _lookup(DEFAULT_PIXEL_PIN)
    if pin is None:
        pin, n = _lookup("NEOPIXEL"), 1
    if pin is None:
        return None
    order = _setting("PEGBOARD_PIXEL_ORDER")
    if not isinstance(order, str) or not 3 <= len(order) <= 4 or order.strip("RGBW"):
        order = "GRB"
    try:
        return RawPixels(pin, n, order)
    except Exception:  # the pin in use, ...: the console will say what is wrong
        return None


def early_limiter():
    """The current limiter of the frames shown before the settings are validated, or instead of
    the game: the first light and the blink codes. Its budget is PEGBOARD_CURRENT_MA read by the
    rule of pegfw.lights.budget_before_settings (the game's own budget whenever the setting is
    valid); no brightness: a blink code is as bright as that budget allows."""
    try:
        value = setting("PEGBOARD_CURRENT_MA")
    except Exception:  # malformed (ValueError), or unreadable: the lowest budget
        value = ""
    return Limiter(budget_before_settings(value))


def first_light():
    """Light every pixel dim at once (the first thing code.py does, before the big modules are
    compiled) and return those pixels for start-up's blink codes, or None."""
    px = early_pixels()
    if px is not None:
        try:
            frame = early_limiter().limit([FIRST_LIGHT] * len(px))
            for i in range(len(px)):
                px[i] = frame[i]
            px.show()
        except Exception:  # lights are a courtesy here: start-up goes on without them
            pass
    return px


def ticks_ms():
    return supervisor.ticks_ms()
