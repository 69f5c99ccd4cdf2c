# Fake `board`: the pin objects of the board the simulator plays (PEGBOARD_SIM_BOARD: a
# Raspberry Pi Pico by default). Unknown names raise AttributeError like the real module; names
# of one GPIO share one object (board.D13 is board.LED), like the real module.
import os

from pinnames import BOARDS


class Pin:
    def __init__(self, gpio, name):
        self.gpio = gpio
        self.name = name  # the first name the board lists for it

    def __repr__(self):
        return "board." + self.name


board_id = os.getenv("PEGBOARD_SIM_BOARD") or "raspberry_pi_pico"
_pins = {}
for _n, _g in BOARDS.get(board_id, BOARDS["raspberry_pi_pico"]).items():
    if _g not in _pins:
        _pins[_g] = Pin(_g, _n)
    globals()[_n] = _pins[_g]
# the tables of every board, and these names, are not the real module's: off the simulated heap
del BOARDS, _pins, _n, _g
__import__("sys").modules.pop("pinnames", None)
