# Fake `watchdog` module: the modes. The timer itself is microcontroller.watchdog. As the real
# enum (shared-bindings/watchdog/WatchDogMode.c, py/enum.c), the modes are instances of
# WatchDogMode, printed "watchdog.WatchDogMode.RESET"; the timer refuses anything else.


class WatchDogMode:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "watchdog.WatchDogMode." + self._name


WatchDogMode.RAISE = WatchDogMode("RAISE")  # type: ignore[attr-defined]
WatchDogMode.RESET = WatchDogMode("RESET")  # type: ignore[attr-defined]


class WatchDogTimeout(Exception):
    pass
