// Two 74HC165s as keypad.ShiftRegisterKeys clocks them (host/pegboard/sim/rp2040/shift_chain.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { ShiftChain } = require('../../host/pegboard/sim/rp2040/shift_chain.js');

function rig(pegs) {
  const pins = [];
  for (let i = 0; i < 30; i++) {
    const p = { index: i, level: false, listeners: [], input: null,
      get outputEnable() { return true; }, get outputValue() { return this.level; },
      get rawInputValue() { return this.input; },
      addListener(fn) { this.listeners.push(fn); },
      setInputValue(v) { this.input = v; } };
    pins.push(p);
  }
  const set = (i, v) => { pins[i].level = v; pins[i].listeners.forEach((fn) => fn()); };
  const wiring = [[1, 'H'], [1, 'G'], [1, 'F'], [1, 'E'], [1, 'D'], [1, 'C'], [1, 'B'], [1, 'A'],
    [2, 'H'], [2, 'G'], [2, 'F'], [2, 'E'], [2, 'D'], [2, 'C'], [2, 'B']];
  const chain = new ShiftChain({ gpio: pins }, { clock: 2, data: 3, latch: 4, wiring }, () => pegs.value);
  // a scan as CircuitPython's ShiftRegisterKeys makes it: latch to value_to_latch (high), read, clock ...
  const scan = (n) => {
    set(4, false); set(4, true);
    const bits = [];
    for (let i = 0; i < n; i++) { bits.push(pins[3].input ? 1 : 0); set(2, true); set(2, false); }
    return bits;
  };
  return { chain, scan };
}

test('hole 1 is the first bit out, then holes 2..15; a peg reads low', () => {
  const pegs = { value: (1 << 0) | (1 << 8) | (1 << 14) }; // holes 1, 9, 15
  const { scan } = rig(pegs);
  const bits = scan(16);
  const expected = [];
  for (let h = 0; h < 15; h++) expected.push((pegs.value >> h) & 1 ? 0 : 1);
  expected.push(1); // chip 2's input A: no hole, tied high
  assert.deepStrictEqual(bits, expected);
});

test('past the chain the last chip\'s grounded SER shifts in zeros; a new latch reads new pegs', () => {
  const pegs = { value: 0 };
  const { scan } = rig(pegs);
  assert.deepStrictEqual(scan(18).slice(16), [0, 0]);
  pegs.value = 1 << 3;
  assert.strictEqual(scan(4)[3], 0);
});

test('the chain drives the data pin only', () => {
  const { chain } = rig({ value: 0 });
  assert.ok(chain.owns(3));
  assert.ok(!chain.owns(2) && !chain.owns(4) && !chain.owns(15));
});
