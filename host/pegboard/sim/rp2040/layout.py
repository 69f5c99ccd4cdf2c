"""Where CircuitPython keeps things in a Raspberry Pi Pico's 2 MiB flash: offsets from the flash's
start (the chip maps it at FLASH_BASE). Facts from CircuitPython's source (tag 9.2.8; main keeps them)."""

from __future__ import annotations

# The RP2040's XIP window, where the flash appears and where a UF2's target addresses point.
FLASH_BASE = 0x10000000

# The Pico's W25Q16JV, 2 MiB (CircuitPython ports/raspberrypi/boards/raspberry_pi_pico/mpconfigboard.mk:
# EXTERNAL_FLASH_DEVICES = "W25Q16JVxQ"), also CircuitPython's floor (CircuitPython
# ports/raspberrypi/supervisor/internal_flash.c: TOTAL_FLASH_MINIMUM (2 * 1024 * 1024)). CircuitPython asks
# the chip its size (RDID, 0x9F) and takes the answer only when it is 2^21..2^29, else 2^21: an emulated
# flash must not claim more, or the drive grows past FS_SIZE.
FLASH_SIZE = 2 * 1024 * 1024

# The firmware's own part: CircuitPython ports/raspberrypi/mpconfigport.h CIRCUITPY_FIRMWARE_SIZE
# (1020 * 1024) (CircuitPython ports/raspberrypi/link-rp2040.ld: firmware_size 1020K, "Followed by: 4kB of
# NVRAM and at least 1024kB of CIRCUITPY").
FIRMWARE_SIZE = 1020 * 1024

# microcontroller.nvm: CircuitPython ports/raspberrypi/mpconfigport.h CIRCUITPY_INTERNAL_NVM_START_ADDR
# (0x10000000 + CIRCUITPY_FIRMWARE_SIZE) and CIRCUITPY_INTERNAL_NVM_SIZE (4 * 1024).
NVM_OFFSET = FIRMWARE_SIZE  # 0x0FF000
NVM_SIZE = 4 * 1024

# The CIRCUITPY drive: CircuitPython ports/raspberrypi/mpconfigport.h CIRCUITPY_CIRCUITPY_DRIVE_START_ADDR
# (CIRCUITPY_FIRMWARE_SIZE + CIRCUITPY_INTERNAL_NVM_SIZE), to the flash's end
# (CircuitPython ports/raspberrypi/supervisor/internal_flash.c supervisor_flash_get_block_count:
# (_flash_size - CIRCUITPY_CIRCUITPY_DRIVE_START_ADDR) / FILESYSTEM_BLOCK_SIZE).
FS_OFFSET = NVM_OFFSET + NVM_SIZE  # 0x100000, 1 MiB
FS_SIZE = FLASH_SIZE - FS_OFFSET  # 1 MiB

# The drive's block (FAT sector) size: CircuitPython py/circuitpy_mpconfig.h FILESYSTEM_BLOCK_SIZE (512).
SECTOR_SIZE = 512


class Layout:
    """One board's flash layout: CircuitPython's firmware, then microcontroller.nvm, then the drive."""

    def __init__(self, firmware_size: int) -> None:
        self.firmware_size = firmware_size
        self.nvm_offset = firmware_size
        self.nvm_size = NVM_SIZE
        self.fs_offset = firmware_size + NVM_SIZE
        self.fs_size = FLASH_SIZE - self.fs_offset


# The Pico W's CircuitPython keeps a larger firmware area (its build carries the CYW43 radio's own
# firmware): 1536 KB, as CircuitPython's CYW43 boards declare it (ports/raspberrypi boards' mpconfigboard.mk,
# CIRCUITPY_FIRMWARE_SIZE='(1536 * 1024)', with their 1536k linker script). The official 9.2.1 and
# 10.2.1 Pico W UF2s write up to 0x165600, past the Pico's 1020 KB and short of 1536 KB, and the
# Pico W's own binary found its drive at 0x181000 on the rp2040 runtime (it ran the code.py there).
LAYOUTS = {"Raspberry Pi Pico with rp2040": Layout(FIRMWARE_SIZE),
           "Raspberry Pi Pico W with rp2040": Layout(1536 * 1024)}
PICO = LAYOUTS["Raspberry Pi Pico with rp2040"]
