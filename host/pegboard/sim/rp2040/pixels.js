// The NeoPixel chain's view of the pixel pin: WS2812B bits from how long the pin stays high, frames
// from the reset gap. Worldsemi WS2812B data sheet (V5), "Data transfer time": T0H 0.4 us, T1H
// 0.8 us (each +-150 ns), a bit period of 1.25 us, and RES (low) above 50 us latches the data
// (280 us on newer parts). A high time over 0.6 us is a 1; the frame ends 50 us into a low.
'use strict';

const ONE_ABOVE_NS = 600;
const RESET_NS = 50000;

class PixelDecoder {
  // mcu: an rp2040js RP2040; gpio: the pixel pin's number (null: none); now(): the time in ns of
  // what is happening (the PIO's own time while it runs, else the chip's clock); onFrame(bytes)
  constructor(mcu, gpio, now, onFrame) {
    this.now = now;
    this.onFrame = onFrame;
    this.bits = [];
    this.high = false;
    this.roseAt = 0;
    this.fellAt = 0;
    this.pioNs = null;
    this.badBits = 0; // high times that are neither a 0 nor a 1 (over a bit period): not a WS2812 signal
    if (gpio === null || gpio === undefined) return;
    const pin = mcu.gpio[gpio];
    this.pin = pin;
    pin.addListener(() => this.edge(pin.outputEnable && pin.outputValue));
  }

  // the PIO is stepping (null: it is not): its time is the time of the edges it makes
  pioTime(ns) {
    this.pioNs = ns;
  }

  time() {
    return this.pioNs !== null ? this.pioNs : this.now();
  }

  edge(level) {
    if (level === this.high) return;
    const t = this.time();
    this.high = level;
    if (level) {
      if (t - this.fellAt >= RESET_NS) this.flush();
      this.roseAt = t;
    } else {
      this.fellAt = t;
      const width = t - this.roseAt;
      if (width > 1250 + 150) this.badBits++;
      this.bits.push(width > ONE_ABOVE_NS ? 1 : 0);
    }
  }

  // called by the loop: a frame is complete once the pin has been low for the reset time
  poll() {
    if (!this.high && this.bits.length && this.now() - this.fellAt >= RESET_NS) this.flush();
  }

  flush() {
    const whole = this.bits.length - (this.bits.length % 8);
    if (whole) {
      const bytes = new Uint8Array(whole / 8);
      for (let i = 0; i < whole; i++) bytes[i >> 3] = (bytes[i >> 3] << 1) | this.bits[i];
      this.onFrame(bytes);
    }
    this.bits = [];
  }
}

module.exports = { PixelDecoder, ONE_ABOVE_NS, RESET_NS };
