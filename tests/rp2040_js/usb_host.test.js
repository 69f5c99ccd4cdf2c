// The harness's USB host against a fake device controller: what it asks, in order, and where the
// bytes of each CDC function go (host/pegboard/sim/rp2040/usb_host.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { UsbHost, cdcFunctions } = require('../../host/pegboard/sim/rp2040/usb_host.js');

// A configuration like CircuitPython's with boot.py's usb_cdc.enable(console=True, data=True): the
// console's CDC (interfaces 0, 1; bulk EP 0x82/0x02), a mass-storage interface (2; EP 0x83/0x03),
// the data port's CDC (interfaces 3, 4; bulk EP 0x85/0x05).
function descriptor() {
  const d = [];
  const iface = (n, cls, eps) => d.push(9, 4, n, 0, eps, cls, 0, 0, 0);
  const ep = (addr, attr) => d.push(7, 5, addr, attr, 64, 0, 0);
  d.push(9, 2, 0, 0, 5, 1, 0, 0x80, 50);
  d.push(8, 11, 0, 2, 2, 2, 0, 0); // interface association
  iface(0, 2, 1); d.push(5, 0x24, 0, 0x10, 1); ep(0x81, 3);
  iface(1, 10, 2); ep(0x02, 2); ep(0x82, 2);
  iface(2, 8, 2); ep(0x03, 2); ep(0x83, 2);
  iface(3, 2, 1); ep(0x84, 3);
  iface(4, 10, 2); ep(0x05, 2); ep(0x85, 2);
  d[2] = d.length & 0xff; d[3] = d.length >> 8;
  return Uint8Array.from(d);
}

function fakeController() {
  const c = {
    setups: [], reads: [], resets: 0, dpram: [],
    resetDevice() { c.resets++; },
    sendSetupPacket(p) { c.setups.push(Array.from(p)); },
    endpointReadDone(ep, buf) { c.reads.push([ep, Array.from(buf)]); },
    DPRAMUpdated(offset, value) { c.dpram.push([offset, value]); },
  };
  return c;
}

// plays the device's side of each control transfer the host starts
function answer(c, host, desc) {
  for (let guard = 0; guard < 20 && c.setups.length > c.answered; guard++) {
    const s = c.setups[c.answered++];
    if (s[1] === 6) { // GET_DESCRIPTOR: the bytes asked for, in 64-byte packets
      const want = s[6] | (s[7] << 8);
      const data = desc.subarray(0, want);
      for (let i = 0; i < data.length; i += 64) c.usb.onEndpointWrite(0, data.subarray(i, i + 64));
    } else {
      c.usb.onEndpointWrite(0, new Uint8Array(0)); // status stage
    }
  }
}

function enumerated(events = {}) {
  const c = fakeController();
  c.usb = c;
  c.answered = 0;
  const got = { console: [], data: [], taken: [] };
  const host = new UsbHost(c, {
    onData: (port, bytes) => got[port].push(...bytes),
    onTaken: (port, n) => got.taken.push([port, n]),
    ...events,
  });
  c.onResetReceived();
  answer(c, host, descriptor());
  return { c, host, got };
}

test('finds both CDC functions, the console first', () => {
  assert.deepStrictEqual(cdcFunctions(descriptor()), [
    { comm: 0, data: 1, in: 2, out: 2 },
    { comm: 3, data: 4, in: 5, out: 5 },
  ]);
});

test('enumerates: address, configuration descriptor twice, configuration, then DTR on each CDC', () => {
  const { c, host } = enumerated();
  const total = descriptor().length;
  assert.deepStrictEqual(c.setups.map((s) => s.slice(0, 2).concat([s[2] | (s[3] << 8), s[4], s[6] | (s[7] << 8)])), [
    [0x00, 5, 1, 0, 0],
    [0x80, 6, 0x200, 0, 9],
    [0x80, 6, 0x200, 0, total],
    [0x00, 9, 1, 0, 0],
    [0x21, 0x22, 3, 0, 0], // SET_CONTROL_LINE_STATE DTR|RTS to the console's interface 0
    [0x21, 0x22, 3, 3, 0], // ... and to the data port's interface 3
  ]);
  assert.ok(host.configured);
});

test("the data port's bytes go out when the board arms its OUT endpoint, and are acknowledged", () => {
  const { c, host, got } = enumerated();
  host.write('data', [1, 2, 3]);
  assert.deepStrictEqual(c.reads, []); // not armed yet: the bytes wait
  c.onEndpointRead(5, 64);
  assert.deepStrictEqual(c.reads, [[5, [1, 2, 3]]]);
  assert.deepStrictEqual(got.taken, [['data', 3]]);
  c.onEndpointRead(2, 64); // the console armed: nothing was written to it
  assert.strictEqual(c.reads.length, 1);
});

test('what the board sends arrives on its own port', () => {
  const { c, got } = enumerated();
  c.onEndpointWrite(2, Uint8Array.from([0x3e, 0x3e]));
  c.onEndpointWrite(5, Uint8Array.from([0x7b]));
  assert.deepStrictEqual(got.console, [0x3e, 0x3e]);
  assert.deepStrictEqual(got.data, [0x7b]);
});

test("a held data port's IN buffer is not taken until the hold ends", () => {
  const { c, host } = enumerated();
  const inControl = 0x80 + 5 * 8; // EP5 IN's buffer control in the DPRAM
  host.setHold('data', true);
  c.usb.DPRAMUpdated(inControl, 1 << 10);
  assert.deepStrictEqual(c.dpram, []);
  c.usb.DPRAMUpdated(0x80 + 2 * 8, 1 << 10); // the console is not held
  assert.deepStrictEqual(c.dpram, [[0x80 + 2 * 8, 1 << 10]]);
  host.setHold('data', false);
  assert.deepStrictEqual(c.dpram[1], [inControl, 1 << 10]);
});

test('closing the data port drops DTR on its interface and holds its output', () => {
  const { c, host } = enumerated();
  host.setLineState('data', false);
  const last = c.setups[c.setups.length - 1];
  assert.deepStrictEqual([last[0], last[1], last[2], last[4]], [0x21, 0x22, 0, 3]);
  c.usb.DPRAMUpdated(0x80 + 5 * 8, 1 << 10);
  assert.deepStrictEqual(c.dpram, []);
});

test('a pulled cable moves nothing; put back, the bus is reset', () => {
  const { c, host } = enumerated();
  host.setCable(false);
  host.write('data', [9]);
  c.onEndpointRead(5, 64);
  assert.deepStrictEqual(c.reads, []);
  const resets = c.resets;
  host.setCable(true);
  assert.strictEqual(c.resets, resets + 1);
});
