// The Pico's QSPI flash as the ROM's flash functions change it: an erase sets whole 4 KB sectors to
// 0xFF, a program can only clear bits (NOR flash: it ANDs), and each takes the time the Winbond
// W25Q16JV data sheet gives (9.6 AC Electrical Characteristics: sector erase tSE 45 ms typical,
// page program tPP 0.4 ms typical per 256-byte page). rp2040js ignores both (its SSI is a stub).
'use strict';

const SECTOR = 4096;
const PAGE = 256;
const SECTOR_ERASE_NS = 45e6;
const PAGE_PROGRAM_NS = 0.4e6;

class Flash {
  // bytes: the chip's flash array (rp2040js's mcu.flash); size: the flash chip's (2 MB on a Pico);
  // events: written(offset, length) after a change, busy(ns, erase) for the time the CPU waits on the
  // flash (erase: true for a sector erase)
  constructor(bytes, size, events) {
    this.bytes = bytes;
    this.size = size;
    this.events = events;
  }

  erase(offset, count) {
    // the ROM's flash_range_erase takes whole sectors: the range is rounded out to them
    const start = offset - (offset % SECTOR);
    const end = Math.ceil((offset + count) / SECTOR) * SECTOR;
    this.check(start, end - start);
    this.bytes.fill(0xff, start, end);
    this.events.written(start, end - start);
    this.events.busy(((end - start) / SECTOR) * SECTOR_ERASE_NS, true);
  }

  program(offset, data) {
    this.check(offset, data.length);
    for (let i = 0; i < data.length; i++) this.bytes[offset + i] &= data[i];
    this.events.written(offset, data.length);
    const pages = Math.ceil((offset + data.length) / PAGE) - Math.floor(offset / PAGE);
    this.events.busy(pages * PAGE_PROGRAM_NS, false);
  }

  check(offset, length) {
    if (offset < 0 || length < 0 || offset + length > this.size) {
      throw new RangeError('flash write outside the chip: 0x' + offset.toString(16) + '+' + length);
    }
  }
}

module.exports = { Flash, SECTOR, PAGE, SECTOR_ERASE_NS, PAGE_PROGRAM_NS };
