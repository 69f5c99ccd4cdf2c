# The pins of the supported boards as CircuitPython's `board` module has them: name -> RP2040
# GPIO number (from the boards' pins.c in adafruit/circuitpython: raspberry_pi_pico,
# adafruit_feather_rp2040). Several names can be one pin (Feather D13 and LED, Pico GP26 and A0):
# the fake `board` gives them one object, as the real one does, so a pin used twice under two
# names is caught. Shared by the simulator's fake `board` and the host's checks of
# hardware/boards/*.toml.
PICO = {}
for _i in range(29):
    PICO["GP%d" % _i] = _i
PICO.update({"GP26_A0": 26, "GP27_A1": 27, "GP28_A2": 28, "A0": 26, "A1": 27, "A2": 28, "A3": 29,
             "LED": 25, "SMPS_MODE": 23, "VBUS_SENSE": 24, "VOLTAGE_MONITOR": 29})
FEATHER_RP2040 = {"D0": 1, "RX": 1, "D1": 0, "TX": 0, "D4": 6, "D5": 7, "D6": 8, "D9": 9, "D10": 10,
                  "D11": 11, "D12": 12, "D13": 13, "LED": 13, "D24": 24, "D25": 25, "A0": 26, "A1": 27,
                  "A2": 28, "A3": 29, "SCK": 18, "MOSI": 19, "MISO": 20, "SDA": 2, "SCL": 3,
                  "BUTTON": 4, "BOOT": 4, "NEOPIXEL": 16}
BOARDS = {"raspberry_pi_pico": PICO, "adafruit_feather_rp2040": FEATHER_RP2040}
