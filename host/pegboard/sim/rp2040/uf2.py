"""Reading CircuitPython's official RP2040 UF2 into the flash image the emulated chip boots from, refusing
with a Uf2Error (naming the file and what is wrong) anything that is not CircuitPython for a plain Pico.

UF2 (github.com/microsoft/uf2): 512-byte blocks, each a 32-byte header of eight little-endian words
(magic 0x0A324655, magic 0x9E5D5157, flags, target address, payload size, block number, number of
blocks, family id when flag 0x2000 is set), 476 bytes of data (the payload first) and a closing magic
0x0AB16F30."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

from pegboard.sim.rp2040.layout import FLASH_BASE, FLASH_SIZE, LAYOUTS, Layout

BLOCK = 512
HEADER = struct.Struct("<8I")
DATA_MAX = 476  # the bytes between the header and the closing magic
MAGIC_START0, MAGIC_START1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001  # a block for some other memory: not written to the flash
FLAG_FILE_CONTAINER = 0x00001000  # a file for the bootloader's drive, not flash contents
FLAG_FAMILY_ID = 0x00002000
RP2040 = 0xE48BFF56
# Raspberry Pi's family ids (picotool / the RP2350 datasheet), to name what a wrong file is for
FAMILIES = {0xE48BFF56: "RP2040", 0xE48BFF57: "absolute", 0xE48BFF58: "data", 0xE48BFF59: "RP2350-ARM-S",
            0xE48BFF5A: "RP2350-RISCV", 0xE48BFF5B: "RP2350-ARM-NS"}
# CircuitPython's banner (CircuitPython py/makeversionhdr.py MICROPY_FULL_VERSION_INFO, "Adafruit CircuitPython "
# MICROPY_GIT_TAG " on " MICROPY_BUILD_DATE "; " MICROPY_BANNER_MACHINE): "Adafruit CircuitPython 9.2.8 on
# 2025-05-28; Raspberry Pi Pico with rp2040", the board (MICROPY_HW_BOARD_NAME " with " MICROPY_HW_MCU_NAME)
# after "; "
BANNER = re.compile(rb"Adafruit CircuitPython (\d+\.\d+\.\d+(?:-[0-9A-Za-z.+-]+)?) on [^;\x00]{1,40}; "
                    rb"([\x20-\x7e]{1,100}?)\x00")
# The Pico, and the Pico W as far as the emulator goes: it has no CYW43 radio chip (the Pico W's
# LED and Wi-Fi are on it), so its build starts with Wi-Fi off; the simulator wires it as a Pico
# (the firmware's pins, GP0..GP17, are the same on both).
SUPPORTED_BOARDS = tuple(LAYOUTS)


class Uf2Error(ValueError):
    """A UF2 that will not do, with the file and the reason in the message."""


@dataclass
class Firmware:
    image: bytearray  # FLASH_SIZE bytes, 0xFF (erased) where the UF2 writes nothing
    version: str  # "9.2.8", "10.3.0-alpha.4"
    board: str  # "Raspberry Pi Pico with rp2040"
    end: int  # flash offset just past the highest byte the UF2 writes
    layout: Layout  # where this board's CircuitPython keeps its NVM and its drive


def _family(fid: int) -> str:
    return "%s (0x%08X)" % (FAMILIES.get(fid, "an unknown family"), fid)


def read_uf2(path: str | Path) -> Firmware:
    """The flash image a UF2 of CircuitPython for the Raspberry Pi Pico writes; Uf2Error otherwise."""
    path = Path(path)
    data = path.read_bytes()
    where = str(path)
    if not data:
        raise Uf2Error("%s is empty: not a UF2 file" % where)
    if len(data) % BLOCK:
        raise Uf2Error("%s is %d bytes, not a whole number of %d-byte UF2 blocks: truncated?"
                       % (where, len(data), BLOCK))
    blocks = _flash_blocks(data, where)
    image, end = _laid_out(data, blocks, where)
    return _circuitpython(image, end, where)


Block = tuple[int, int, int, int, int, int, int]  # its index, address, size, number, count, family, payload's offset


def _flash_blocks(data: bytes, where: str) -> list[Block]:
    """The file's blocks for the main flash, each checked as a UF2 block for the RP2040 and all of
    one file (one count)."""
    blocks = []
    for n in range(len(data) // BLOCK):
        at = n * BLOCK
        m0, m1, flags, addr, size, number, count, family = HEADER.unpack_from(data, at)
        (end_magic,) = struct.unpack_from("<I", data, at + BLOCK - 4)
        if (m0, m1, end_magic) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise Uf2Error("%s is not a UF2 file: bad magic at block %d (byte %d)" % (where, n, at))
        if flags & (FLAG_NOT_MAIN_FLASH | FLAG_FILE_CONTAINER):
            continue
        if not flags & FLAG_FAMILY_ID:
            raise Uf2Error("%s: block %d names no family (flag 0x2000 unset): not a UF2 for the RP2040"
                           % (where, n))
        blocks.append((n, addr, size, number, count, family, at + HEADER.size))
    if not blocks:
        raise Uf2Error("%s has no blocks for the flash (all are flagged for other memories or as files)" % where)
    others = sorted({b[5] for b in blocks} - {RP2040})
    if others:
        raise Uf2Error("%s is for %s, not the RP2040 %s: the emulated chip is an RP2040 (a Pico, not a Pico 2)"
                       % (where, ", ".join(_family(f) for f in others), _family(RP2040)))
    counts = {b[4] for b in blocks}
    if len(counts) != 1:
        raise Uf2Error("%s: its blocks disagree on how many there are (%s): not one UF2 file"
                       % (where, ", ".join(map(str, sorted(counts)))))
    return blocks


def _laid_out(data: bytes, blocks: list[Block], where: str) -> tuple[bytearray, int]:
    """The flash as the blocks write it (erased bytes elsewhere), and where the last one ends; each
    block numbered once, inside the flash, and none missing."""
    count = blocks[0][4]
    image = bytearray(b"\xff" * FLASH_SIZE)
    seen: set[int] = set()
    end = 0
    for n, addr, size, number, _, _, payload in blocks:
        if number >= count or number in seen:
            raise Uf2Error("%s: block %d is numbered %d of %d (%s)"
                           % (where, n, number, count, "twice" if number in seen else "out of range"))
        seen.add(number)
        if size > DATA_MAX:
            raise Uf2Error("%s: block %d carries %d bytes, more than a UF2 block holds (%d)"
                           % (where, n, size, DATA_MAX))
        offset = addr - FLASH_BASE
        if offset < 0 or offset + size > FLASH_SIZE:
            raise Uf2Error("%s: block %d writes 0x%08X..0x%08X, outside the flash (0x%08X..0x%08X)"
                           % (where, n, addr, addr + size, FLASH_BASE, FLASH_BASE + FLASH_SIZE))
        image[offset:offset + size] = data[payload:payload + size]
        end = max(end, offset + size)
    if len(seen) != count:
        missing = sorted(set(range(count)) - seen)
        raise Uf2Error("%s is truncated: %d of its %d blocks are missing (the first: block %d)"
                       % (where, len(missing), count, missing[0]))
    return image, end


def _circuitpython(image: bytearray, end: int, where: str) -> Firmware:
    """The image as CircuitPython for a supported board: its banner read, its end inside the
    firmware area of that board's layout."""
    m = BANNER.search(image, 0, end)
    if m is None:
        raise Uf2Error("%s is not CircuitPython: no \"Adafruit CircuitPython X.Y.Z on DATE; BOARD\" string in it"
                       % where)
    version, board = m.group(1).decode("ascii"), m.group(2).decode("ascii")
    if board not in SUPPORTED_BOARDS:
        raise Uf2Error("%s is CircuitPython %s for \"%s\": not supported, the emulated board is a Raspberry Pi Pico "
                       "(use the UF2 for \"%s\")" % (where, version, board, SUPPORTED_BOARDS[0]))
    lay = LAYOUTS[board]
    if end > lay.nvm_offset:
        area = ("the CIRCUITPY drive (from 0x%06X)" % lay.fs_offset if end > lay.fs_offset
                else "microcontroller.nvm (0x%06X..0x%06X)" % (lay.nvm_offset, lay.fs_offset))
        raise Uf2Error("%s writes up to flash offset 0x%06X, past CircuitPython's firmware area (0x000000..0x%06X) "
                       "for %s into %s: not CircuitPython's RP2040 layout"
                       % (where, end, lay.nvm_offset, board, area))
    return Firmware(image=image, version=version, board=board, end=end, layout=lay)
