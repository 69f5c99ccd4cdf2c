# Fake `board`: pin objects of a Raspberry Pi Pico plus an Adafruit Feather RP2040, selected by
# the simulator (PEGBOARD_SIM_BOARD). Unknown names raise AttributeError like the real module.
import os


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


_PICO = ["GP%d" % i for i in range(29)] + ["LED", "SMPS_MODE", "VBUS_SENSE", "VOLTAGE_MONITOR", "A0",
                                          "A1", "A2", "A3"]
_FEATHER = ["D%d" % i for i in (4, 5, 6, 9, 10, 11, 12, 13, 24, 25)] + ["A0", "A1", "A2", "A3", "SCK", "MOSI",
                                                                       "MISO", "TX", "RX", "SDA", "SCL",
                                                                       "NEOPIXEL", "LED", "BUTTON"]
board_id = os.getenv("PEGBOARD_SIM_BOARD") or "raspberry_pi_pico"
for _n in (_FEATHER if board_id == "adafruit_feather_rp2040" else _PICO):
    globals()[_n] = Pin(_n)
