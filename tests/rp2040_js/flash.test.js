// The flash model: NOR semantics and the data sheet's times (host/pegboard/sim/rp2040/flash.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { Flash, SECTOR_ERASE_NS, PAGE_PROGRAM_NS } = require('../../host/pegboard/sim/rp2040/flash.js');

function rig() {
  const r = { bytes: new Uint8Array(16 * 4096).fill(0x5a), written: [], busy: 0, erases: 0 };
  r.flash = new Flash(r.bytes, 8 * 4096, {
    written: (o, n) => r.written.push([o, n]),
    busy: (ns, erase) => { r.busy += ns; r.erases += erase ? 1 : 0; },
  });
  return r;
}

test('an erase sets whole sectors to 0xFF and takes 45 ms each', () => {
  const r = rig();
  r.flash.erase(4096 + 100, 10); // inside sector 1: the whole sector goes
  assert.ok(r.bytes.subarray(4096, 8192).every((b) => b === 0xff));
  assert.strictEqual(r.bytes[4095], 0x5a);
  assert.strictEqual(r.bytes[8192], 0x5a);
  assert.deepStrictEqual(r.written, [[4096, 4096]]);
  assert.strictEqual(r.busy, SECTOR_ERASE_NS);
  assert.strictEqual(r.erases, 1); // said to be an erase: the harness marks the pass as the NVM's rewrite
});

test('a program clears bits only, 0.4 ms a page touched', () => {
  const r = rig();
  r.flash.erase(0, 4096);
  r.busy = 0;
  r.erases = 0;
  r.flash.program(250, Uint8Array.from([0xf0, 0x0f, 0x33, 0x55, 0xaa, 0x00, 0xff, 0x81, 0x18]));
  r.flash.program(250, Uint8Array.from([0x3c]));
  assert.strictEqual(r.bytes[250], 0xf0 & 0x3c);
  assert.strictEqual(r.bytes[251], 0x0f);
  assert.strictEqual(r.bytes[256], 0xff);
  assert.strictEqual(r.busy, 3 * PAGE_PROGRAM_NS); // 250..258 spans pages 0 and 1, then page 0
  assert.strictEqual(r.erases, 0);
});

test('nothing outside the chip is written', () => {
  const r = rig();
  assert.throws(() => r.flash.erase(8 * 4096, 4096), RangeError);
  assert.throws(() => r.flash.program(8 * 4096 - 1, Uint8Array.from([0, 0])), RangeError);
  assert.deepStrictEqual(r.written, []);
});
