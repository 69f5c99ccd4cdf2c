"""code.py's entry: build the hardware from settings.toml and run the App; a bad setting gives a
console message and a blink code instead of a crash loop."""

from pegfw import VERSION, shows


def main():
    """code.py's entry: build the hardware from settings.toml and run; a bad setting gives a
    console message and a blink code instead of a crash loop."""
    from pegfw import config, hardware
    from pegfw.app import App

    try:
        cfg = hardware.settings()
        hw = hardware.Hardware(cfg)
    except config.ConfigError as e:
        print("pegboard: " + e.message)
        _blink_forever(hardware, e.code, None)
        return
    try:
        app = App(hw, cfg)
    except ValueError as e:  # a damaged hint table file
        print("pegboard: " + str(e))
        _blink_forever(hardware, config.BLINK_TABLE, hw)
        return
    except Exception as e:
        print("pegboard: cannot start:", repr(e))
        _blink_forever(hardware, config.BLINK_CRASH, hw)
        return
    table = "loaded" if app.table else "absent"
    print("pegboard %s ready: %d holes, hint table %s" % (VERSION, app.board.holes, table))
    del config
    forget_config()
    app.run()


def forget_config():
    """Drop the settings parser once the board has started: its code is a few KB of heap the
    game can use. (The Config object itself stays: it is a handful of values.)"""
    import gc
    import sys

    import pegfw

    sys.modules.pop("pegfw.config", None)
    if "config" in dir(pegfw):
        del pegfw.config
    gc.collect()


def _blink_forever(hardware, code, hw):
    # the watchdog, if armed, stays fed: a blink code is an answer, not a crash loop
    px = hw.pixels if hw is not None else hardware.error_pixels()
    start = hardware.ticks_ms()
    show = shows.ErrorBlink(15, code, start)
    last = None
    while True:
        frame = show.frame(hardware.ticks_ms(), None)
        if px is not None and frame != last:
            for i in range(len(frame)):
                px[i] = frame[i]
            px.show()
            last = frame
        if hw is not None:
            hw.feed()
