# Fake `board`: the pin objects of the board the simulator plays (PEGBOARD_SIM_BOARD: a
# Raspberry Pi Pico by default). Unknown names raise AttributeError like the real module.
import os

from pinnames import BOARDS


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


board_id = os.getenv("PEGBOARD_SIM_BOARD") or "raspberry_pi_pico"
for _n in BOARDS.get(board_id, BOARDS["raspberry_pi_pico"]):
    globals()[_n] = Pin(_n)
