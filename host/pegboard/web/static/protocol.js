/* The board's serial protocol v1 (docs/protocol.md) in the browser: the one module both transports
   use (a WebSocket to `pegboard web`, or Web Serial straight to the board's data port).

   - framing: JSON lines, "\r\n" accepted, blank lines and lines that are not a JSON object skipped,
     an overlong line (past LINE_MAX with no newline) thrown away up to its newline;
   - ids: TOKEN-1, TOKEN-2 ... with a random TOKEN drawn at every opening of the port, so a late reply
     meant for an earlier opening (or another program) never passes for the answer to a request;
   - events: `seq` followed; a gap, a restarted board (seq back down) or a reconnect makes a resync
     due: `state` is asked and a synthetic {"event": "resync", "reason", "state", "missed", "undone",
     "new_game", "rebooted"} says what changed meanwhile (as pegboard.link.client does on the PC).

   A transport calls receive(text) with what the port gave, opened() when it (re)opens, lost(why)
   when it goes, back(port) when it is back; it gives `send(line)` to the constructor. */
(function (root) {
  "use strict";

  var LINE_MAX = 64 * 1024;

  function randomToken() {
    var bytes = new Uint8Array(4);
    (root.crypto || crypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  /* Lines out of a stream of text: feed(text) -> complete lines (without "\r\n"), blank ones left out. */
  function LineCutter(max) {
    this.max = max || LINE_MAX;
    this.buf = "";
    this.skipping = false; // the rest of an overlong line is dropped up to its newline
  }
  LineCutter.prototype.feed = function (text) {
    var out = [];
    this.buf += text;
    var at;
    while ((at = this.buf.indexOf("\n")) >= 0) {
      var line = this.buf.slice(0, at);
      this.buf = this.buf.slice(at + 1);
      if (this.skipping) { this.skipping = false; continue; }
      if (line.length > this.max) continue;
      line = line.replace(/\r$/, "");
      if (line.trim()) out.push(line);
    }
    if (this.buf.length > this.max) { this.buf = ""; this.skipping = true; }
    return out;
  };
  LineCutter.prototype.reset = function () { this.buf = ""; this.skipping = false; };

  function BoardError(message, code, reply) {
    var e = new Error(message);
    e.name = "BoardError";
    e.code = code || "error";
    e.reply = reply || null;
    return e;
  }

  function sameMove(a, b) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every(function (x, i) { return x === b[i]; });
  }

  /* What changed between what was known (`old`, null: nothing) and the board's state reply. */
  function resyncEvent(reason, old, st) {
    var moves = (st.moves || []).slice();
    var ev = { event: "resync", reason: reason, state: st, missed: moves, undone: [], new_game: false, rebooted: false };
    if (!old) return ev;
    ev.rebooted = typeof st.seq === "number" && typeof old.seq === "number" && st.seq < old.seq;
    if (st.empty_start !== old.empty_start) { ev.new_game = true; return ev; }
    var known = old.moves || [];
    var same = 0;
    while (same < Math.min(known.length, moves.length) && sameMove(known[same], moves[same])) same++;
    ev.missed = moves.slice(same);
    ev.undone = known.slice(same).reverse();
    return ev;
  }

  function BoardProtocol(send, options) {
    options = options || {};
    this.send = send;
    this.timeoutMs = options.timeoutMs || 5000;
    this.onEvent = options.onEvent || function () {};
    this.cutter = new LineCutter();
    this.pending = new Map(); // id -> {cmd, resolve, reject, timer}
    this.lastSeq = null;
    this.known = null; // {seq, empty_start, moves, mode} as last known
    this.resyncDue = null; // why `state` must be asked (null: it need not)
    this.resyncing = false;
    this.gaps = 0;
    this.connected = false;
    this.newIds();
  }

  BoardProtocol.prototype.newIds = function () {
    this.token = randomToken();
    this.counter = 0;
  };
  BoardProtocol.prototype.nextId = function () {
    this.counter += 1;
    return this.token + "-" + this.counter;
  };

  /* The port (or the way to it) opened: new ids, a clean line buffer. */
  BoardProtocol.prototype.opened = function () {
    this.newIds();
    this.cutter.reset();
    this.connected = true;
  };

  BoardProtocol.prototype.receive = function (text) {
    var lines = this.cutter.feed(text);
    for (var i = 0; i < lines.length; i++) this.line(lines[i]);
  };

  BoardProtocol.prototype.line = function (line) {
    var obj;
    try { obj = JSON.parse(line); } catch (e) { return; } // console noise, a torn first line
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) return;
    if ("event" in obj) this.takeEvent(obj);
    else if ("id" in obj) this.takeReply(obj);
  };

  BoardProtocol.prototype.request = function (cmd, args, timeoutMs) {
    var self = this;
    var id = this.nextId();
    var req = { id: id, cmd: cmd };
    if (args) Object.keys(args).forEach(function (k) { req[k] = args[k]; });
    return new Promise(function (resolve, reject) {
      if (!self.connected) { reject(BoardError("not connected to the board", "disconnected")); return; }
      var timer = setTimeout(function () {
        self.pending.delete(id);
        reject(BoardError("no reply to " + cmd + " within " + ((timeoutMs || self.timeoutMs) / 1000) + " s", "no_reply"));
      }, timeoutMs || self.timeoutMs);
      self.pending.set(id, { cmd: cmd, resolve: resolve, reject: reject, timer: timer });
      try {
        self.send(JSON.stringify(req) + "\n");
      } catch (e) {
        clearTimeout(timer);
        self.pending.delete(id);
        reject(BoardError("cannot send " + cmd + ": " + e.message, "disconnected"));
      }
    });
  };

  BoardProtocol.prototype.takeReply = function (obj) {
    var p = this.pending.get(obj.id);
    if (!p) return; // a late reply to a request that gave up waiting, or not ours
    this.pending.delete(obj.id);
    clearTimeout(p.timer);
    if (!obj.ok) { p.reject(BoardError(obj.message || "error", obj.error || "error", obj)); return; }
    if (p.cmd === "state") this.adoptState(obj);
    p.resolve(obj);
  };

  BoardProtocol.prototype.takeEvent = function (obj) {
    var seq = obj.seq;
    if (typeof seq === "number") {
      if (this.lastSeq !== null && seq !== this.lastSeq + 1) {
        var rebooted = seq <= this.lastSeq;
        if (rebooted) this.onEvent({ event: "rebooted" });
        else this.gaps += 1;
        this.lastSeq = seq;
        this.onEvent(obj);
        this.due(rebooted ? "rebooted" : "gap");
        return;
      }
      this.lastSeq = seq;
    }
    if (this.resyncDue === null) this.learnEvent(obj);
    this.onEvent(obj);
  };

  BoardProtocol.prototype.learnState = function (st) {
    this.known = { seq: st.seq, empty_start: st.empty_start, moves: (st.moves || []).slice(), mode: st.mode };
  };

  BoardProtocol.prototype.learnEvent = function (obj) {
    var k = this.known;
    if (!k) return;
    if ("seq" in obj) k.seq = obj.seq;
    var name = obj.event;
    if (name === "move") k.moves.push(obj.move);
    else if (name === "undo" && k.moves.length) k.moves.pop();
    else if (name === "new_game" || name === "resumed") { k.empty_start = obj.empty; k.moves = (obj.moves || []).slice(); }
    else if (name === "game_over") k.mode = "over";
  };

  BoardProtocol.prototype.adoptState = function (st) {
    if (this.resyncDue !== null) {
      var ev = resyncEvent(this.resyncDue, this.known, st);
      this.resyncDue = null;
      this.learnState(st);
      this.onEvent(ev);
      return;
    }
    this.learnState(st);
  };

  BoardProtocol.prototype.due = function (reason) {
    if (this.resyncDue === null) this.resyncDue = reason; // the first reason stands: one state answers all
    this.resyncSoon();
  };

  BoardProtocol.prototype.resyncSoon = function () {
    var self = this;
    if (this.resyncing || !this.connected) return;
    this.resyncing = true;
    setTimeout(function () {
      self.request("state").catch(function () {
        self.resyncDue = null; // no answer now: the next gap or reconnect asks again
      }).then(function () { self.resyncing = false; });
    }, 0);
  };

  /* The way to the board went away: every request waiting is answered "disconnected". */
  BoardProtocol.prototype.lost = function (why) {
    var wasConnected = this.connected;
    this.connected = false;
    this.pending.forEach(function (p) {
      clearTimeout(p.timer);
      p.reject(BoardError("the board went away" + (why ? ": " + why : ""), "disconnected"));
    });
    this.pending.clear();
    if (wasConnected) this.onEvent({ event: "lost", why: why || null });
  };

  /* Back after a loss: a replugged board may have restarted (any seq is fine) and moves may have
     been made meanwhile: a resync is due. */
  BoardProtocol.prototype.back = function (port) {
    this.opened();
    this.lastSeq = null;
    this.onEvent({ event: "reconnected", port: port || null });
    this.due("reconnect");
  };

  var api = { BoardProtocol: BoardProtocol, LineCutter: LineCutter, resyncEvent: resyncEvent, BoardError: BoardError,
              LINE_MAX: LINE_MAX };
  root.PegProtocol = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
