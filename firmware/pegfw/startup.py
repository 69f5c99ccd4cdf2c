"""code.py's start-up: the hardware from settings.toml and the App, or a console message and a
blink code for a bad setting. Dropped from the heap once the game runs."""

import gc

from pegfw import VERSION, colors
from pegfw.ondemand import unload
from pegfw.clock import ticks_diff

TABLE_PATH = "/pegcore/t5_hints.bin"
# what pegfw.app imports, leaves first
APP_MODULES = ("pegcore.rules", "pegcore.geometry", "pegcore.advisor", "pegfw.colors", "pegfw.clock",
               "pegfw.ondemand", "pegfw.shows", "pegfw.lights", "pegfw.protocol", "pegfw.store",
               "pegfw.tracker", "pegfw.commands", "pegfw.dispatch", "pegfw.show_runner", "pegfw.game_events",
               "pegfw.app")


def load_table(rows, path=TABLE_PATH):
    """The hint table of a 15-hole board (None for other boards, or without the file). Read before
    the App's code is compiled: its arrays want up to 2.6 KB in one piece, which a heap chopped up
    by compiling the rest of the firmware may no longer have. Raises ValueError for a damaged file."""
    if rows != 5:
        return None
    import gc

    from pegcore import hintfile
    from pegcore.geometry import Board

    gc.collect()  # sweep the settings' and devices' import-time garbage first
    board = Board(rows)
    t = None
    for p in (path, path.lstrip("/")):  # the chip's root, or the current folder (simulator, tests)
        t = t or hintfile.load(board, p)
    del hintfile
    unload("pegcore.hintfile")  # reading the file is done: keep only the table
    return t


def start(early=None):
    """Build the hardware from settings.toml and the App; on a bad setting, print every problem
    and blink the first one's code forever (a blink code is an answer, not a crash loop) on
    `early`, the pixels hardware.first_light() lit (there even when the settings name none)."""
    from pegfw import config, hardware

    # a local: after an import that ran out of memory, MicroPython's core may look globals up in
    # the failed module's namespace, and the board must still blink its code
    blink = _blink_forever
    try:
        cfg = hardware.settings()
        hw = hardware.build(cfg, early)
    except config.ConfigError as e:
        for line in e.lines:
            print("pegboard: " + line)
        blink(hardware, e.code, None, early)
    except Exception as e:  # the settings passed, yet a device would not start (a pin in use, ...)
        print("pegboard: cannot start the hardware:", repr(e))
        blink(hardware, config.BLINK_CRASH, None, early)
    del early
    try:
        table = load_table(cfg.rows)
    except ValueError as e:  # a damaged hint table file
        print("pegboard: " + str(e))
        blink(hardware, config.BLINK_TABLE, hw)
    except Exception as e:  # no heap for it, a read error, ...
        print("pegboard: cannot load the hint table:", repr(e))
        blink(hardware, config.BLINK_CRASH, hw)
    try:
        # compiled one module at a time with the watchdog fed in between: importing pegfw.app
        # alone would compile them all in one go, longer than the watchdog waits on a chip
        for name in APP_MODULES:
            gc.collect()  # what the last compile left goes first: the next one finds its heap in one piece
            __import__(name)
            hw.feed()
        from pegfw.app import App

        app = App(hw, cfg, table)
    except Exception as e:
        print("pegboard: cannot start:", repr(e))
        blink(hardware, config.BLINK_CRASH, hw)
    table = "loaded" if app.table else "absent"
    print("pegboard %s ready: %d holes, hint table %s" % (VERSION, app.board.holes, table))
    del config, hardware
    unload("pegfw.config")  # the settings are read and the devices built: that code's heap goes
    unload("pegfw.hardware")  # to the game
    return app


def _show(px, frame):
    if px is None or frame is None:
        return
    try:
        for i in range(len(frame)):
            px[i] = frame[i]
        px.show()
    except Exception:  # lights are a courtesy here: start-up goes on without them
        pass


class ErrorBlink:
    """A blink code for start-up errors: `code` red blinks on every pixel, a pause, repeat (full
    red here: _blink_forever sends each frame through the current limiter)."""

    def __init__(self, n, code, start):
        self.n, self.code, self.start = n, code, start

    def frame(self, now, base):
        period = 400 * self.code + 1600
        t = ticks_diff(now, self.start) % period
        on = t < 400 * self.code and (t // 200) % 2 == 0
        return [colors.ERROR if on else colors.OFF] * self.n


def _blink_forever(hardware, code, hw, early=None):
    # every frame through the current limiter, as the game's are (PEGBOARD_CURRENT_MA: the game's
    # budget when the setting is valid, hardware.early_limiter); the watchdog, if armed, stays fed
    px = hw.pixels if hw is not None else early
    limiter = hardware.early_limiter()
    begun = hardware.ticks_ms()
    show = ErrorBlink(len(px) if px is not None else 1, code, begun)
    last = None
    while True:
        frame = show.frame(hardware.ticks_ms(), None)
        if frame != last:
            _show(px, limiter.limit(frame))
            last = frame
        if hw is not None:
            hw.feed()
