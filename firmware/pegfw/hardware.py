"""The one seam to the hardware: the only module that imports CircuitPython's hardware modules.
Everything else gets plain objects built here from settings.toml."""

import os

import board
import keypad
import microcontroller
import neopixel
import supervisor
import usb_cdc

try:
    from watchdog import WatchDogMode

    RESET_MODE = WatchDogMode.RESET
except ImportError:  # a port without the watchdog module
    RESET_MODE = None  # type: ignore[assignment]

WATCHDOG_S = 4  # RP2040 allows up to ~8.3 s; the loop feeds it every pass


def boot():
    """Called from boot.py, before USB starts: the data port for the protocol, the console for
    the REPL, and a recognisable USB name."""
    usb_cdc.enable(console=True, data=True)
    try:
        supervisor.set_usb_identification(manufacturer="pegboard", product="pegboard lit board")
    except (AttributeError, RuntimeError):
        pass


def _pin(name):
    try:
        return getattr(board, name)
    except AttributeError:
        from pegfw.config import BLINK_PIN, ConfigError

        raise ConfigError(BLINK_PIN, "settings.toml: this board has no pin %s" % name)


def settings():
    # imported here, not at the top: once started, the settings code can leave the heap
    from pegfw.config import load

    return load(os.getenv)


class Hardware:
    def __init__(self, cfg):
        self.ticks_ms = supervisor.ticks_ms
        try:
            supervisor.runtime.autoreload = False  # a host writing CIRCUITPY must not restart a game
        except AttributeError:
            pass
        pressed = not cfg.active_low
        self.sensors = None  # type: keypad.Keys | keypad.ShiftRegisterKeys | None
        if cfg.sensors == "gpio":
            self.sensors = keypad.Keys([_pin(p) for p in cfg.sensor_pins], value_when_pressed=pressed,
                                       pull=True, interval=0.02, max_events=64)
        else:
            self.sensors = keypad.ShiftRegisterKeys(clock=_pin(cfg.sr_clock), data=_pin(cfg.sr_data),
                                                    latch=_pin(cfg.sr_latch), key_count=cfg.holes,
                                                    value_when_pressed=pressed, interval=0.02, max_events=64)
        self.button = keypad.Keys((_pin(cfg.button_pin),), value_when_pressed=False, pull=True,
                                  interval=0.02, max_events=16)
        # brightness stays 1.0 here: the firmware scales colours itself so the current limiter
        # sees exactly the bytes that go out
        self.pixels = neopixel.NeoPixel(_pin(cfg.pixel_pin), cfg.holes, brightness=1.0, auto_write=False,
                                        pixel_order=cfg.pixel_order)
        self.serial = usb_cdc.data
        if self.serial is not None:
            self.serial.timeout = 0
            self.serial.write_timeout = 0
        self.nvm = microcontroller.nvm
        self.event = keypad.Event()
        self.watchdog = microcontroller.watchdog
        if RESET_MODE is not None and self.watchdog is not None:
            self.watchdog.timeout = WATCHDOG_S
            self.watchdog.mode = RESET_MODE

    def show(self, frame):
        px = self.pixels
        for i in range(len(frame)):
            px[i] = frame[i]
        px.show()

    def feed(self):
        if self.watchdog is not None:
            self.watchdog.feed()

    def reset(self):
        microcontroller.reset()


def error_pixels():
    """Best-effort pixels for a blink code when the settings are wrong: the configured pin if it
    exists, 15 pixels; None if even that fails."""
    try:
        pin = getattr(board, os.getenv("PEGBOARD_PIXEL_PIN") or "")
        return neopixel.NeoPixel(pin, 15, brightness=1.0, auto_write=False)
    except Exception:
        return None


def ticks_ms():
    return supervisor.ticks_ms()


def implementation():
    import sys

    return sys.implementation.name
