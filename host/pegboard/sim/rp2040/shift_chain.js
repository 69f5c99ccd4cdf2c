// A chain of 74HC165 parallel-in shift registers on three pins, as hardware/README.md wires it: chip 1
// drives the data pin (its QH), chip 2's QH goes into chip 1's SER, the last chip's SER is grounded.
// Nexperia 74HC165 data sheet, function table: PL low loads the inputs A..H (QH follows input H at
// once); with PL high, a rising edge on CP shifts every stage one place toward QH (SER into A).
// Inputs no hole uses sit high (the no-peg level of an active-low sensor).
'use strict';

const LETTERS = 'ABCDEFGH';

class ShiftChain {
  // config: { clock, data, latch: GPIO numbers, wiring: [[chip, letter] per hole] }; pegs(): bit i a peg in hole i+1
  constructor(mcu, config, pegs) {
    this.mcu = mcu;
    this.config = config;
    this.pegs = pegs;
    this.chips = Math.max(1, ...config.wiring.map((w) => w[0]));
    this.stages = new Array(this.chips * 8).fill(1); // stage 0 = chip 1's H (on the data pin), then G..A, chip 2's H..
    this.lastClock = false;
    const clock = mcu.gpio[config.clock];
    const latch = mcu.gpio[config.latch];
    this.clockPin = clock;
    this.latchPin = latch;
    clock.addListener(() => this.changed());
    latch.addListener(() => this.changed());
  }

  owns(gpio) {
    return gpio === this.config.data;
  }

  inputs() {
    const bits = new Array(this.chips * 8).fill(1);
    const pegs = this.pegs();
    this.config.wiring.forEach(([chip, letter], hole) => {
      bits[(chip - 1) * 8 + 7 - LETTERS.indexOf(letter)] = (pegs >> hole) & 1 ? 0 : 1;
    });
    return bits;
  }

  level(pin) {
    return pin.outputEnable ? pin.outputValue : false;
  }

  changed() {
    const clock = this.level(this.clockPin);
    const load = !this.level(this.latchPin);
    if (load) {
      this.stages = this.inputs();
    } else if (clock && !this.lastClock) {
      this.stages.shift();
      this.stages.push(0); // the last chip's SER is grounded
    }
    this.lastClock = clock;
    this.drive();
  }

  // while loading, QH follows input H as the pegs change
  poll() {
    if (!this.level(this.latchPin)) {
      this.stages = this.inputs();
      this.drive();
    }
  }

  drive() {
    const data = this.mcu.gpio[this.config.data];
    const level = !!this.stages[0];
    if (data.rawInputValue !== level) data.setInputValue(level);
  }
}

module.exports = { ShiftChain };
