# Fake `watchdog` module: the modes. The timer itself lives in microcontroller.watchdog.


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass
