// Our boot ROM stand-in (host/pegboard/sim/rp2040/rom.js) on a real rp2040js core: the header and
// tables pico-sdk looks things up in, the stubs' results, flash writes, the boot2 reset path, time.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { RP2040 } = require('rp2040js');
const { createRom } = require('../../host/pegboard/sim/rp2040/rom.js');

const RETURN = 0x20030000; // where the stubs "return" to: the run stops before executing it
const BOOT2_BASE = 0x20041f00;
const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8); // pico-sdk's ROM_TABLE_CODE

function rig(options = {}) {
  const r = { erased: [], programmed: [], cycles: [], usbBoots: [] };
  r.rom = createRom({
    flash: { erase: (o, n) => r.erased.push([o, n]), program: (o, b) => r.programmed.push([o, Array.from(b)]) },
    onUsbBoot: (info) => r.usbBoots.push(info),
    onCycles: (n) => r.cycles.push(n),
    ...options,
  });
  r.mcu = new RP2040();
  r.mcu.loadBootrom(r.rom.image);
  r.mcu.onBreak = (n) => assert.ok(r.rom.onBreak(r.mcu, n), `unhandled bkpt #${n}`);
  return r;
}

// calls a ROM routine as firmware would: arguments in r0-r3, LR to come back to; returns r0..r3
function call(r, fn, ...args) {
  const c = r.mcu.core;
  args.forEach((v, i) => { c.registers[i] = v >>> 0; });
  c.LR = RETURN | 1;
  c.PC = fn & ~1;
  for (let n = 0; n < 100 && c.PC !== RETURN; n++) r.mcu.step();
  assert.strictEqual(c.PC, RETURN, 'the routine returned');
  return [0, 1, 2, 3].map((i) => c.registers[i] >>> 0);
}

// rom_func_lookup / rom_data_lookup as pico-sdk does them: the lookup routine at *0x18 on the table
const hword = (r, a) => r.mcu.readUint16(a);
const func = (r, name) => call(r, hword(r, 0x18), hword(r, 0x14), code(name))[0];
const data = (r, name) => call(r, hword(r, 0x18), hword(r, 0x16), code(name))[0];
const sf = (r, offset, ...args) => call(r, r.mcu.readUint32(data(r, 'SF') + offset), ...args);
const sd = (r, offset, ...args) => call(r, r.mcu.readUint32(data(r, 'SD') + offset), ...args);

const dv = new DataView(new ArrayBuffer(8));
const f32 = (x) => { dv.setFloat32(0, x); return dv.getUint32(0); };
const asF32 = (u) => { dv.setUint32(0, u); return dv.getFloat32(0); };
const f64 = (x) => { dv.setFloat64(0, x); return [dv.getUint32(4), dv.getUint32(0)]; }; // [lo, hi]
const asF64 = (lo, hi) => { dv.setUint32(0, hi); dv.setUint32(4, lo); return dv.getFloat64(0); };

// CRC-32/MPEG-2, the boot2 checksum (datasheet 2.8.1.3), written here independently of rom.js
function crc32Mpeg2(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

test('the header is Mu 1 with version 3, and the lookup finds every code pico-sdk uses', () => {
  const r = rig();
  assert.deepStrictEqual([0x10, 0x11, 0x12].map((a) => r.mcu.readUint8(a)), [0x4d, 0x75, 1]);
  assert.strictEqual(r.mcu.readUint8(0x13), 3); // B2: pico-sdk uses the V3 table entries as they are
  for (const name of ['MS', 'MC', 'C4', 'S4', 'P3', 'R3', 'L3', 'T3', 'IF', 'EX', 'RE', 'RP', 'FC', 'CX', 'UB']) {
    const fn = func(r, name);
    assert.ok(fn & 1 && fn < 0x4000, `${name} is a Thumb routine in the ROM (got 0x${fn.toString(16)})`);
  }
  for (const name of ['SF', 'SD', 'CR']) assert.ok(data(r, name) > 0 && data(r, name) < 0x4000, name);
  assert.strictEqual(func(r, 'ZZ'), 0); // an unknown code is not found
  let copyright = '';
  for (let a = data(r, 'CR'), b; (b = r.mcu.readUint8(a)); a++) copyright += String.fromCharCode(b);
  assert.match(copyright, /RP2040/); // CR is a C string
});

test('memcpy (aligned and unaligned) and memset change SRAM as asked, and nothing around it', () => {
  const r = rig();
  const sram = r.mcu.sram;
  const src = Uint8Array.from({ length: 64 }, (_, i) => i * 7 + 1);
  sram.set(src, 0x1000);
  call(r, func(r, 'C4'), 0x20002000, 0x20001000, 32); // memcpy44: word-aligned, whole words
  assert.deepStrictEqual(sram.subarray(0x2000, 0x2020), src.subarray(0, 32));
  assert.strictEqual(sram[0x2020], 0);
  call(r, func(r, 'MC'), 0x20003001, 0x20001003, 37); // odd addresses, odd length
  assert.deepStrictEqual(sram.subarray(0x3001, 0x3001 + 37), src.subarray(3, 40));
  assert.deepStrictEqual([sram[0x3000], sram[0x3001 + 37]], [0, 0]);
  call(r, func(r, 'MS'), 0x20004003, 0x1a5, 10); // only the low byte of the value counts
  assert.deepStrictEqual(Array.from(sram.subarray(0x4002, 0x400e)), [0, ...Array(10).fill(0xa5), 0]);
  call(r, func(r, 'S4'), 0x20005000, 0x3c, 16);
  assert.deepStrictEqual(Array.from(sram.subarray(0x5000, 0x5011)), [...Array(16).fill(0x3c), 0]);
});

test('popcount, clz, ctz and reverse give the bit counts and the mirrored word', () => {
  const r = rig();
  const op = (name, v) => call(r, func(r, name), v)[0];
  assert.deepStrictEqual([0, 1, 0xf0f00001, 0xffffffff].map((v) => op('P3', v)), [0, 1, 9, 32]);
  assert.deepStrictEqual([0, 1, 0x00010000, 0x80000000].map((v) => op('L3', v)), [32, 31, 15, 0]);
  assert.deepStrictEqual([0, 1, 0x00000100, 0x80000000].map((v) => op('T3', v)), [32, 0, 8, 31]);
  assert.deepStrictEqual([1, 0x12345678, 0xffff0000].map((v) => op('R3', v)), [0x80000000, 0x1e6a2c48, 0x0000ffff]);
});

test('fadd, fmul, fdiv and fsqrt through SF round as Math.fround does', () => {
  const r = rig();
  // then rounding edges: (1+2^-23)*1.5 and (1+3*2^-23)*1.5 are exact ties, to even one goes up and one
  // down; 1.5/(1+2^-23) lies just above a midpoint, (1.5+2^-22)/(1+2^-23) just below: any bias misrounds
  const pairs = [[1.5, 2.25], [0.1, 0.2], [-3.7e10, 1.3e-5], [1 / 3, 3], [1 + 2 ** -23, 1.5],
    [1 + 3 * 2 ** -23, 1.5], [1.5, 1 + 2 ** -23], [1.5 + 2 ** -22, 1 + 2 ** -23]].map(([a, b]) => [Math.fround(a), Math.fround(b)]);
  for (const [a, b] of pairs) {
    assert.strictEqual(asF32(sf(r, 0x00, f32(a), f32(b))[0]), Math.fround(a + b), `${a} + ${b}`);
    assert.strictEqual(asF32(sf(r, 0x08, f32(a), f32(b))[0]), Math.fround(a * b), `${a} * ${b}`);
    assert.strictEqual(asF32(sf(r, 0x0c, f32(a), f32(b))[0]), Math.fround(a / b), `${a} / ${b}`);
  }
  for (const x of [2, 0.1, 12345.678]) assert.strictEqual(asF32(sf(r, 0x18, f32(x))[0]), Math.fround(Math.sqrt(Math.fround(x))));
});

test('float2int rounds toward -infinity and clamps; a subnormal input counts as zero', () => {
  const r = rig();
  const toInt = (x) => sf(r, 0x1c, f32(x))[0] | 0;
  assert.deepStrictEqual([-2.5, 2.5, -0.25, 7.999].map(toInt), [-3, 2, -1, 7]); // floor, not C's trunc
  assert.deepStrictEqual([1e10, -1e10, Infinity, -Infinity].map(toInt), [2 ** 31 - 1, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31)]);
  // 2^-127 * 2^60 is 2^-67 in IEEE; the ROM reads the subnormal as 0, so the product is +0
  assert.strictEqual(sf(r, 0x08, 0x00400000, f32(2 ** 60))[0], 0);
  assert.strictEqual(sf(r, 0x00, 0x00000001, 0)[0], 0);
});

test('dmul and ddiv through SD give the correctly rounded double', () => {
  const r = rig();
  for (const [a, b] of [[0.1, 3], [1e300, 1e-7], [-7.25, 1 / 3]]) {
    const [alo, ahi] = f64(a);
    const [blo, bhi] = f64(b);
    const mul = sd(r, 0x08, alo, ahi, blo, bhi);
    assert.strictEqual(asF64(mul[0], mul[1]), a * b, `${a} * ${b}`);
    const div = sd(r, 0x0c, alo, ahi, blo, bhi);
    assert.strictEqual(asF64(div[0], div[1]), a / b, `${a} / ${b}`);
  }
});

test('RE erases whole 4 KB sectors and RP programs the SRAM bytes, both at offsets from flash start', () => {
  const r = rig();
  call(r, func(r, 'RE'), 0x5000, 0x1001, 4096, 0x20); // flash_range_erase(offs, count, block, cmd)
  call(r, func(r, 'RE'), 0x7123, 100, 4096, 0x20); // inside a sector: that sector, whole
  assert.deepStrictEqual(r.erased, [[0x5000, 0x2000], [0x7000, 0x1000]]);
  const bytes = Array.from({ length: 256 }, (_, i) => (i * 13) & 0xff);
  r.mcu.sram.set(bytes, 0x8000);
  call(r, func(r, 'RP'), 0x2100, 0x20008000, 256); // flash_range_program(offs, data, count)
  assert.deepStrictEqual(r.programmed, [[0x2100, bytes]]);
});

// 256 bytes of boot2 whose last word is the CRC of the first 252, as the ROM checks before entering it
function boot2(good = true) {
  const b = Uint8Array.from({ length: 256 }, (_, i) => (i * 31 + 5) & 0xff);
  const crc = crc32Mpeg2(b.subarray(0, 252)) ^ (good ? 0 : 1);
  new DataView(b.buffer).setUint32(252, crc, true);
  return b;
}

test('reset with a valid boot2 copies it to 0x20041f00 and enters it with LR = 0', () => {
  assert.strictEqual(crc32Mpeg2(Buffer.from('123456789')), 0x0376e6e7); // the CRC's check value
  const r = rig();
  r.mcu.flash.set(boot2()); // after loadBootrom, which erases the flash
  r.mcu.core.reset();
  for (let n = 0; n < 100 && r.mcu.core.PC !== BOOT2_BASE; n++) r.mcu.step();
  assert.strictEqual(r.mcu.core.PC, BOOT2_BASE);
  assert.strictEqual(r.mcu.core.LR >>> 0, 0);
  assert.deepStrictEqual(r.mcu.sram.subarray(BOOT2_BASE - 0x20000000), boot2());
  assert.deepStrictEqual(r.usbBoots, []);
});

test('reset with a bad boot2 CRC goes to USB boot instead', () => {
  const r = rig();
  r.mcu.flash.set(boot2(false));
  r.mcu.core.reset();
  for (let n = 0; n < 100 && r.usbBoots.length === 0; n++) r.mcu.step();
  assert.strictEqual(r.usbBoots.length, 1);
  assert.notStrictEqual(r.mcu.core.PC, BOOT2_BASE);
});

test('a float routine reports a positive cycle cost to onCycles', () => {
  const r = rig();
  const fdiv = r.mcu.readUint32(data(r, 'SF') + 0x0c);
  r.cycles.length = 0; // the lookup costs cycles too: count fdiv's alone
  call(r, fdiv, f32(1), f32(3));
  assert.strictEqual(r.cycles.length, 1);
  assert.ok(r.cycles[0] > 0);
});
