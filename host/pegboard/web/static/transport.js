/* The two ways from the page to the board. Both hand what arrives to the one protocol module
   (protocol.js: framing, ids, events, resync) and tell it when the way opens, goes and comes back.

   WsTransport: a WebSocket to `pegboard web` (host/pegboard/web/server.py), which shares the board
   with every other pegboard program through the board's hub. Its own messages are {"web": ...}:
   "hello" (control: may this page send requests; sim: is the board simulated, so the page may move
   its pegs; board: is the board there now), "lost"/"back" (the board unplugged and back), "gone"
   (it did not come back: the server keeps looking), "hand" (the answer to a move of the simulated
   hand). If the server itself goes away, the page tries again every second.

   SerialTransport: Web Serial (Chrome, Edge): the board's data port straight from the page, with
   DTR asserted as docs/protocol.md asks. A port that fails (unplugged) is looked for again among the
   ports this page may use, and reopened when it is back. */
(function (root) {
  "use strict";

  /* `token`: the page's token (from its address after the #), handed over in the first message, never
     in a URL; a server that needs it and gets none closes with code 4001 (hooks.onRefused, no retry). */
  function WsTransport(url, hooks, token) {
    this.url = url;
    this.token = token || "";
    this.hooks = hooks || {};
    this.ws = null;
    this.proto = null;
    this.hello = null;
    this.everOpen = false;
    this.handIds = 0;
    this.hands = new Map();
    this.stopped = false;
  }

  WsTransport.prototype.kind = "server";

  WsTransport.prototype.start = function (proto) {
    this.proto = proto;
    this.open();
  };

  WsTransport.prototype.open = function () {
    var self = this;
    var ws;
    try { ws = new WebSocket(this.url); } catch (e) { this.retry(); return; }
    this.ws = ws;
    ws.onopen = function () { ws.send(JSON.stringify({ web: "hello", token: self.token })); };
    ws.onmessage = function (m) { self.message(String(m.data)); };
    ws.onclose = function (ev) {
      if (self.ws !== ws) return;
      self.ws = null;
      self.failHands("the page's server went away");
      if (self.hello) self.proto.lost("the page's server (pegboard web) went away");
      self.hello = null;
      if (ev && ev.code === 4001) {
        self.stopped = true;
        if (self.hooks.onRefused) self.hooks.onRefused(ev.reason || "refused");
        return;
      }
      if (self.hooks.onServer) self.hooks.onServer(false);
      self.retry();
    };
  };

  WsTransport.prototype.retry = function () {
    var self = this;
    if (!this.stopped) setTimeout(function () { self.open(); }, 1000);
  };

  WsTransport.prototype.message = function (text) {
    if (text.lastIndexOf('{"web"', 0) !== 0) { this.proto.receive(text + "\n"); return; }
    var msg;
    try { msg = JSON.parse(text); } catch (e) { return; }
    var what = msg.web;
    if (what === "hello") {
      this.hello = msg;
      if (this.hooks.onHello) this.hooks.onHello(msg);
      if (this.hooks.onServer) this.hooks.onServer(true);
      if (msg.board) this.boardHere(msg.port); // else the server is still looking for it: "back" follows
    } else if (what === "back") {
      this.boardHere(msg.port);
    } else if (what === "lost") {
      this.proto.lost("unplugged");
    } else if (what === "gone") {
      this.proto.lost(msg.message || "gone");
    } else if (what === "hand") {
      var p = this.hands.get(msg.id);
      if (p) {
        this.hands.delete(msg.id);
        if (msg.ok) p.resolve(msg); else p.reject(new Error(msg.message || "refused"));
      }
    }
  };

  /* The board is there (first time: opened; after a loss, or this page's own reconnect: back). */
  WsTransport.prototype.boardHere = function (port) {
    var first = !this.everOpen;
    this.everOpen = true;
    if (first) this.proto.opened(); else this.proto.back(port);
    if (this.hooks.onReady) this.hooks.onReady(first);
  };

  WsTransport.prototype.send = function (line) {
    if (!this.ws || this.ws.readyState !== 1) throw new Error("not connected to pegboard web");
    this.ws.send(line.replace(/\n$/, ""));
  };

  /* A move of the simulated board's hand: lift, place, fill, clear, press. */
  WsTransport.prototype.hand = function (cmd, args) {
    var self = this;
    return new Promise(function (resolve, reject) {
      if (!self.ws || self.ws.readyState !== 1) { reject(new Error("not connected")); return; }
      self.handIds += 1;
      var id = self.handIds;
      self.hands.set(id, { resolve: resolve, reject: reject });
      var msg = { hand: cmd, id: id };
      Object.keys(args || {}).forEach(function (k) { msg[k] = args[k]; });
      self.ws.send(JSON.stringify(msg));
    });
  };

  WsTransport.prototype.failHands = function (why) {
    this.hands.forEach(function (p) { p.reject(new Error(why)); });
    this.hands.clear();
  };

  // -- Web Serial ----------------------------------------------------------------------------------
  function SerialTransport(hooks) {
    this.hooks = hooks || {};
    this.port = null;
    this.info = null;
    this.proto = null;
    this.writer = null;
    this.writing = Promise.resolve();
    this.encoder = new TextEncoder();
    this.everOpen = false;
    this.looking = false;
  }

  SerialTransport.prototype.kind = "serial";
  SerialTransport.available = function () { return !!(root.navigator && root.navigator.serial); };

  /* Ask the person for the port (needs a click), then open it. */
  SerialTransport.prototype.start = async function (proto) {
    this.proto = proto;
    this.port = await navigator.serial.requestPort({});
    this.info = this.port.getInfo ? this.port.getInfo() : {};
    await this.open();
  };

  SerialTransport.prototype.open = async function () {
    var port = this.port;
    await port.open({ baudRate: 115200, bufferSize: 4096 });
    try { await port.setSignals({ dataTerminalReady: true }); } catch (e) { /* a port without modem lines */ }
    this.writer = port.writable.getWriter();
    this.writing = Promise.resolve();
    var first = !this.everOpen;
    this.everOpen = true;
    if (first) this.proto.opened(); else this.proto.back(this.hooks.portName ? this.hooks.portName(this.info) : null);
    this.readLoop(port);
    if (this.hooks.onReady) this.hooks.onReady(first);
  };

  SerialTransport.prototype.readLoop = async function (port) {
    var decoder = new TextDecoder();
    var reader = port.readable.getReader();
    try {
      for (;;) {
        var got = await reader.read();
        if (got.done) break;
        this.proto.receive(decoder.decode(got.value, { stream: true }));
      }
    } catch (e) {
      // NetworkError: the device went away
    } finally {
      try { reader.releaseLock(); } catch (e) { /* already released */ }
    }
    this.gone(port);
  };

  SerialTransport.prototype.gone = async function (port) {
    if (port !== this.port) return;
    this.proto.lost("unplugged");
    try { this.writer.releaseLock(); } catch (e) { /* the port is gone */ }
    try { await port.close(); } catch (e) { /* the port is gone */ }
    this.lookAgain();
  };

  /* Every second, the ports this page was granted: the same board (USB vendor and product) is
     opened again when it is back. */
  SerialTransport.prototype.lookAgain = function () {
    var self = this;
    if (this.looking) return;
    this.looking = true;
    var tick = async function () {
      try {
        var ports = await navigator.serial.getPorts();
        for (var i = 0; i < ports.length; i++) {
          var info = ports[i].getInfo ? ports[i].getInfo() : {};
          if (ports[i] === self.port || (info.usbVendorId === self.info.usbVendorId && info.usbProductId === self.info.usbProductId)) {
            self.port = ports[i];
            try {
              await self.open();
              self.looking = false;
              return;
            } catch (e) { /* not yet */ }
          }
        }
      } catch (e) { /* getPorts failed: try again */ }
      setTimeout(tick, 1000);
    };
    setTimeout(tick, 500);
  };

  SerialTransport.prototype.send = function (line) {
    var self = this;
    if (!this.writer) throw new Error("the port is not open");
    var data = this.encoder.encode(line);
    var writer = this.writer;
    this.writing = this.writing.then(function () { return writer.write(data); }).catch(function () { /* lost: readLoop says so */ });
    void self;
  };

  SerialTransport.prototype.hand = function () {
    return Promise.reject(new Error("move the real pegs: the page moves pegs only on the simulated board"));
  };

  root.PegTransports = { WsTransport: WsTransport, SerialTransport: SerialTransport };
})(typeof window !== "undefined" ? window : globalThis);
