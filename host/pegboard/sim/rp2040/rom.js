// Our own high-level emulation (HLE) of the RP2040 boot ROM, for rp2040js.
//
// rp2040js runs a 16 KB image at 0x00000000 as the chip's mask ROM, but Raspberry Pi's ROM binary is
// neither on a package registry nor ours to commit. This module builds a stand-in from the ROM's
// documented interface (RP2040 datasheet, section 2.8 "Bootrom": 2.8.1 boot sequence, 2.8.3
// "Bootrom Contents": the lookup tables, the function and data codes, the soft-float and
// soft-double tables) and implements each routine in JavaScript. Every routine is a ROM stub
//
//     bkpt #n        ; rp2040js calls rp2040.onBreak(n) with PC already past this instruction
//     bx   lr        ; so once the JS work is done, the stub returns like a real function
//
// and onBreak(rp2040, n) does the work on rp2040.core's registers. No code here comes from
// pico-bootrom, pico-sdk or rp2040js; their sources were read only to learn the calling conventions
// and corner-case behaviour that CircuitPython's pico-sdk relies on.
//
// Interface:
//   const rom = createRom({ flash, bootrom, onUsbBoot, onCycles });
//     flash     { erase(offset, count), program(offset, Uint8Array) }, offsets from 0x10000000;
//               without it the ROM writes rp2040.flash itself (erase to 0xff, program ANDs bits)
//     bootrom   optional Uint32Array(4096) of a real ROM: used instead of ours, see below
//     onUsbBoot optional ({ reason, gpioActivityPinMask, disableInterfaceMask }) => void
//     onCycles  optional (cycles) => void, see "Time" below
//   rom.image                 Uint32Array(4096): rp2040.loadBootrom(rom.image)
//   rom.onBreak(rp2040, code) true if the breakpoint was one of the ROM's stubs and was handled
// Start: rp2040.loadBootrom(rom.image) (it resets the chip, which erases rp2040.flash: load the
// flash image after it), rp2040.onBreak = (code) => rom.onBreak(rp2040, code) || ..., then
// rp2040.core.reset(): the core starts at the ROM's reset vector.
//
// Implemented (ROM version 3, i.e. what an RP2040-B2 reports at 0x13):
//  - vectors: initial SP 0x20041f00 (the ROM's stack sits below boot2) and a reset handler that
//    does what the ROM's flash boot does for a good image: copy boot2 (the first 256 bytes of
//    flash) to 0x20041f00, check its CRC32 and enter it with LR = 0 and SP below it, so boot2 sets
//    up XIP and jumps through the vector table at 0x10000100. The watchdog "direct boot" magic (scratch 4-7) is honoured first, as on the chip.
//    A bad boot2 CRC means the chip would enumerate as the BOOTSEL drive: reported to onUsbBoot.
//  - 'Mu', 1, 3 at 0x10; the 16-bit pointers at 0x14 (functions), 0x16 (data), 0x18 (lookup);
//  - functions: P3 R3 L3 T3 (bit ops), MS S4 MC C4 (memory), IF EX RE RP FC CX (flash: RE and RP
//    reach the `flash` option, the rest have nothing to do on rp2040js, whose XIP reads the flash
//    array directly), UB (reset_to_usb_boot: reported to onUsbBoot, then the core stops), DT/DE
//    (debug trampoline, real Thumb code ending in bkpt #0 as documented), WV (core 1's wait loop:
//    rp2040js has no core 1, so it just sleeps);
//  - data: CR, GR, SF, SD, FZ, FS/FE, DS/DE. The SF/SD tables hold all 32 entries of the V3 ROM.
//
// The float and double routines follow the ROM's documented semantics, which differ from IEEE:
//  - subnormal inputs count as zero, results that would be subnormal are flushed to zero;
//  - a NaN input counts as the infinity of its sign; no routine returns a NaN, an invalid
//    operation (Inf-Inf, 0*Inf, 0/0, Inf/Inf) gives an infinity or a zero as the ROM does;
//  - + - * / sqrt and all conversions to float/double are correctly rounded (ties to even);
//  - float/double -> integer and fixed-point conversions round toward -Infinity and clamp
//    (pico-sdk wraps them for C's round-toward-zero);
//  - sqrt and ln of a negative number give -Infinity; sin/cos/tan are valid for |x| < 128
//    (float) and |x| < 1024 (double), pico-sdk range-reduces bigger angles itself;
//  - fsin/fsincos also return the cosine in r1, dsin/dsincos the cosine in r2:r3 (pico-sdk's
//    sincosf and sincos read them there).
// The scientific functions use JavaScript's Math. For single precision the ROM's fixed-point
// quantization of arguments and results is modelled (see sinCosRomF), so small arguments give
// what the chip gives; the CORDIC's own last-bit errors are not reproduced. Double-precision ones
// are plain Math (the ROM's are within ~1e-15 relative of it except for arguments below ~1e-200).
// Checked bit for bit against the B1 ROM run on rp2040js over thousands of operands: every
// arithmetic, compare and conversion entry of both tables agrees, specials and underflow included.
//
// Not implemented: the USB BOOTSEL device itself (mass storage and PICOBOOT), core 1's launch
// protocol (rp2040js has one core), the ROM's clock, pad and SSI programming (rp2040js needs none
// of it to run boot2), the deprecated V1 'P8' 'R8' 'L8' 'T8' entries.
//
// Time: each routine's cost in cycles (figures in COST below) is added to core.cycles and, when the
// `onCycles` option is given, passed to it so that the caller's loop can add it to its emulated
// time; without onCycles the cost is ticked onto rp2040.clock directly. Flash erase/program cost
// only the CPU's share here: the flash chip's busy time is for the `flash` implementation to add.
//
// With `bootrom` (an image of the real ROM) the image is used as it is, except that the entry
// points of its flash_range_erase and flash_range_program routines are overwritten with stubs
// (those routines drive the SSI, which rp2040js does not connect to its flash array), so flash
// writes reach `flash` with either ROM. The functions' table entries keep pointing at them, and
// the ROM's own callers (its USB mass-storage writes) land on the stubs too.
'use strict';

const ROM_BYTES = 0x4000;
const FLASH_BASE = 0x10000000;
const FLASH_WINDOW = 0x01000000; // XIP aliases every 16 MB
const SRAM_BASE = 0x20000000;
const SRAM_END = 0x20042000;
const BOOT2_BYTES = 256;
const BOOT2_BASE = SRAM_END - BOOT2_BYTES;
const WATCHDOG_SCRATCH4 = 0x4005801c;
const DIRECT_BOOT_MAGIC = 0xb007c0d3;
const PADS_BANK0_CLR = 0x4001c000 + 0x3000; // atomic clear alias
const PAD_IE = 0x40;

const THUMB_BX_LR = 0x4770;
const THUMB_WFI = 0xbf30;
const THUMB_BKPT = 0xbe00;

// Table codes are two ASCII characters, the first in the low byte (datasheet 2.8.3.1).
function tableCode(name) {
  return name.charCodeAt(0) | (name.charCodeAt(1) << 8);
}

// --- cycle costs --------------------------------------------------------------------------------
// Float/double: the average cycle counts of the ROM's own routines, measured by running the B1 ROM
// (same float code as B2 bar the sincos entries) on rp2040js over 400 random normal operands each
// (a scratch tool, not in the repo), so that time with this ROM matches time with the real one on
// the same emulator. The datasheet lists the chip's own averages beside each table entry (section
// 2.8.3.2, soft_float_table and soft_double_table); these are measured on rp2040js's cycle model
// instead, which the rest of the firmware's time comes from too.
// Memory routines and bit ops: fitted to the same kind of measurement over sizes 0..256: copies
// and fills under 8 bytes go byte by byte (memcpy ~4 cycles a byte, memset ~2), longer ones run
// 16 bytes per ldm/stm pass (~0.8 cycles a byte copied, ~0.5 filled) when source and destination
// are co-aligned, and ~7 cycles a byte when they are not.
const COST = {
  fadd: 68, fsub: 71, fmul: 55, fdiv: 84, fcmp: 13, fcmpCombined: 24, fsqrt: 62,
  float2int: 37, float2fix: 36, float2uint: 36, float2ufix: 35,
  int2float: 109, fix2float: 108, uint2float: 112, ufix2float: 111,
  fcos: 575, fsin: 567, ftan: 656, fsincos: 567, fexp: 517, fln: 785, fatan2: 667,
  int642float: 87, fix642float: 86, uint642float: 91, ufix642float: 89,
  float2int64: 49, float2fix64: 48, float2uint64: 39, float2ufix64: 38, float2double: 14,
  dadd: 84, dsub: 87, dmul: 149, ddiv: 198, dcmp: 24, dcmpCombined: 36, dsqrt: 166,
  double2int: 67, double2fix: 66, double2uint: 58, double2ufix: 57,
  int2double: 80, fix2double: 79, uint2double: 78, ufix2double: 76,
  dcos: 1615, dsin: 1612, dtan: 1898, dsincos: 1700, dexp: 801, dln: 900, datan2: 2172,
  int642double: 85, fix642double: 84, uint642double: 83, ufix642double: 82,
  double2int64: 59, double2fix64: 58, double2uint64: 50, double2ufix64: 49, double2float: 22,
};

function memcpyCost(n, coAligned, wordVariant) {
  if (n < 8) return 12 + 4 * n;
  if (wordVariant) return 25 + Math.round(n * 0.8);
  return coAligned ? 36 + Math.round(n * 0.81) : 7 * n;
}
function memsetCost(n, wordVariant) {
  if (n < 8) return 12 + 2 * n;
  return (wordVariant ? 21 : 38) + Math.round(n * 0.53);
}
const BITOP_COST = { P3: 21, R3: 23, L3: 13, T3: 14 };

// --- IEEE bit views -----------------------------------------------------------------------------
const scratch = new DataView(new ArrayBuffer(8));

function f32FromBits(u) {
  scratch.setUint32(0, u >>> 0);
  return scratch.getFloat32(0);
}
function bitsFromF32(x) {
  scratch.setFloat32(0, x);
  return scratch.getUint32(0);
}
function f64FromBits(lo, hi) {
  scratch.setUint32(0, hi >>> 0);
  scratch.setUint32(4, lo >>> 0);
  return scratch.getFloat64(0);
}
function bitsFromF64(x) {
  scratch.setFloat64(0, x);
  return [scratch.getUint32(4), scratch.getUint32(0)]; // [lo, hi]
}

const F32_MIN_NORMAL = 2 ** -126;
const F64_MIN_NORMAL = 2 ** -1022;

// An operand as the ROM reads it: subnormals are zeros, NaNs are infinities (signs kept).
function fArg(u) {
  const e = (u >>> 23) & 0xff;
  const neg = (u >>> 31) === 1;
  if (e === 0) return neg ? -0 : 0;
  if (e === 0xff) return neg ? -Infinity : Infinity;
  return f32FromBits(u);
}
function dArg(lo, hi) {
  const e = (hi >>> 20) & 0x7ff;
  const neg = (hi >>> 31) === 1;
  if (e === 0) return neg ? -0 : 0;
  if (e === 0x7ff) return neg ? -Infinity : Infinity;
  return f64FromBits(lo, hi);
}

// A result as the ROM packs it. x is the exact result or one rounded to double, which rounds
// correctly to single for + - * / sqrt (53 >= 2*24 + 2). The ROM rounds to 24 bits first and then
// flushes what is below the smallest normal: the scaling keeps fround from rounding at subnormal
// precision.
function fRes(x) {
  if (x !== x) x = Infinity; // the ROM has no NaN to give (only Math on out-of-range input gets here)
  if (x === 0 || x === Infinity || x === -Infinity) return bitsFromF32(x);
  if (Math.abs(x) < F32_MIN_NORMAL) {
    const r = Math.fround(x * 2 ** 64) * 2 ** -64;
    if (Math.abs(r) < F32_MIN_NORMAL) return x < 0 ? 0x80000000 : 0;
    return bitsFromF32(r);
  }
  return bitsFromF32(Math.fround(x));
}
function dRes(x) {
  if (x !== x) x = Infinity;
  if (x !== 0 && Math.abs(x) < F64_MIN_NORMAL) x = x < 0 ? -0 : 0;
  return bitsFromF64(x);
}

// Round a BigInt to `bits` significant bits, ties to even, so that Number() of it is exact and
// no double rounding happens on the way to a float.
function roundSignificant(v, bits) {
  const neg = v < 0n;
  let m = neg ? -v : v;
  const len = m.toString(2).length;
  if (len > bits) {
    const drop = BigInt(len - bits);
    const half = 1n << (drop - 1n);
    const rest = m & ((1n << drop) - 1n);
    m >>= drop;
    if (rest > half || (rest === half && (m & 1n))) m += 1n;
    m <<= drop;
  }
  return neg ? -m : m;
}

// v / 2^n correctly rounded to float (24 bits) or double (53 bits) and packed as the ROM does
function fixToF(v, n) {
  return fRes(Number(roundSignificant(v, 24)) * 2 ** -n);
}
function fixToD(v, n) {
  const x = Number(roundSignificant(v, 53)) * 2 ** -n; // exact scaling unless it leaves the range
  return dRes(x);
}

// floor(x * 2^n) clamped to [lo, hi], as a BigInt: the ROM's float->fixed rule
function floorFix(x, n, lo, hi) {
  if (x === 0) return 0n; // -0 and flushed subnormals give 0, not -1
  if (x === Infinity) return hi;
  if (x === -Infinity) return lo;
  const scaled = x * 2 ** n; // exact: a power-of-two scaling, unless it overflows or underflows
  if (scaled >= Number(hi) + 1) return hi;
  if (scaled < Number(lo)) return lo;
  if (!Number.isFinite(scaled)) return scaled > 0 ? hi : lo;
  if (Math.abs(scaled) < 1) return scaled < 0 ? -1n : 0n;
  const v = BigInt(Math.floor(scaled));
  return v < lo ? lo : v > hi ? hi : v;
}

const I32_MIN = -(1n << 31n);
const I32_MAX = (1n << 31n) - 1n;
const U32_MAX = (1n << 32n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

function int64(lo, hi) {
  return (BigInt(hi | 0) << 32n) | BigInt(lo >>> 0);
}
function uint64(lo, hi) {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
function split64(v) {
  const u = BigInt.asUintN(64, v);
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
}

// -1, 0, 1 for a < b, a == b, a > b, +0 equal to -0: the ROM's flushing compare, on operands read
// by fArg/dArg (so a NaN compares as the infinity of its sign)
function order(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// sign-magnitude order of raw bits, the ROM's "fast" compare, which does not flush its operands
function orderF32Bits(a, b) {
  const key = (u) => ((u >>> 31) ? -(u & 0x7fffffff) : u & 0x7fffffff);
  return order(key(a >>> 0), key(b >>> 0));
}
function orderF64Bits(alo, ahi, blo, bhi) {
  const key = (lo, hi) => {
    const mag = (BigInt(hi & 0x7fffffff) << 32n) | BigInt(lo >>> 0);
    return hi >>> 31 ? -mag : mag;
  };
  const a = key(alo, ahi);
  const b = key(blo, bhi);
  return a < b ? -1 : a > b ? 1 : 0;
}

// The ROM computes the single-precision scientific functions in fixed point (datasheet 2.8.3.2.1:
// "calculated using internal fixed-point representations"): angles and exponents are taken with
// 24 fractional bits (rounded toward -Infinity), sines and cosines come out with 29, logarithms
// with 24, arctangents with 29. Quantizing the same way reproduces what the chip prints for small
// arguments (sin(1e-6) is 9.53674e-07 there); in between, results are JavaScript's, within a few
// ulp of the ROM's.
const Q24 = 2 ** 24;
const Q29 = 2 ** 29;
// the ROM's float2fix(x, 24): toward -Infinity, clamped to a signed 32-bit Q24 (|x| <= 128)
function fixedAngle(x) {
  return Math.min(Math.max(Math.floor(x * Q24), -(2 ** 31)), 2 ** 31 - 1) / Q24;
}
function q29(v) {
  return Math.round(v * Q29) / Q29;
}
// The ROM reduces the Q24 angle modulo its own 2*pi, which has only 24 fractional bits, folds it
// into [-pi/2, pi/2) with the same constant, then rotates: reducing with that constant (not the
// true pi) keeps large angles within an ulp or two of the chip's. Its sine also carries a constant
// +9 * 2^-29 (so that sin(0) is 0), which only shows where the folded angle is negative, e.g.
// sin(-1e-5) is -9.99682e-06 on the chip: added there, measured against the B1 ROM.
const TWO_PI_Q24 = Math.floor(2 * Math.PI * Q24) / Q24;
function sinCosRomF(x) {
  let z = fixedAngle(x);
  z -= Math.floor(z / TWO_PI_Q24) * TWO_PI_Q24; // now 0 <= z < 2pi', exact: both are Q24 values
  let sign = 1;
  while (z >= TWO_PI_Q24 / 4) {
    z -= TWO_PI_Q24 / 2;
    sign = -sign;
  }
  return [sign * (q29(Math.sin(z)) + (z < 0 ? 9 / Q29 : 0)), sign * q29(Math.cos(z))];
}
function sinRomF(x) {
  return sinCosRomF(x)[0];
}
function cosRomF(x) {
  return sinCosRomF(x)[1];
}
function tanRomF(x) {
  // the ROM divides its packed sine by its packed cosine
  const [s, c] = sinCosRomF(x);
  return divRom(fArg(fRes(s)), fArg(fRes(c)));
}
function expRomF(x) {
  return Math.exp(fixedAngle(x));
}
function lnRomF(x) {
  return x <= 0 ? -Infinity : x === Infinity ? x : Math.round(Math.log(x) * Q24) / Q24;
}
function atan2RomF(y, x) {
  return Math.floor(Math.atan2(y, x) * Q29) / Q29;
}

function lnRomD(x) {
  return x <= 0 ? -Infinity : Math.log(x);
}
function sqrtRom(x) {
  if (x === 0) return x; // sqrt(-0) is -0
  return x < 0 ? -Infinity : Math.sqrt(x);
}
// The ROM's arithmetic never makes a NaN: these are what it gives for IEEE's invalid cases.
function addRom(a, b) {
  const r = a + b;
  return r === r ? r : Infinity; // Inf + -Inf: +Inf whatever the order
}
function mulRom(a, b) {
  const r = a * b;
  if (r === r) return r;
  // 0 * Inf: an infinity with the product's sign
  return (a < 0 || Object.is(a, -0)) !== (b < 0 || Object.is(b, -0)) ? -Infinity : Infinity;
}
function divRom(a, b) {
  const r = a / b;
  if (r === r) return r;
  const neg = (a < 0 || Object.is(a, -0)) !== (b < 0 || Object.is(b, -0));
  if (a === 0) return neg ? -Infinity : Infinity; // 0/0
  return neg ? -Infinity : Infinity; // Inf/Inf
}

// --- the ROM image ------------------------------------------------------------------------------
class RomImage {
  constructor(words) {
    this.words = words;
    this.view = new DataView(words.buffer, words.byteOffset, words.byteLength);
  }
  u8(a) { return this.view.getUint8(a); }
  u16(a) { return this.view.getUint16(a, true); }
  u32(a) { return this.view.getUint32(a, true); }
  set8(a, v) { this.view.setUint8(a, v); }
  set16(a, v) { this.view.setUint16(a, v, true); }
  set32(a, v) { this.view.setUint32(a, v >>> 0, true); }
  lookup(table, code) {
    for (let a = table; a + 3 < ROM_BYTES; a += 4) {
      const c = this.u16(a);
      if (c === 0) return 0;
      if (c === code) return this.u16(a + 2);
    }
    return 0;
  }
}

// --- memory access for the memory routines ------------------------------------------------------
// Fast paths for SRAM (and XIP flash as a source); anything else (USB DPRAM, peripherals) goes
// through rp2040's bus functions, a word at a time when aligned, as the ROM's ldm/stm would.
function sramSpan(addr, n) {
  const off = addr - SRAM_BASE;
  return off >= 0 && off + n <= SRAM_END - SRAM_BASE ? off : -1;
}
function readBytes(m, addr, n) {
  const s = sramSpan(addr, n);
  if (s >= 0) return m.sram.slice(s, s + n);
  if (addr >= FLASH_BASE && addr < FLASH_BASE + 4 * FLASH_WINDOW) {
    const off = (addr - FLASH_BASE) % FLASH_WINDOW;
    if (off + n <= m.flash.length) return m.flash.slice(off, off + n);
  }
  const out = new Uint8Array(n);
  let i = 0;
  if ((addr & 3) === 0) {
    for (; i + 4 <= n; i += 4) {
      const w = m.readUint32(addr + i);
      out[i] = w;
      out[i + 1] = w >>> 8;
      out[i + 2] = w >>> 16;
      out[i + 3] = w >>> 24;
    }
  }
  for (; i < n; i++) out[i] = m.readUint8(addr + i);
  return out;
}
function writeBytes(m, addr, bytes) {
  const n = bytes.length;
  const s = sramSpan(addr, n);
  if (s >= 0) {
    m.sram.set(bytes, s);
    return;
  }
  let i = 0;
  if ((addr & 3) === 0) {
    for (; i + 4 <= n; i += 4) {
      m.writeUint32(addr + i, (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0);
    }
  }
  for (; i < n; i++) m.writeUint8(addr + i, bytes[i]);
}

// CRC-32/MPEG-2 (poly 0x04c11db7, MSB first, init 0xffffffff, no final xor): boot2's checksum
function crc32Mpeg2(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

// --- the routines -------------------------------------------------------------------------------
// Each takes (m, core) and returns its cost in cycles. r(core, i) reads an argument register.
function r(core, i) {
  return core.registers[i] >>> 0;
}
function set(core, i, v) {
  core.registers[i] = v >>> 0;
}

// a comparison's answer (-1, 0, 1) in r0 and in the flags, as the ROM's fcmp/dcmp leave them
function setOrder(core, v) {
  set(core, 0, v);
  core.N = v < 0;
  core.Z = v === 0;
  core.C = true;
  core.V = false;
}

function floatRoutines() {
  const f1 = (fn, cost) => (m, c) => { set(c, 0, fRes(fn(fArg(r(c, 0))))); return cost; };
  const f2 = (fn, cost) => (m, c) => { set(c, 0, fRes(fn(fArg(r(c, 0)), fArg(r(c, 1))))); return cost; };
  const toFix = (lo, hi, cost, fixed) => (m, c) => {
    const n = fixed ? r(c, 1) | 0 : 0;
    set(c, 0, Number(BigInt.asUintN(32, floorFix(fArg(r(c, 0)), n, lo, hi))));
    return cost;
  };
  const toFix64 = (lo, hi, cost, fixed) => (m, c) => {
    const n = fixed ? r(c, 1) | 0 : 0;
    const [l, h] = split64(floorFix(fArg(r(c, 0)), n, lo, hi));
    set(c, 0, l);
    set(c, 1, h);
    return cost;
  };
  const fromFix = (signed, cost, fixed) => (m, c) => {
    const v = signed ? BigInt(r(c, 0) | 0) : BigInt(r(c, 0));
    set(c, 0, fixToF(v, fixed ? r(c, 1) | 0 : 0));
    return cost;
  };
  const fromFix64 = (signed, cost, fixed) => (m, c) => {
    const v = signed ? int64(r(c, 0), r(c, 1)) : uint64(r(c, 0), r(c, 1));
    set(c, 0, fixToF(v, fixed ? r(c, 2) | 0 : 0));
    return cost;
  };
  // result in r0 and the flags N Z from it, C set, V clear (the ROM ends with `subs r0, rX, #0`)
  const cmp = (flush) => (m, c) => {
    const a = r(c, 0);
    const b = r(c, 1);
    const v = flush ? order(fArg(a), fArg(b)) : orderF32Bits(a, b);
    setOrder(c, v);
    return flush ? COST.fcmpCombined : COST.fcmp;
  };
  const sincos = (cost) => (m, c) => {
    const x = fArg(r(c, 0));
    set(c, 0, fRes(sinRomF(x)));
    set(c, 1, fRes(cosRomF(x)));
    return cost;
  };
  return [
    /* 0x00 */ f2(addRom, COST.fadd),
    /* 0x04 */ f2((a, b) => addRom(a, -b), COST.fsub),
    /* 0x08 */ f2(mulRom, COST.fmul),
    /* 0x0c */ f2(divRom, COST.fdiv),
    /* 0x10 */ cmp(false),
    /* 0x14 */ cmp(false),
    /* 0x18 */ f1(sqrtRom, COST.fsqrt),
    /* 0x1c */ toFix(I32_MIN, I32_MAX, COST.float2int, false),
    /* 0x20 */ toFix(I32_MIN, I32_MAX, COST.float2fix, true),
    /* 0x24 */ toFix(0n, U32_MAX, COST.float2uint, false),
    /* 0x28 */ toFix(0n, U32_MAX, COST.float2ufix, true),
    /* 0x2c */ fromFix(true, COST.int2float, false),
    /* 0x30 */ fromFix(true, COST.fix2float, true),
    /* 0x34 */ fromFix(false, COST.uint2float, false),
    /* 0x38 */ fromFix(false, COST.ufix2float, true),
    /* 0x3c */ f1(cosRomF, COST.fcos),
    /* 0x40 */ sincos(COST.fsin),
    /* 0x44 */ f1(tanRomF, COST.ftan),
    /* 0x48 */ sincos(COST.fsincos),
    /* 0x4c */ f1(expRomF, COST.fexp),
    /* 0x50 */ f1(lnRomF, COST.fln),
    /* 0x54 */ cmp(true),
    /* 0x58 */ f2(atan2RomF, COST.fatan2),
    /* 0x5c */ fromFix64(true, COST.int642float, false),
    /* 0x60 */ fromFix64(true, COST.fix642float, true),
    /* 0x64 */ fromFix64(false, COST.uint642float, false),
    /* 0x68 */ fromFix64(false, COST.ufix642float, true),
    /* 0x6c */ toFix64(I64_MIN, I64_MAX, COST.float2int64, false),
    /* 0x70 */ toFix64(I64_MIN, I64_MAX, COST.float2fix64, true),
    /* 0x74 */ toFix64(0n, U64_MAX, COST.float2uint64, false),
    /* 0x78 */ toFix64(0n, U64_MAX, COST.float2ufix64, true),
    /* 0x7c */ (m, c) => {
      const [lo, hi] = dRes(fArg(r(c, 0)));
      set(c, 0, lo);
      set(c, 1, hi);
      return COST.float2double;
    },
  ];
}

function doubleRoutines() {
  const arg0 = (c) => dArg(r(c, 0), r(c, 1));
  const arg1 = (c) => dArg(r(c, 2), r(c, 3));
  const out = (c, bits) => { set(c, 0, bits[0]); set(c, 1, bits[1]); };
  const d1 = (fn, cost) => (m, c) => { out(c, dRes(fn(arg0(c)))); return cost; };
  const d2 = (fn, cost) => (m, c) => { out(c, dRes(fn(arg0(c), arg1(c)))); return cost; };
  const toFix = (lo, hi, cost, fixed) => (m, c) => {
    const n = fixed ? r(c, 2) | 0 : 0;
    set(c, 0, Number(BigInt.asUintN(32, floorFix(arg0(c), n, lo, hi))));
    return cost;
  };
  const toFix64 = (lo, hi, cost, fixed) => (m, c) => {
    const n = fixed ? r(c, 2) | 0 : 0;
    out(c, split64(floorFix(arg0(c), n, lo, hi)));
    return cost;
  };
  const fromFix = (signed, cost, fixed) => (m, c) => {
    const v = signed ? BigInt(r(c, 0) | 0) : BigInt(r(c, 0));
    out(c, fixToD(v, fixed ? r(c, 1) | 0 : 0));
    return cost;
  };
  const fromFix64 = (signed, cost, fixed) => (m, c) => {
    const v = signed ? int64(r(c, 0), r(c, 1)) : uint64(r(c, 0), r(c, 1));
    out(c, fixToD(v, fixed ? r(c, 2) | 0 : 0));
    return cost;
  };
  const cmp = (flush) => (m, c) => {
    const v = flush
      ? order(arg0(c), arg1(c))
      : orderF64Bits(r(c, 0), r(c, 1), r(c, 2), r(c, 3));
    setOrder(c, v);
    return flush ? COST.dcmpCombined : COST.dcmp;
  };
  const sincos = (cost) => (m, c) => {
    const x = arg0(c);
    out(c, dRes(Math.sin(x)));
    const [lo, hi] = dRes(Math.cos(x));
    set(c, 2, lo);
    set(c, 3, hi);
    return cost;
  };
  return [
    /* 0x00 */ d2(addRom, COST.dadd),
    /* 0x04 */ d2((a, b) => addRom(a, -b), COST.dsub),
    /* 0x08 */ d2(mulRom, COST.dmul),
    /* 0x0c */ d2(divRom, COST.ddiv),
    /* 0x10 */ cmp(false),
    /* 0x14 */ cmp(false),
    /* 0x18 */ d1(sqrtRom, COST.dsqrt),
    /* 0x1c */ toFix(I32_MIN, I32_MAX, COST.double2int, false),
    /* 0x20 */ toFix(I32_MIN, I32_MAX, COST.double2fix, true),
    /* 0x24 */ toFix(0n, U32_MAX, COST.double2uint, false),
    /* 0x28 */ toFix(0n, U32_MAX, COST.double2ufix, true),
    /* 0x2c */ fromFix(true, COST.int2double, false),
    /* 0x30 */ fromFix(true, COST.fix2double, true),
    /* 0x34 */ fromFix(false, COST.uint2double, false),
    /* 0x38 */ fromFix(false, COST.ufix2double, true),
    /* 0x3c */ d1(Math.cos, COST.dcos),
    /* 0x40 */ sincos(COST.dsin),
    /* 0x44 */ d1(Math.tan, COST.dtan),
    /* 0x48 */ sincos(COST.dsincos),
    /* 0x4c */ d1(Math.exp, COST.dexp),
    /* 0x50 */ d1(lnRomD, COST.dln),
    /* 0x54 */ cmp(true),
    /* 0x58 */ d2(Math.atan2, COST.datan2),
    /* 0x5c */ fromFix64(true, COST.int642double, false),
    /* 0x60 */ fromFix64(true, COST.fix642double, true),
    /* 0x64 */ fromFix64(false, COST.uint642double, false),
    /* 0x68 */ fromFix64(false, COST.ufix642double, true),
    /* 0x6c */ toFix64(I64_MIN, I64_MAX, COST.double2int64, false),
    /* 0x70 */ toFix64(I64_MIN, I64_MAX, COST.double2fix64, true),
    /* 0x74 */ toFix64(0n, U64_MAX, COST.double2uint64, false),
    /* 0x78 */ toFix64(0n, U64_MAX, COST.double2ufix64, true),
    /* 0x7c */ (m, c) => { set(c, 0, fRes(arg0(c))); return COST.double2float; },
  ];
}

// --- createRom ----------------------------------------------------------------------------------
function createRom({ flash, bootrom, onUsbBoot, onCycles } = {}) {
  const stubs = new Map(); // address of a bkpt -> { code, run }
  let nextCode = 0x80; // our bkpt numbers: pico-sdk's own breakpoints use bkpt #0
  let image;

  // flash erase and program: through the `flash` option, else straight into rp2040.flash
  const flashErase = (m, c) => {
    const offset = (r(c, 0) % FLASH_WINDOW) & ~0xfff;
    // whole 4 KB sectors, as the chip erases, and no further than the 16 MB the XIP window maps
    const count = Math.min(Math.ceil(r(c, 1) / 4096) * 4096, FLASH_WINDOW - offset);
    if (count > 0) {
      if (flash) flash.erase(offset, count);
      else m.flash.fill(0xff, offset, offset + count);
    }
    return 60 + 20 * (count >>> 12);
  };
  const flashProgram = (m, c) => {
    const offset = r(c, 0) % FLASH_WINDOW;
    const count = Math.min(r(c, 2), FLASH_WINDOW - offset);
    if (count > 0) {
      const data = readBytes(m, r(c, 1), count);
      if (flash) {
        flash.program(offset, data);
      } else {
        for (let i = 0; i < count; i++) m.flash[offset + i] &= data[i]; // NOR programming clears bits
      }
    }
    return 60 + count * 2;
  };

  function addStub(addr, run) {
    const code = nextCode++;
    if (code > 0xff) throw new Error('rom.js: out of bkpt numbers');
    image.set16(addr, THUMB_BKPT | code);
    image.set16(addr + 2, THUMB_BX_LR);
    stubs.set(addr, { code, run });
    return addr;
  }

  if (bootrom) {
    image = new RomImage(new Uint32Array(bootrom)); // a copy: the caller's array stays as it was
    const funcTable = image.u16(0x14);
    for (const [name, run] of [['RE', flashErase], ['RP', flashProgram]]) {
      const entry = image.lookup(funcTable, tableCode(name)) & ~1;
      if (!entry) throw new Error(`rom.js: the ROM image has no '${name}' function`);
      addStub(entry, run);
    }
  } else {
    image = buildImage();
  }

  function buildImage() {
    image = new RomImage(new Uint32Array(ROM_BYTES / 4));
    // Layout (all below 64 KB, as the 16-bit table pointers require):
    //   0x000 vectors, magic, table pointers
    //   0x040 strings and GR
    //   0x100 function table, data table
    //   0x200 the float-table size byte, soft-float table, soft-double table
    //   0x400 stubs, 4 bytes each
    //   0x800 plain Thumb code (dead loop, debug trampoline)
    const FUNC_TABLE = 0x100;
    const DATA_TABLE = 0x180;
    const SF_TABLE = 0x204; // 0x202 holds its size in words: pico-sdk checks the byte before it
    const SD_TABLE = SF_TABLE + 0x80;
    const CODE = 0x800;
    let stubAt = 0x400;
    const stub = (run) => {
      const a = addStub(stubAt, run);
      stubAt += 4;
      return a;
    };

    // plain code: the ROM's "dead" loop, where a halted core sleeps
    const DEAD = CODE;
    image.set16(DEAD, THUMB_WFI);
    image.set16(DEAD + 2, 0xe7fd); // b DEAD
    // debug trampoline: call the function in r7 (thumb bit forced), then stop for the debugger
    const DT = CODE + 4;
    image.set16(DT, 0x2601); // movs r6, #1
    image.set16(DT + 2, 0x4337); // orrs r7, r6
    image.set16(DT + 4, 0x47b8); // blx r7
    const DE = DT + 6;
    image.set16(DE, THUMB_BKPT | 0); // bkpt #0: not ours, so onBreak reports it unhandled
    image.set16(DE + 2, 0xe7fa); // b DT

    const halt = (m, c) => {
      c.PM = true; // the chip would be rebooting: nothing of the firmware runs any more
      c.PC = DEAD;
      return 10;
    };
    const reset = stub((m, c) => boot(m, c));
    const bootFlash = stub((m, c) => bootFromFlash(m, c)); // where a direct-boot entry returns to
    const nmi = stub((m, c) => {
      // what the ROM's NMI handler does: clear both cores' NMI masks (SYSCFG_PROC0/1_NMI_MASK)
      m.writeUint32(0x40004000, 0);
      m.writeUint32(0x40004004, 0);
      return 10;
    });

    function boot(m, c) {
      // GPIO 26-29 are the ADC inputs: the ROM leaves their digital input buffers off
      for (let gpio = 26; gpio <= 29; gpio++) m.writeUint32(PADS_BANK0_CLR + 4 + 4 * gpio, PAD_IE);
      // watchdog scratch 4..7 "direct boot": magic, entry ^ -magic, SP, entry
      const s = [0, 1, 2, 3].map((i) => m.readUint32(WATCHDOG_SCRATCH4 + 4 * i) >>> 0);
      if (s[0] === DIRECT_BOOT_MAGIC && ((s[1] ^ s[3]) + s[0]) >>> 0 === 0) {
        m.writeUint32(WATCHDOG_SCRATCH4, 0);
        c.SP = s[2];
        c.LR = bootFlash | 1;
        c.PC = s[3] & ~1;
        return 40;
      }
      return 40 + bootFromFlash(m, c);
    }

    function bootFromFlash(m, c) {
      const boot2 = m.flash.subarray(0, BOOT2_BYTES);
      const stored = (boot2[252] | (boot2[253] << 8) | (boot2[254] << 16) | (boot2[255] << 24)) >>> 0;
      if (crc32Mpeg2(boot2.subarray(0, 252)) !== stored) {
        // no valid boot2: a real chip would come up as the BOOTSEL drive
        if (onUsbBoot) onUsbBoot({ reason: 'no valid boot2 in flash', gpioActivityPinMask: 0, disableInterfaceMask: 0 });
        return halt(m, c);
      }
      m.sram.set(boot2, BOOT2_BASE - SRAM_BASE);
      c.SP = BOOT2_BASE; // boot2 pushes on entry: the stack must stay below it
      c.LR = 0; // boot2 then jumps through the vector table at 0x10000100
      c.PC = BOOT2_BASE;
      // a rough estimate of the ROM's boot work (strap-check delay loops, reading 256 bytes over SPI,
      // the CRC); the chip does it on its ~6.5 MHz ring oscillator, which is not modelled here
      return 25000;
    }

    const cost = (n) => () => n;
    const bitop = (name, fn) => (m, c) => { set(c, 0, fn(r(c, 0))); return BITOP_COST[name]; };
    const functions = {
      P3: bitop('P3', (v) => { let n = 0; for (; v; v &= v - 1) n++; return n; }),
      R3: bitop('R3', (v) => { let o = 0; for (let i = 0; i < 32; i++) o = (o << 1) | ((v >>> i) & 1); return o; }),
      L3: bitop('L3', (v) => Math.clz32(v)),
      T3: bitop('T3', (v) => (v === 0 ? 32 : 31 - Math.clz32(v & -v))),
      MS: (m, c) => memset(m, c, false),
      S4: (m, c) => memset(m, c, true),
      MC: (m, c) => memcpy(m, c, false),
      C4: (m, c) => memcpy(m, c, true),
      UB: (m, c) => {
        if (onUsbBoot) onUsbBoot({ reason: 'reset_to_usb_boot', gpioActivityPinMask: r(c, 0), disableInterfaceMask: r(c, 1) });
        return halt(m, c);
      },
      WV: halt,
      IF: cost(40),
      EX: cost(200),
      RE: flashErase,
      RP: flashProgram,
      FC: cost(30),
      CX: cost(100),
    };

    const stubOf = {};
    for (const [name, run] of Object.entries(functions)) stubOf[name] = stub(run);
    const lookup = stub((m, c) => {
      // rom_table_lookup(table, code): a table of (code, 16-bit value) pairs ending in code 0
      let a = r(c, 0);
      const want = r(c, 1) & 0xffff;
      let scanned = 0;
      let found = 0;
      for (; scanned < 256; ) {
        const k = m.readUint16(a);
        scanned++;
        if (k === 0) break;
        if (k === want) {
          found = m.readUint16(a + 2);
          break;
        }
        a += 4;
      }
      set(c, 0, found);
      return 8 + 9 * scanned;
    });

    const sfStart = stubAt;
    const sf = floatRoutines().map(stub);
    const sfEnd = stubAt;
    const sd = doubleRoutines().map(stub);
    const sdEnd = stubAt;

    // vectors and the well-known header
    image.set32(0x00, BOOT2_BASE);
    image.set32(0x04, reset | 1);
    image.set32(0x08, nmi | 1);
    image.set32(0x0c, DEAD | 1); // HardFault while still in the ROM: sleep, as the ROM does
    image.set8(0x10, 'M'.charCodeAt(0));
    image.set8(0x11, 'u'.charCodeAt(0));
    image.set8(0x12, 1); // compatibility version of the tables
    image.set8(0x13, 3); // ROM version 3 = RP2040-B2: pico-sdk then uses every table entry as is
    image.set16(0x14, FUNC_TABLE);
    image.set16(0x16, DATA_TABLE);
    image.set16(0x18, lookup | 1);

    // data
    const GR = 0x40;
    image.set32(GR, 0x0000e1e0); // "git revision": a marker of this emulation, no real commit
    const CR = 0x44;
    const text = 'pegboard: high-level emulation of the RP2040 boot ROM';
    for (let i = 0; i < text.length; i++) image.set8(CR + i, text.charCodeAt(i));
    image.set8(CR + text.length, 0);
    image.set8(SF_TABLE - 2, sf.length);
    sf.forEach((a, i) => image.set32(SF_TABLE + 4 * i, a | 1));
    sd.forEach((a, i) => image.set32(SD_TABLE + 4 * i, a | 1));

    let at = FUNC_TABLE;
    const entry = (name, value) => {
      image.set16(at, tableCode(name));
      image.set16(at + 2, value);
      at += 4;
    };
    for (const name of ['P3', 'R3', 'L3', 'T3', 'MS', 'S4', 'MC', 'C4', 'UB']) entry(name, stubOf[name] | 1);
    entry('DT', DT | 1);
    entry('DE', DE | 1);
    entry('WV', stubOf.WV | 1);
    for (const name of ['IF', 'EX', 'RE', 'RP', 'FC', 'CX']) entry(name, stubOf[name] | 1);
    image.set16(at, 0);
    if (at >= DATA_TABLE) throw new Error('rom.js: function table overflow');

    at = DATA_TABLE;
    entry('GR', GR);
    entry('CR', CR);
    entry('SF', SF_TABLE);
    entry('SD', SD_TABLE);
    entry('FZ', SF_TABLE - 2);
    entry('FS', sfStart);
    entry('FE', sfEnd);
    entry('DS', sfEnd);
    entry('DE', sdEnd);
    image.set16(at, 0);
    if (at >= SF_TABLE - 2) throw new Error('rom.js: data table overflow');
    if (stubAt > CODE) throw new Error('rom.js: stub area overflow');
    return image;
  }

  function memset(m, c, aligned) {
    const ptr = r(c, 0);
    const n = r(c, 2);
    if (n > 0) {
      const s = sramSpan(ptr, n);
      if (s >= 0) m.sram.fill(r(c, 1) & 0xff, s, s + n);
      else writeBytes(m, ptr, new Uint8Array(n).fill(r(c, 1) & 0xff));
    }
    return memsetCost(n, aligned); // r0 (ptr) is returned unchanged
  }
  function memcpy(m, c, aligned) {
    const dst = r(c, 0);
    const src = r(c, 1);
    const n = r(c, 2);
    if (n > 0) writeBytes(m, dst, readBytes(m, src, n));
    return memcpyCost(n, ((dst ^ src) & 3) === 0, aligned);
  }

  function account(m, cycles) {
    m.core.cycles += cycles;
    if (onCycles) onCycles(cycles);
    else if (m.clock && typeof m.clock.tick === 'function') m.clock.tick((cycles * 1e9) / (m.clkSys || 125e6));
  }

  return {
    image: image.words,
    onBreak(m, code) {
      const core = m.core;
      const at = (core.PC - 2) >>> 0; // rp2040js has already stepped past the bkpt
      const s = stubs.get(at);
      if (!s || s.code !== code) return false; // not one of ours: the firmware's own breakpoint
      core.breakRewind = 0; // handled: nothing for a debugger to rewind to
      account(m, s.run(m, core));
      return true;
    },
  };
}

module.exports = { createRom };
