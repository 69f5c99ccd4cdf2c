// The PC's side of the board's USB cable, on rp2040js's device controller: enumerate, find both CDC
// ACM functions (CircuitPython's console first, then the data port boot.py enables), set each one's
// line state (DTR), and move bytes both ways. rp2040js's own USBCDC helper attaches to the last CDC
// interface only and sets the line state on interface 0 only, so the console and the data port
// could not both work through it.
'use strict';

const GET_DESCRIPTOR = 6;
const SET_ADDRESS = 5;
const SET_CONFIGURATION = 9;
const SET_CONTROL_LINE_STATE = 0x22;
const CONFIGURATION = 2;
const INTERFACE = 4;
const ENDPOINT = 5;
const CLASS_CDC = 2;
const CLASS_CDC_DATA = 10;
const EP0_SIZE = 64;
const OUT_QUEUE_LIMIT = 4096; // bytes the host keeps for an OUT endpoint before it refuses more

function setup(requestType, request, value, index, length) {
  return new Uint8Array([requestType, request, value & 0xff, value >> 8, index & 0xff, index >> 8,
    length & 0xff, length >> 8]);
}

// The CDC functions of a configuration descriptor, in order: for each, its communication
// interface's number and its data interface's bulk IN and OUT endpoint numbers.
function cdcFunctions(descriptors) {
  const found = [];
  let comm = null;
  let current = null;
  for (let i = 0; i + 1 < descriptors.length;) {
    const len = descriptors[i];
    if (len < 2 || i + len > descriptors.length) break;
    const type = descriptors[i + 1];
    if (type === INTERFACE && len >= 9) {
      const number = descriptors[i + 2];
      const cls = descriptors[i + 5];
      current = null;
      if (cls === CLASS_CDC) {
        comm = number;
      } else if (cls === CLASS_CDC_DATA && comm !== null) {
        current = { comm, data: number, in: -1, out: -1 };
        found.push(current);
        comm = null;
      }
    } else if (type === ENDPOINT && len >= 7 && current) {
      const address = descriptors[i + 2];
      if ((descriptors[i + 3] & 3) === 2) { // bulk
        if (address & 0x80) current.in = address & 0x0f;
        else current.out = address & 0x0f;
      }
    }
    i += len;
  }
  return found.filter((f) => f.in >= 0 && f.out >= 0);
}

class UsbHost {
  // events: onData(port, bytes) for what the board sends on "console" or "data"; onTaken(port, n)
  // when the board has taken n more of the bytes written to a port
  constructor(usb, events) {
    this.usb = usb;
    this.events = events;
    this.cable = true;
    this.ports = {}; // "console" | "data" -> { fn, queue: [], armed: size | 0, hold, dtr, pendingIn: [] }
    this.byEndpointIn = new Map();
    this.byEndpointOut = new Map();
    this.control = [];   // queued control transfers: { packet, inLength, done(bytes) }
    this.current = null; // the one under way
    this.configured = false;
    usb.onUSBEnabled = () => this.cable && usb.resetDevice();
    usb.onResetReceived = () => this.enumerate();
    usb.onEndpointWrite = (ep, buffer) => this.fromDevice(ep, buffer);
    usb.onEndpointRead = (ep, size) => this.deviceWantsData(ep, size);
    // the host does not poll a held port's IN endpoint: the board's buffer stays full, as when the
    // PC's side of the port has no room (or no program holds it open)
    const dpramUpdated = usb.DPRAMUpdated.bind(usb);
    usb.DPRAMUpdated = (offset, value) => {
      if (offset >= 0x80 && offset < 0x100 && !(offset & 4) && value & (1 << 10)) {
        const port = this.byEndpointIn.get((offset - 0x80) >> 3);
        if (port && (port.hold || !this.cable)) {
          port.pendingIn.push([offset, value]);
          return;
        }
      }
      dpramUpdated(offset, value);
    };
    this.dpramUpdated = dpramUpdated;
  }

  enumerate() {
    this.configured = false;
    this.control = [];
    this.current = null;
    this.byEndpointIn.clear();
    this.byEndpointOut.clear();
    this.transfer(setup(0x00, SET_ADDRESS, 1, 0, 0), 0, () => {
      this.transfer(setup(0x80, GET_DESCRIPTOR, CONFIGURATION << 8, 0, 9), 9, (head) => {
        const total = head[2] | (head[3] << 8);
        this.transfer(setup(0x80, GET_DESCRIPTOR, CONFIGURATION << 8, 0, total), total, (all) => {
          this.configure(cdcFunctions(all));
        });
      });
    });
  }

  configure(functions) {
    const names = ['console', 'data'];
    functions.slice(0, 2).forEach((fn, i) => {
      const old = this.ports[names[i]];
      const port = { fn, queue: old ? old.queue : [], armed: 0, hold: old ? old.hold : false,
        dtr: old ? old.dtr : true, pendingIn: [] };
      this.ports[names[i]] = port;
      this.byEndpointIn.set(fn.in, port);
      this.byEndpointOut.set(fn.out, port);
      port.name = names[i];
    });
    this.transfer(setup(0x00, SET_CONFIGURATION, 1, 0, 0), 0, () => {
      this.configured = true;
      for (const name of Object.keys(this.ports)) this.sendLineState(this.ports[name]);
    });
  }

  sendLineState(port) {
    // bmRequestType 0x21: class request to an interface (the CDC's communication interface)
    this.transfer(setup(0x21, SET_CONTROL_LINE_STATE, port.dtr ? 3 : 0, port.fn.comm, 0), 0, () => {});
  }

  transfer(packet, inLength, done) {
    this.control.push({ packet, inLength, done, got: [] });
    if (!this.current) this.nextControl();
  }

  nextControl() {
    this.current = this.control.shift() || null;
    if (this.current) this.usb.sendSetupPacket(this.current.packet);
  }

  fromDevice(ep, buffer) {
    if (ep === 0) {
      const c = this.current;
      if (!c) return;
      if (c.inLength === 0) { // the status stage of a request without data
        this.current = null;
        c.done(new Uint8Array(0));
        if (!this.current) this.nextControl();
        return;
      }
      c.got.push(...buffer);
      if (c.got.length >= c.inLength || buffer.length < EP0_SIZE) {
        this.current = null;
        c.done(Uint8Array.from(c.got));
        if (!this.current) this.nextControl();
      }
      return;
    }
    const port = this.byEndpointIn.get(ep);
    if (port && buffer.length) this.events.onData(port.name, buffer);
  }

  deviceWantsData(ep, size) {
    if (ep === 0) {
      // the status stage of a request with data: not sent, as rp2040js's own helper does not. The
      // next SETUP starts anew; a zero-length packet completing after it would land on an endpoint
      // TinyUSB has closed ("Can't continue xfer on inactive ep": a panic)
      return;
    }
    const port = this.byEndpointOut.get(ep);
    if (!port) return;
    port.armed = size;
    this.feed(port);
  }

  feed(port) {
    if (!port.armed || !port.queue.length || !this.cable) return;
    const n = Math.min(port.armed, port.queue.length);
    const chunk = Uint8Array.from(port.queue.splice(0, n));
    port.armed = 0;
    this.usb.endpointReadDone(port.fn.out, chunk);
    this.events.onTaken(port.name, n);
  }

  // -- what the simulator asks ---------------------------------------------------------------------
  write(name, bytes) {
    const port = this.ports[name] || (this.ports[name] = { queue: [], armed: 0, hold: false, dtr: true,
      pendingIn: [], name });
    if (port.queue.length + bytes.length > OUT_QUEUE_LIMIT) return false;
    port.queue.push(...bytes);
    if (port.fn) this.feed(port);
    return true;
  }

  setHold(name, hold) {
    const port = this.ports[name];
    if (!port) return;
    port.hold = hold;
    this.release(port);
  }

  setLineState(name, dtr) {
    const port = this.ports[name];
    if (!port) return;
    port.dtr = dtr;
    port.hold = !dtr; // a closed port is not read
    if (this.configured && port.fn) this.sendLineState(port);
    this.release(port);
  }

  release(port) {
    if (port.hold || !this.cable) return;
    const pending = port.pendingIn;
    port.pendingIn = [];
    for (const [offset, value] of pending) this.dpramUpdated(offset, value);
  }

  setCable(up) {
    if (up === this.cable) return;
    this.cable = up;
    if (!up) {
      // pulled: nothing moves; what the PC had queued for the board is gone with the port
      for (const name of Object.keys(this.ports)) this.ports[name].queue = [];
      return;
    }
    // put back: the PC resets the bus and enumerates the board again
    for (const name of Object.keys(this.ports)) {
      this.ports[name].pendingIn = [];
      this.ports[name].hold = false;
      this.ports[name].dtr = true;
    }
    this.usb.resetDevice();
  }
}

module.exports = { UsbHost, cdcFunctions, setup };
