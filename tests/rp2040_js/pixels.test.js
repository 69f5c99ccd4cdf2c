// The pixel pin decoded as a WS2812B would read it (host/pegboard/sim/rp2040/pixels.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { PixelDecoder } = require('../../host/pegboard/sim/rp2040/pixels.js');

// a fake pin driven by the test, on a clock the test sets
function rig() {
  const r = { now: 0, frames: [], listeners: [], level: false };
  const pin = {
    get outputEnable() { return true; },
    get outputValue() { return r.level; },
    addListener(fn) { r.listeners.push(fn); },
  };
  r.decoder = new PixelDecoder({ gpio: { 16: pin } }, 16, () => r.now, (bytes) => r.frames.push(Array.from(bytes)));
  r.set = (level) => { r.level = level; r.listeners.forEach((fn) => fn()); };
  // one byte as the WS2812B wants it: per bit, high for T0H 400 ns or T1H 800 ns in a 1250 ns period
  r.byte = (b) => {
    for (let i = 7; i >= 0; i--) {
      const high = (b >> i) & 1 ? 800 : 400;
      r.set(true); r.now += high; r.set(false); r.now += 1250 - high;
    }
  };
  return r;
}

test('bytes from the high times, a frame at the reset gap', () => {
  const r = rig();
  r.now = 100000;
  [0x0c, 0x08, 0x18, 0xff, 0x00, 0xa5].forEach(r.byte);
  assert.deepStrictEqual(r.frames, []); // no gap yet: the frame may go on
  r.now += 49000;
  r.decoder.poll();
  assert.deepStrictEqual(r.frames, []); // 49 us low is not a reset
  r.now += 2000;
  r.decoder.poll();
  assert.deepStrictEqual(r.frames, [[0x0c, 0x08, 0x18, 0xff, 0x00, 0xa5]]);
});

test('a reset gap between two frames splits them, even without a poll', () => {
  const r = rig();
  r.now = 100000;
  r.byte(1); r.now += 60000; r.byte(2); r.now += 60000;
  r.decoder.poll();
  assert.deepStrictEqual(r.frames, [[1], [2]]);
});

test('the edges of a running PIO carry its own time', () => {
  const r = rig();
  r.now = 100000;
  r.decoder.pioTime(100000);
  r.set(true);
  r.decoder.pioTime(100000 + 800);
  r.set(false); // 800 ns high by the PIO's time: a 1, though the chip's clock did not move
  r.decoder.pioTime(null);
  r.now += 1250;
  r.byte(0); // eight more bits: the first byte is 1000 0000, then a stray bit short of a byte
  r.now += 100000;
  r.decoder.poll();
  assert.deepStrictEqual(r.frames, [[0x80]]);
});

test('stray bits short of a byte are not a pixel', () => {
  const r = rig();
  r.now = 100000;
  r.byte(0x81);
  r.set(true); r.now += 800; r.set(false); // a ninth bit
  r.now += 100000;
  r.decoder.poll();
  assert.deepStrictEqual(r.frames, [[0x81]]);
});
