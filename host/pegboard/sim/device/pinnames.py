# Pin names of the supported boards as CircuitPython's `board` module spells them (from the
# boards' pins.c in adafruit/circuitpython: raspberry_pi_pico, adafruit_feather_rp2040).
# Shared by the simulator's fake `board` and the host's checks of hardware/boards/*.toml.
PICO = ["GP%d" % i for i in range(23)] + ["GP26", "GP27", "GP28", "GP26_A0", "GP27_A1", "GP28_A2",
                                          "A0", "A1", "A2", "A3", "LED", "SMPS_MODE", "VBUS_SENSE",
                                          "VOLTAGE_MONITOR"]
FEATHER_RP2040 = ["D4", "D5", "D6", "D9", "D10", "D11", "D12", "D13", "D24", "D25", "A0", "A1", "A2",
                  "A3", "SCK", "MOSI", "MISO", "TX", "RX", "SDA", "SCL", "NEOPIXEL", "LED"]
BOARDS = {"raspberry_pi_pico": PICO, "adafruit_feather_rp2040": FEATHER_RP2040}
