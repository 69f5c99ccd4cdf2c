"""The one seam to the hardware: the only module that imports CircuitPython's hardware modules.
Everything else gets plain objects built here from settings.toml (pegfw.devices.Devices). Needed
at start-up only: code.py drops it from the heap once the game runs."""

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


def build(cfg):
    """The hardware objects for the loop, from the validated settings. Start-up only: the
    Devices it returns need nothing from this module afterwards."""
    from pegfw.devices import Devices

    try:
        supervisor.runtime.autoreload = False  # a host writing CIRCUITPY must not restart a game
    except AttributeError:
        pass
    pressed = not cfg.active_low
    if cfg.sensors == "gpio":
        sensors = keypad.Keys([_pin(p) for p in cfg.sensor_pins], value_when_pressed=pressed,
                              pull=True, interval=0.02, max_events=64)  # type: keypad.Keys | keypad.ShiftRegisterKeys
    else:
        sensors = keypad.ShiftRegisterKeys(clock=_pin(cfg.sr_clock), data=_pin(cfg.sr_data),
                                           latch=_pin(cfg.sr_latch), key_count=cfg.holes,
                                           value_when_pressed=pressed, interval=0.02, max_events=64)
    button = keypad.Keys((_pin(cfg.button_pin),), value_when_pressed=False, pull=True, interval=0.02,
                         max_events=16)
    # brightness stays 1.0 here: the firmware scales colours itself so the current limiter sees
    # exactly the bytes that go out
    pixels = neopixel.NeoPixel(_pin(cfg.pixel_pin), cfg.holes, brightness=1.0, auto_write=False,
                               pixel_order=cfg.pixel_order)
    serial = usb_cdc.data
    if serial is not None:
        serial.timeout = 0
        serial.write_timeout = 0
    watchdog = microcontroller.watchdog
    if RESET_MODE is not None and watchdog is not None:
        watchdog.timeout = WATCHDOG_S
        watchdog.mode = RESET_MODE
    return Devices(sensors, button, pixels, serial, microcontroller.nvm, watchdog, keypad.Event(),
                   supervisor.ticks_ms)


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

