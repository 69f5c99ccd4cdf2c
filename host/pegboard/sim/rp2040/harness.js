// The rp2040 runtime's board: CircuitPython's own RP2040 binary on rp2040js, wired as a pegboard is,
// speaking the simulator's child wire (host/pegboard/sim/firmware_child.py): JSON lines in on stdin,
// "\x1e"-prefixed JSON lines out on stdout, the console (the REPL's CDC) as plain lines.
//
//   node harness.js CONFIG.json
//
// CONFIG: { flash: path of the 2 MB flash image (read, and written through on every erase and
// program, so a power cycle keeps the drive and the NVM), nvm: [offset, size], sensors: [GPIO of
// hole 1, ...], button: GPIO, pixel: GPIO, pixels: count, shift: null | {clock, data, latch,
// chips, wiring: [[chip, input] per hole]} }.
//
// What rp2040js leaves to its user, done here (docs/chip-runtime.md, "The rp2040 runtime"):
//  - time: one loop steps the core, the PIO and the clock's alarms together in emulated time, paced
//    to the wall clock when the chip is idle; what the simulator sends is applied at its wall time
//    mapped to emulated time, so a hand's 200 ms stays 200 ms to the chip even when it runs slowly;
//  - WFI with an interrupt already pending wakes (rp2040js waited for the next alarm);
//  - pins read as wired: the sensors drive theirs, the button ties its pin low while pressed and
//    floats otherwise, where only the pad's pull sets the level;
//  - the PIO runs on the chip's clock, not on a timer of its own: the NeoPixel bits are decoded from
//    the pixel pin's high times and a frame ends at the WS2812's reset gap;
//  - the USB host enumerates both CDC interfaces, sets the line state on each, and reads and writes
//    both; the data port's IN endpoint is not drained while the host side is full or closed;
//  - the boot ROM is our own (rom.js: the ROM's documented functions, in JavaScript), and its flash
//    erase and program reach the image (flash.js), taking the time the flash chip's data sheet gives;
//  - the watchdog's reset and a forced reset end this process with a message: the simulator starts
//    the board again with the same flash, as a power cycle.
'use strict';

const fs = require('fs');
const { RP2040, ConsoleLogger, LogLevel } = require('rp2040js');
const { createRom } = require('./rom.js');
const { UsbHost } = require('./usb_host.js');
const { PixelDecoder } = require('./pixels.js');
const { ShiftChain } = require('./shift_chain.js');
const { Flash } = require('./flash.js');

const CLOCK_HZ = 125e6;
const NS_PER_CYCLE = 1e9 / CLOCK_HZ;
// A wait_idle ping is answered this long after it lands on the chip (and two loop passes on): a keypad
// scan (20 ms) and the firmware's settle time for a whole-board change (its SETTLE_MS, 60 ms), with
// room. The simulator spaces its pings by the PC's clock (45 ms, then 80 ms), which is less time to a
// chip running slower than the PC: here the chip's own time is waited.
const QUIET_PONG_NS = 100e6;
// ... once the firmware has run IDLE_PASSES passes since, and its data port has been quiet for
// QUIET_PORT_NS: each sensor change the keypad queued becomes a line (lift, place, move ...) within a
// pass or two, so a quiet port after the settle time means the queue is empty. (The simulator's own
// fakes answer when the firmware finds the queue empty; here the queue is in CircuitPython's RAM.)
const IDLE_PASSES = 5;
const QUIET_PORT_NS = 50e6;

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

// every message says when on the chip's clock it happened ("ns"): the bench's figures come from it
function send(msg) {
  msg.ns = Math.round(mcu.clock.nanos);
  process.stdout.write('\x1e' + JSON.stringify(msg) + '\n');
}

// -- the chip ------------------------------------------------------------------------------------
const mcu = new RP2040();
mcu.logger = new ConsoleLogger(LogLevel.Error);
// The QSPI chip-select pad as the chip has it out of reset (RP2040 datasheet, 2.19.6.4 PADS_QSPI:
// GPIO_QSPI_SS resets to 0x5a: input enabled, pull-up on) and the line high, as the flash's own
// pull-up holds it: BOOTSEL not pressed. CircuitPython reads the BOOTSEL button through this line
// (SIO GPIO_HI_IN bit 1); rp2040js resets the pad with its input off, so it read low, "pressed",
// and 10.x waited for the button's release for ever.
const QSPI_SS = 1;
mcu.qspi[QSPI_SS].padValue = 0x5a;
mcu.qspi[QSPI_SS].setInputValue(process.env.PEGBOARD_RP2040_BOOTSEL !== 'held'); // held: the button pulls it low
let stallNs = 0; // time the CPU spends waiting on the flash, added to the clock by the loop
const [nvmOffset, nvmSize] = config.nvm;
const flashFd = fs.openSync(config.flash, 'r+');
const flashSize = fs.fstatSync(flashFd).size;
const flash = new Flash(mcu.flash, flashSize, {
  written(offset, length) {
    if (process.env.PEGBOARD_RP2040_DEBUG) process.stderr.write(`[rp2040 debug] flash 0x${offset.toString(16)}+${length}\n`);
    fs.writeSync(flashFd, mcu.flash, offset, length, offset); // kept across power cycles
    const lo = Math.max(offset, nvmOffset);
    const hi = Math.min(offset + length, nvmOffset + nvmSize);
    if (lo < hi) {
      send({ t: 'nvmw', o: lo - nvmOffset, d: Buffer.from(mcu.flash.subarray(lo, hi)).toString('hex') });
    }
  },
  busy(ns, erase) {
    if (erase) erasedInPass = true;
    stallNs += ns;
    send({ t: 'flash', chip_ms: ns / 1e6 });
  },
});
const rom = createRom({
  flash,
  onUsbBoot() {
    // reset_to_usb_boot (or a bad boot2): the chip would be the RPI-RP2 drive now, not a pegboard
    console.log('[rp2040: the chip entered its USB bootloader (BOOTSEL): the firmware stopped]');
    finish(1);
  },
  onCycles(n) {
    stallNs += n * NS_PER_CYCLE; // a ROM routine's cycles (its JavaScript takes none of the chip's time)
  },
});
mcu.loadBootrom(rom.image); // (this erases the flash: the image goes in after it)
mcu.flash.set(fs.readFileSync(config.flash));
mcu.onBreak = (code) => {
  if (!rom.onBreak(mcu, code)) {
    console.log('[rp2040: breakpoint %d at 0x%s (called from 0x%s): the firmware stopped]', code,
      mcu.core.PC.toString(16), (mcu.core.LR >>> 0).toString(16));
    if (process.env.PEGBOARD_RP2040_DEBUG) {
      const sp = mcu.core.SP >>> 0;
      const words = [];
      for (let i = 0; i < 16; i++) words.push((mcu.readUint32(sp + 4 * i) >>> 0).toString(16));
      process.stderr.write('[rp2040 debug] stack at 0x' + sp.toString(16) + ': ' + words.join(' ') + '\n');
    }
    finish(1);
  }
};

// -- pins ----------------------------------------------------------------------------------------
let pegs = 0;
let buttonDown = false;
const sensorOf = new Map(); // GPIO -> hole index
(config.sensors || []).forEach((gpio, i) => sensorOf.set(gpio, i));
const chain = config.shift ? new ShiftChain(mcu, config.shift, () => pegs) : null;

function levelOf(pin) {
  const hole = sensorOf.get(pin.index);
  if (hole !== undefined) return !((pegs >> hole) & 1); // DRV5032: push-pull, low with a magnet near
  if (pin.index === config.button && buttonDown) return false; // the button ties its pin to GND
  // nothing drives it: the pad's pull sets the level; with none it floats (read low, as the fakes do)
  return pin.pullupEnabled && !pin.pulldownEnabled;
}
function refreshPins() {
  for (const pin of mcu.gpio) {
    if (chain && chain.owns(pin.index)) continue;
    const level = levelOf(pin);
    if (pin.rawInputValue !== level) pin.setInputValue(level);
  }
}
for (const pin of mcu.gpio) {
  pin.addListener(() => {
    // a pad's pull changed (or the pin's direction): what it reads may change with it
    if (!(chain && chain.owns(pin.index))) {
      const level = levelOf(pin);
      if (pin.rawInputValue !== level) pin.setInputValue(level);
    }
  });
}

// -- pixels --------------------------------------------------------------------------------------
const pixels = new PixelDecoder(mcu, config.pixel, () => mcu.clock.nanos, (bytes) => {
  send({ t: 'px', d: Buffer.from(bytes).toString('hex') });
});

// -- USB -----------------------------------------------------------------------------------------
let consoleLine = '';
let lastLine = '';
let lastConsoleWall = 0; // ns of wall time when the console last printed
let ready = false; // the firmware's "ready:" line has come
const usb = new UsbHost(mcu.usbCtrl, {
  onData(port, bytes) {
    if (port === 'data') {
      lastTxNs = mcu.clock.nanos;
      send({ t: 'tx', d: Buffer.from(bytes).toString('hex') });
    } else {
      const text = Buffer.from(bytes).toString('latin1');
      send({ t: 'con', s: text }); // each chunk of the console with its time: when code.py began, say
      lastConsoleWall = wallNs();
      consoleLine += text;
      let i;
      while ((i = consoleLine.indexOf('\n')) >= 0) {
        send({ t: 'line' }); // when the next console line was written, on the chip's clock
        const line = consoleLine.slice(0, i).replace(/\r$/, '');
        console.log(line);
        if (line.trim()) lastLine = line;
        if (line.includes('ready:')) ready = true;
        consoleLine = consoleLine.slice(i + 1);
      }
    }
  },
  onTaken(port, n) {
    if (port === 'data') send({ t: 'rxack', n });
  },
});

// -- the watchdog and resets ---------------------------------------------------------------------
let feeds = 0;
let lastFeedNs = 0;
let longestUnfedNs = 0;
const LONG_PASS_NS = 20e6;
let erasedInPass = false; // a flash sector was erased since the last feed (the NVM's rewrite)
let lastTxNs = 0; // when the data port last carried a line to the host
const wd = mcu.peripherals[0x40058]; // WATCHDOG_BASE 0x40058000
const wdWrite = wd.writeUint32.bind(wd);
wd.writeUint32 = (offset, value) => {
  if (offset === 0x04) {
    // LOAD: a feed. The longest stretch between feeds is the longest loop pass the watchdog saw.
    // each long one is said (the bench takes the longest of a stretch of play from them), and each new longest
    const now = mcu.clock.nanos;
    const unfed = lastFeedNs ? now - lastFeedNs : 0;
    if (unfed > longestUnfedNs || unfed > LONG_PASS_NS) {
      longestUnfedNs = Math.max(longestUnfedNs, unfed);
      send({ t: 'pass', chip_ms: Math.round(longestUnfedNs / 1e6), this_ms: Math.round(unfed / 1e6),
        erased: erasedInPass });
    }
    erasedInPass = false;
    lastFeedNs = now;
    feeds++;
  }
  wdWrite(offset, value);
};
wd.onWatchdogTrigger = () => {
  if (wd.reason === 2) {
    send({ t: 'reset' }); // forced (microcontroller.reset()): a restart, the flash kept
  } else {
    send({ t: 'wd_expired', chip_ms: Math.round((mcu.clock.nanos - lastFeedNs) / 1e6) });
  }
  finish(0);
};
const ppbWrite = mcu.ppb.writeUint32.bind(mcu.ppb);
mcu.ppb.writeUint32 = (offset, value) => {
  if (offset === 0xd0c && (value >>> 16) === 0x05fa && value & 4) {
    send({ t: 'reset' }); // AIRCR.SYSRESETREQ: NVIC_SystemReset()
    finish(0);
  }
  ppbWrite(offset, value);
};

// -- what the simulator sends --------------------------------------------------------------------
// The chip may run slower than the PC's clock (CPU-bound, several times slower here) or faster
// (asleep). A pin change that a timer made (a press's release, a bounce's chatter: "timer") keeps
// its spacing from the change before it in the chip's time, so a 3 s hold stays 3 s to the firmware
// and chatter stays a millisecond apart. Any other change, the hand's, is applied when it comes (after
// the changes before it): the PC's pace between a hand's steps is mostly waiting for the chip, and kept
// in the chip's time it would make every later step wait longer. A wait_idle ping comes after the
// changes before it; the rest (the host's bytes, the cable, the port) is applied at once.
const wallStart = process.hrtime.bigint();
function wallNs() {
  return Number(process.hrtime.bigint() - wallStart);
}
const timed = [];
const inbox = [];
let started = false;
const pings = [];
let inbuf = '';
let lastPins = null; // [its PC time in ns, its time on the chip] for the pin change before
function dueOf(msg) {
  const pcNs = typeof msg.at === 'number' ? msg.at * 1e6 : Number(process.hrtime.bigint());
  let due = Math.max(mcu.clock.nanos, lastPins ? lastPins[1] : 0);
  if (msg.timer && lastPins) due = Math.max(due, lastPins[1] + Math.max(0, pcNs - lastPins[0]));
  lastPins = [pcNs, due];
  return due;
}
process.stdin.on('data', (chunk) => {
  inbuf += chunk.toString('latin1');
  let i;
  while ((i = inbuf.indexOf('\n')) >= 0) {
    const line = inbuf.slice(0, i);
    inbuf = inbuf.slice(i + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.t === 'pins') {
      timed.push({ due: dueOf(msg), msg });
    } else if (msg.t === 'ping') {
      timed.push({ due: Math.max(mcu.clock.nanos, lastPins ? lastPins[1] : 0), msg });
    } else {
      inbox.push(msg);
    }
  }
  wake();
});
process.stdin.on('end', () => finish(0)); // the simulator went away

function apply(msg) {
  if (msg.t === 'pins' || msg.t === 'rx') send({ t: 'took', m: msg.t }); // when the chip met it
  switch (msg.t) {
    case 'pins':
      pegs = msg.s;
      buttonDown = !!msg.b;
      refreshPins();
      started = true;
      break;
    case 'rx':
      usb.write('data', Buffer.from(msg.d, 'hex'));
      break;
    case 'link':
      usb.setCable(msg.up);
      break;
    case 'dtr':
      usb.setLineState('data', msg.v);
      break;
    case 'txfull':
      usb.setHold('data', msg.v);
      break;
    case 'nvm': {
      const data = Buffer.from(msg.d, 'hex');
      mcu.flash.fill(0xff, nvmOffset, nvmOffset + nvmSize);
      mcu.flash.set(data, nvmOffset);
      fs.writeSync(flashFd, mcu.flash, nvmOffset, nvmSize, nvmOffset);
      break;
    }
    case 'ping':
      pings.push({ n: msg.n, at: mcu.clock.nanos, feeds });
      break;
    case 'hang':
      break; // a stuck firmware is the thumb and chip runtimes' test; this one runs the real binary
    default:
      break;
  }
}

function answerPings() {
  while (pings.length) {
    const p = pings[0];
    // answered once the keypad has scanned since (QUIET_PONG_NS) and a loop pass has ended after it
    const now = mcu.clock.nanos;
    if (now - p.at < QUIET_PONG_NS || feeds < p.feeds + IDLE_PASSES || now - lastTxNs < QUIET_PORT_NS) break;
    pings.shift();
    send({ t: 'pong', n: p.n, at: 0 });
  }
}

// -- the loop ------------------------------------------------------------------------------------
const core = mcu.core;
let timer = null;
let ended = false;
const SLICE_WALL_NS = 20e6; // run at most this long before looking at stdin again

function wokenByPending() {
  // WFI wakes on any pending enabled interrupt, PRIMASK or not (ARMv6-M: WFI)
  return (core.pendingInterrupts & core.enabledInterrupts) !== 0 || core.pendingSystick || core.pendingPendSV;
}

const clock = mcu.clock;
const [pio0, pio1] = mcu.pio;

function stepPio(untilNs) {
  if (!pio0.stopped) pio0.catchUp(untilNs);
  if (!pio1.stopped) pio1.catchUp(untilNs);
}

// Runs the chip up to `limit` (ns of emulated time), at most `count` instructions; false if it ended.
function runChip(limit, count) {
  for (let i = 0; i < count; i++) {
    if (core.waiting) {
      if (wokenByPending()) {
        core.waiting = false;
      } else {
        // asleep until the next alarm (a timer, the USB, ...) or the limit, in steps the PIO can follow
        const toAlarm = clock.nextAlarm ? clock.nextAlarm.nanos - clock.nanos : Infinity;
        const step = Math.max(NS_PER_CYCLE, Math.min(toAlarm, limit - clock.nanos, 50000));
        stepPio(clock.nanos + step);
        clock.tick(step);
        if (clock.nanos >= limit) return true;
        continue;
      }
    }
    let ns = core.executeInstruction() * NS_PER_CYCLE;
    if (stallNs) {
      ns += stallNs;
      stallNs = 0;
    }
    const t = clock.nanos + ns;
    if (!pio0.stopped || !pio1.stopped) stepPio(t);
    clock.tick(ns);
    if (ended) return false;
    if (t >= limit) return true;
  }
  return true;
}

function run() {
  timer = null;
  if (ended) return;
  const sliceEnd = wallNs() + SLICE_WALL_NS;
  for (;;) {
    const wall = wallNs();
    while (inbox.length) apply(inbox.shift());
    while (timed.length && (timed[0].due <= clock.nanos || !started)) apply(timed.shift().msg);
    if (!started) break; // the firmware starts once the pins have arrived (the simulator sends them last)
    // paced: the chip never runs ahead of the wall clock, nor past the next timed message
    const limit = Math.min(wall, timed.length ? timed[0].due : Infinity);
    if (clock.nanos >= limit) break;
    if (!runChip(limit, 5000)) return;
    pixels.poll();
    if (chain) chain.poll();
    answerPings();
    if (wallNs() > sliceEnd) break;
  }
  pixels.poll();
  answerPings();
  schedule();
}

function schedule() {
  if (ended || timer) return;
  // behind the wall clock: go on at once (after stdin's events); else look again in a millisecond
  timer = started && clock.nanos < wallNs() ? setImmediate(run) : setTimeout(run, 1);
}

function wake() {
  if (!timer) schedule();
}

function finish(code) {
  if (ended) return;
  ended = true;
  try {
    fs.fsyncSync(flashFd);
  } catch (e) {
    // the image is the simulator's temporary file: nothing to lose
  }
  process.stdout.write('', () => process.exit(code));
}

// PIO on the chip's clock: rp2040js steps the PIO from a timer of its own, an instruction a step
// whatever its delay (it only counts the delay in `cycles`). Here each state machine runs when the
// chip's clock reaches its next instruction: its cycles (delays included) times its clock divider.
for (const pio of mcu.pio) {
  pio.run = () => {};
  pio.catchUp = function (untilNs) {
    for (const m of this.machines) {
      if (!m.enabled) {
        m.atNs = untilNs;
        continue;
      }
      if (m.atNs === undefined || m.atNs < untilNs - 1e6) m.atNs = mcu.clock.nanos; // just enabled
      const cycleNs = (m.clockDivInt + m.clockDivFrac / 256 || 1) * NS_PER_CYCLE;
      while (m.atNs <= untilNs) {
        const before = m.cycles;
        pixels.pioTime(m.atNs);
        m.step();
        this.checkChangedPins();
        pixels.pioTime(null);
        const spent = m.cycles - before;
        if (spent > 0) {
          m.atNs += spent * cycleNs;
        } else {
          m.atNs = untilNs + cycleNs; // stalled (a FIFO, a WAIT): looked at again on the next step
          break;
        }
      }
    }
  };
}

core.reset(); // from the ROM's reset vector: boot2, then CircuitPython's own vector table
schedule();

// Until the firmware is ready, a console that stays silent is said so, every SILENT_NS of wall time:
// what it last printed, how far the chip's clock got and where the core is, so a firmware that
// hangs on its way up is seen hanging, not waited on for ever.
const SILENT_NS = (Number(process.env.PEGBOARD_RP2040_SILENT_S) || 30) * 1e9;
setInterval(() => {
  if (ready || ended || !started || wallNs() - lastConsoleWall < SILENT_NS) return;
  console.log('[rp2040: the firmware has printed nothing for %d s (wall time); last line: %s; emulated time %s ms; PC 0x%s]',
    Math.round((wallNs() - lastConsoleWall) / 1e9), lastLine ? JSON.stringify(lastLine) : 'none yet',
    (mcu.clock.nanos / 1e6).toFixed(1), (core.PC >>> 0).toString(16));
  lastConsoleWall = wallNs();
}, 1000).unref();

if (process.env.PEGBOARD_RP2040_DEBUG) {
  setInterval(() => {
    const bp = config.button !== null && config.button !== undefined ? mcu.gpio[config.button] : null;
    if (bp) process.stderr.write(`[rp2040 debug] button pin: raw in ${bp.rawInputValue}, pull-up ${bp.pullupEnabled}, pad 0x${bp.padValue.toString(16)}, down ${buttonDown}\n`);
    process.stderr.write(`[rp2040 debug] emulated ${(mcu.clock.nanos / 1e6).toFixed(1)} ms, wall ${(wallNs() / 1e6).toFixed(0)} ms, PC 0x${core.PC.toString(16)}, waiting ${core.waiting}, usb configured ${usb.configured}, feeds ${feeds}, timed ${timed.length}${timed.length ? " first due " + (timed[0].due / 1e6).toFixed(1) + " ms " + timed[0].msg.t : ""}\n`);
  }, 1000).unref();
}
