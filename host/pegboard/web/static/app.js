/* The page: the board live as its LEDs show it, the mode and the verdict, the moves (stepped back
   and forth), the controls, a solution file's upload, the board's stats and a log in words. It draws
   from the board's own `state` replies, asked after every batch of events (and 4 times a second while
   an animation runs: a hint's blinking, a demo, the solver's show send no event per frame). */
(function (root) {
  "use strict";

  var P = root.PegProtocol, S = root.PegSolution, R = root.PegRoles, W = root.PegWords, T = root.PegTransports, SE = root.PegSenses;
  var HINT_SHOW_MS = 5400; // how long the firmware shows a hint (pegfw.shows.HintShow: 4 s, +1.2 s when lost)
  var REREAD_MS = 250;
  var MOTION_MS = 40; // how often the roles' patterns are redrawn (the board's frames are 20 ms apart)
  var LOG_KEPT = 300;
  var EVENTS_KEPT = 5000;

  var A = {
    proto: null, transport: null, info: null, rows: 5, st: {}, sensed: new Set(), control: true, sim: false,
    banner: "", view: null, replayView: null, list: { kind: "game" }, step: null, solution: null,
    animatedUntil: 0, refreshing: false, refreshAgain: false, events: [], pendingGuide: null, watching: false,
    connected: false, states: 0, shown: [], looks: [], sound: null
  };
  root.pegboardPage = A; // for people poking at it from the console, and for the tests

  function $(id) { return document.getElementById(id); }

  // -- the log and the status line -------------------------------------------------------------
  function log(text, kind) {
    var li = document.createElement("li");
    li.textContent = text;
    if (kind) li.className = kind;
    var list = $("log");
    list.insertBefore(li, list.firstChild);
    while (list.children.length > LOG_KEPT) list.removeChild(list.lastChild);
  }

  function conn(text, kind) {
    var c = $("conn");
    c.textContent = text;
    c.className = kind || "";
    document.body.classList.toggle("offline", kind === "lost");
  }

  function setBanner(text, won) {
    A.banner = text;
    var b = $("banner");
    b.textContent = text;
    b.hidden = !text;
    b.className = text ? (won ? "won" : "lost") : "";
  }

  // -- events and state -------------------------------------------------------------------------
  function onEvent(e) {
    A.events.push(e);
    if (A.events.length > EVENTS_KEPT) A.events.splice(0, A.events.length - EVENTS_KEPT);
    var name = e.event;
    var text = W.eventText(e);
    if (text && name !== "button") log(text, name === "lost" ? "bad" : name === "game_over" ? "good" : "");
    else if (text) log(text);
    if (name === "game_over") {
      setBanner(W.gameOverText(e.pegs_left, e.verdict), e.pegs_left === 1);
      if (e.pegs_left > 1 || e.in_finish === false) log("“Where did I go wrong?” (v, or the board's button) shows where the win was lost");
      else log("“Puzzle” (z, or three quick presses of the board's button) sets up a graded puzzle");
      stats();
    } else if (name === "new_game" || name === "undo" || name === "resumed") {
      setBanner("");
    }
    if (name === "tune" && A.sound) A.sound.play(e.name);
    if (name === "new_game" && A.pendingGuide) startGuide();
    if (name === "hint" || name === "demo_step" || name === "button") A.animatedUntil = Date.now() + HINT_SHOW_MS;
    if (name === "watch_done" || name === "demo_done") A.watching = false;
    if (name === "lost") {
      A.connected = false;
      conn("the board is gone (unplugged?): waiting for it to come back", "lost");
      return;
    }
    if (name === "reconnected") {
      A.connected = true;
      conn(connectedText() + " (back: catching up)", "ok");
    }
    refresh();
  }

  function refresh() {
    if (!A.proto || !A.proto.connected) return;
    if (A.refreshing) { A.refreshAgain = true; return; }
    A.refreshing = true;
    A.proto.request("state").then(render, function (e) {
      if (e.code !== "disconnected") log("! state: " + e.message, "bad");
    }).then(function () {
      A.refreshing = false;
      if (A.refreshAgain) { A.refreshAgain = false; refresh(); }
    });
  }

  function animating() {
    // "starting": the board has not read its pegs yet, and an empty board tells no event when it has
    // (a show whose roles change with time too: a lost hint's blink, a review's two moves in turn)
    return A.st.mode === "demo" || A.st.mode === "starting" || Date.now() < A.animatedUntil ||
      !!(A.st.show && (A.st.show.kind === "hint" || A.st.show.kind === "review"));
  }

  function holesOf(st) { return (st.lights || []).length || A.rows * (A.rows + 1) / 2; }

  function render(st) {
    var before = (A.st.moves || []).length;
    A.st = st;
    A.states += 1;
    // when each new count of moves was first drawn (the tests and bench/web.py measure the page by it)
    if ((st.moves || []).length !== before) A.shown.push({ moves: (st.moves || []).length, at: Date.now() });
    if (A.shown.length > 1000) A.shown.splice(0, 500);
    A.sensed = new Set(st.pegs || []);
    var pegs = st.pegs || [];
    var looks = [];
    for (var h = 1; h <= holesOf(st); h++) looks.push(R.holeLook(h, st));
    A.looks = looks;
    drawLooks();
    var lines = [W.modeText(st, pegs.length, A.control)];
    if (st.illegal && st.illegal.length) lines.push("illegal placement at " + st.illegal.join(", ") + ": put it back");
    if (st.solvable === false && st.mode === "play") lines.push("one peg left is out of reach now");
    $("mode").textContent = lines.join(" · ");
    document.body.setAttribute("data-mode", st.mode || "");
    if (st.mode === "over") {
      if (!A.banner) setBanner(W.gameOverText((st.position || []).length, null), (st.position || []).length === 1);
    } else if (st.mode === "play" && st.solvable === false) {
      if (!A.banner) setBanner("Lost: one peg left is out of reach (Hint: the best move)", false);
    } else if (st.mode === "setup" || st.mode === "play") {
      setBanner("");
    }
    renderMoves();
  }

  // the holes as the board lights them: with roles "motion", each role's pattern in time too
  function drawLooks() {
    A.view.draw(A.st.roles === "motion" ? SE.animate(A.looks, Date.now()) : A.looks);
    $("roles").setAttribute("aria-pressed", String(A.st.roles === "motion"));
  }

  function soundButton() {
    var on = !!(A.sound && A.sound.on);
    $("sound").setAttribute("aria-pressed", String(on));
    $("sound").firstChild.textContent = on ? "Sound on " : "Sound off ";
  }

  // -- the moves, stepped --------------------------------------------------------------------------
  function listMoves() {
    if (A.list.kind === "file") return { moves: A.solution.moves, start: A.solution.start };
    return { moves: A.st.moves || [], start: A.st.start || null };
  }

  function renderMoves() {
    var l = listMoves();
    var ol = $("moves");
    ol.textContent = "";
    var at = A.step === null ? l.moves.length : Math.min(A.step, l.moves.length);
    l.moves.forEach(function (mv, i) {
      var li = document.createElement("li");
      li.textContent = W.move(mv);
      if (i === at - 1) { li.className = "current"; li.setAttribute("aria-current", "step"); }
      li.addEventListener("click", function () { A.step = i + 1; renderMoves(); });
      ol.appendChild(li);
    });
    var head;
    if (A.list.kind === "file") {
      head = A.solution.name + ": " + W.count(l.moves.length, "move") + ", " +
        (A.solution.empty ? "hole " + A.solution.empty + " empty" : "from pegs in " + A.solution.start.join(", "));
    } else {
      head = l.moves.length ? "this game: " + W.count(l.moves.length, "move") : "no moves yet";
    }
    $("moves-head").textContent = head + (A.step === null ? "" : " · step " + at + " of " + l.moves.length);
    $("file-actions").hidden = A.list.kind !== "file";
    // the position after `at` moves, the last of them ringed
    if (!l.start || !l.moves.length) { $("replay-box").hidden = true; return; }
    $("replay-box").hidden = false;
    var pegs = new Set(l.start);
    for (var k = 0; k < at; k++) pegs = S.apply(pegs, l.moves[k]);
    var last = at ? l.moves[at - 1] : null;
    var looks = [];
    for (var h = 1; h <= A.replayView.holes; h++) {
      var role = pegs.has(h) ? "peg" : "empty";
      if (last && h === last[2]) role = "to";
      var r = R.ROLES[role];
      looks.push({ role: role, symbol: r[1], bg: r[2], fg: r[3], words: r[0],
                   mark: !!(last && (h === last[0] || h === last[1])) });
    }
    A.replayView.draw(looks);
    $("replay-caption").textContent = at ? "after move " + at + ": " + W.move(last) : "the start";
  }

  function stepBy(d) {
    var n = listMoves().moves.length;
    var at = A.step === null ? n : A.step;
    at = Math.max(0, Math.min(n, at + d));
    A.step = at === n && A.list.kind === "game" ? null : at;
    renderMoves();
  }

  function stepTo(where) {
    A.step = where === "live" ? (A.list.kind === "game" ? null : listMoves().moves.length) : 0;
    renderMoves();
  }

  // -- requests ---------------------------------------------------------------------------------------
  var LONG_REQUESTS = { review: 120000 }; // answered after a search in slices on 21 and 28 holes
  function ask(cmd, args) {
    if (!A.control) { log("view only: this page cannot send requests (the address with the token can)", "bad"); return Promise.resolve(null); }
    if (!A.proto || !A.proto.connected) { log("not connected to the board", "bad"); return Promise.resolve(null); }
    return A.proto.request(cmd, args, LONG_REQUESTS[cmd]).then(function (r) {
      refresh();
      return r;
    }, function (e) {
      log("! " + cmd + ": " + e.message, "bad");
      return null;
    });
  }

  function hand(cmd, args) {
    if (!A.control) { log("view only: this page cannot move pegs", "bad"); return Promise.resolve(null); }
    return A.transport.hand(cmd, args).catch(function (e) { log("! " + cmd + ": " + e.message, "bad"); return null; });
  }

  var actions = {
    hint: function () { ask("hint").then(function () { A.animatedUntil = Date.now() + HINT_SHOW_MS; }); },
    demo: function () {
      ask("demo").then(function (r) { if (r) log("the board demonstrates " + W.count(r.moves.length, "move") + " (Stop ends it)"); });
    },
    watch: function () { ask("watch", { speed: 150 }).then(function (r) { if (r) { A.watching = true; log("the board shows the solver's search (space: a step at a time)"); } }); },
    stepWatch: function () { ask("watch", { step: true }).then(function (r) { if (r) A.watching = true; }); },
    stop: function () { ask("stop"); },
    review: function () { ask("review").then(function (r) { if (r) log(W.reviewText(r)); }); },
    puzzle: function () { ask("puzzle"); },  // the board's `puzzle` event says which, in the log
    play: function () { ask("play").then(function (r) { if (r) log("playing from here: " + W.startText(r)); }); },
    newGame: function () {
      if (!A.sim) { log("New game: put a peg in every hole but one; the board starts the game by itself."); return; }
      var empty = A.st.empty_start || 1;
      log("new game: filling every hole but " + empty);
      hand("fill", { empty: empty });
    },
    clear: function () {
      if (!A.sim) { log("take the pegs out by hand: the game ends when the board is empty"); return; }
      A.sensed = new Set();
      hand("clear");
    },
    press: function () {
      if (!A.sim) { log("the hint button is on the board itself"); return; }
      hand("press", { ms: 100 });
    },
    stats: function () { stats(); },
    roles: function () {
      ask("roles", { name: A.st.roles === "motion" ? "colour" : "motion" }).then(function (r) {
        if (r) log(r.name === "motion" ? "roles in motion: each role's light has its own pattern in time, on the board and here"
          : "roles by colour alone");
        refresh();
      });
    },
    sound: function () {
      var on = A.sound.allow(!A.sound.on);
      soundButton();
      log(on ? "sound on: the page plays the board's tunes" : A.sound.on ? "this browser has no Web Audio: no sound"
        : "sound off");
    },
    upload: function () { $("file").click(); }
  };

  function pick(h) {
    if (!A.control) { log("view only: the board is played from the page with the token, or by hand", "bad"); return; }
    if (!A.sim) { log("lift and place the real pegs: the page follows the board"); return; }
    // decided from our own clicks too: the state for the last click may not be in yet
    if (A.sensed.has(h)) { A.sensed.delete(h); hand("lift", { hole: h }); }
    else { A.sensed.add(h); hand("place", { hole: h }); }
  }

  function stats() {
    if (!A.proto || !A.proto.connected) return;
    A.proto.request("stats").then(function (s) {
      var dl = $("stats-list");
      dl.textContent = "";
      [["games", "games started"], ["wins", "won (one peg left)"], ["best", "best (fewest pegs left)"],
       ["abandoned", "abandoned"], ["bests", "personal bests kept"], ["puzzles_solved", "puzzles solved"]].forEach(function (kv) {
        var dt = document.createElement("dt"), dd = document.createElement("dd");
        dt.textContent = kv[1];
        dd.textContent = s[kv[0]] === null || s[kv[0]] === undefined ? "—" : String(s[kv[0]]);
        dd.id = "stat-" + kv[0];
        dl.appendChild(dt);
        dl.appendChild(dd);
      });
    }, function () { /* an older board, or busy: the panel keeps what it had */ });
  }

  // -- a solution file ------------------------------------------------------------------------------
  function fileMessage(text, bad) {
    var m = $("file-msg");
    m.textContent = text;
    m.className = bad ? "bad" : "good";
  }

  function loadFile(file) {
    file.arrayBuffer().then(function (bytes) {
      var sol;
      try {
        sol = S.loadSolution(bytes, file.name, A.info ? A.info.rows : null);
      } catch (e) {
        fileMessage(e.message + " — nothing was sent to the board", true);
        log("refused " + file.name + ": " + e.message, "bad");
        return;
      }
      sol.name = file.name;
      A.solution = sol;
      A.list = { kind: "file" };
      A.step = 0;
      fileMessage(file.name + ": " + W.count(sol.moves.length, "move") + ", all legal. Demonstrate it, or be guided through it.", false);
      renderMoves();
    });
  }

  function fileDemo() {
    var s = A.solution;
    if (!s) return;
    ask("demo", { start: s.start, moves: s.moves }).then(function (r) {
      if (r) log("the board demonstrates " + s.name + " (" + W.count(r.moves.length, "move") + ")");
    });
  }

  function sameHoles(a, b) { return !!a && !!b && a.length === b.length && a.every(function (x, i) { return x === b[i]; }); }

  function fileGuide() {
    var s = A.solution;
    if (!s) return;
    var st = A.st;
    A.pendingGuide = s;
    if (sameHoles(st.start, s.start) && !(st.moves || []).length && (st.mode === "play" || st.mode === "guide")) {
      startGuide();
      return;
    }
    ask("setup", { pegs: s.start }).then(function (r) {
      if (!r) { A.pendingGuide = null; return; }
      if (r.done) log("the pegs already match: the guide starts");
      else log("set up the board: fill the holes lit green, take out the pegs lit orange; the guide starts when they match");
    });
  }

  function startGuide() {
    var s = A.pendingGuide;
    A.pendingGuide = null;
    ask("guide", { moves: s.moves }).then(function (r) {
      if (r) log("make the lit move: the blue peg (★) over the pink one (◆) into the green hole (◇); " + W.count(s.moves.length, "move"));
    });
  }

  // -- connecting -----------------------------------------------------------------------------------
  function connectedText() {
    if (A.transport && A.transport.kind === "serial") return "connected to the board by USB (Web Serial)";
    var what = A.sim ? "the simulated board" : "the board";
    return "connected to " + what + (A.hello && A.hello.port ? " (" + A.hello.port + ")" : "") + " through pegboard web" +
      (A.control ? "" : " · view only");
  }

  function howto() {
    var text;
    if (!A.control) text = "You are watching. The page's address with the token (printed by pegboard web) lets a player play.";
    else if (A.sim) text = "To move: click the peg that jumps, the hole it lands in, then the peg it jumped over. In free play a click puts a peg in or takes it out; Clear empties the board, Play from here starts a game from the pegs.";
    else text = "Move the real pegs: lift the jumping peg, put it in the empty hole, pull the jumped one. Take every peg out to end a game; set any pegs and press Play from here.";
    $("howto").textContent = text;
    document.body.classList.toggle("viewonly", !A.control);
    document.body.classList.toggle("sim", A.sim);
    Array.prototype.forEach.call(document.querySelectorAll("[data-control]"), function (b) { b.disabled = !A.control; });
    Array.prototype.forEach.call(document.querySelectorAll("[data-sim]"), function (b) { b.hidden = !A.sim; });
  }

  function ready(first) {
    A.connected = true;
    conn(connectedText(), "ok");
    A.proto.request("info").then(function (info) {
      A.info = info;
      if (info.rows && info.rows !== A.rows) {
        A.rows = info.rows;
        A.view.build(A.rows);
        A.replayView.build(A.rows);
      }
      refresh();
      stats();
    }, function (e) {
      log("! the board did not answer info: " + e.message + (A.transport.kind === "serial" ?
        " — is this the board's data port (\"CircuitPython CDC2 control\")? The other port is its console." : ""), "bad");
    });
    if (first) log(connectedText());
  }

  function startServer() {
    var token = decodeURIComponent((location.hash.match(/token=([^&]+)/) || [])[1] || "");
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    var t = new T.WsTransport(url, {
      onHello: function (h) {
        A.hello = h;
        A.control = !!h.control;
        A.sim = !!h.sim;
        howto();
        if (!h.board) conn("pegboard web is looking for the board…", "lost");
      },
      onReady: ready,
      onServer: function (up) { if (!up) conn("pegboard web went away: trying again every second", "lost"); },
      onRefused: function (why) { conn("not let in: " + why, "lost"); log("! " + why, "bad"); }
    }, token);
    begin(t);
    $("usb").hidden = true;
  }

  function startSerial() {
    var t = new T.SerialTransport({ onReady: ready });
    A.control = true;
    A.sim = false;
    howto();
    begin(t);
    t.start(A.proto).then(function () { $("usb").hidden = true; }, function (e) {
      conn("no port opened: " + e.message, "lost");
      A.transport = null;
    });
  }

  function begin(t) {
    A.transport = t;
    A.proto = new P.BoardProtocol(function (line) { t.send(line); }, { onEvent: onEvent });
    if (t.kind === "server") t.start(A.proto);
  }

  // -- the keyboard ---------------------------------------------------------------------------------
  var KEYS = { h: "hint", d: "demo", w: "watch", s: "stop", n: "newGame", g: "play", c: "clear", p: "press", u: "upload", t: "stats",
               v: "review", z: "puzzle", m: "roles", a: "sound" };

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (ev.key === "[") { stepBy(-1); ev.preventDefault(); return; }
    if (ev.key === "]") { stepBy(1); ev.preventDefault(); return; }
    if (ev.key === "Escape") { A.list = { kind: "game" }; A.step = null; renderMoves(); return; }
    if (ev.key === " " && A.watching && tag !== "BUTTON" && !(ev.target.closest && ev.target.closest(".hole"))) {
      ev.preventDefault();
      actions.stepWatch();
      return;
    }
    var act = KEYS[ev.key];
    if (act) { ev.preventDefault(); actions[act](); }
  }

  // -- start ------------------------------------------------------------------------------------------
  function init() {
    A.view = new root.PegBoardView($("board"), A.rows, { onPick: pick, label: "the board: each hole's symbol and colour say what it is" });
    A.replayView = new root.PegBoardView($("replay"), A.rows, { small: true, label: "the position after the stepped move" });
    Array.prototype.forEach.call(document.querySelectorAll("[data-act]"), function (b) {
      b.addEventListener("click", function () { actions[b.getAttribute("data-act")](); });
    });
    $("back").addEventListener("click", function () { stepBy(-1); });
    $("on").addEventListener("click", function () { stepBy(1); });
    $("first").addEventListener("click", function () { stepTo("start"); });
    $("live").addEventListener("click", function () { stepTo("live"); });
    $("file").addEventListener("change", function (ev) { if (ev.target.files[0]) loadFile(ev.target.files[0]); ev.target.value = ""; });
    $("file-demo").addEventListener("click", fileDemo);
    $("file-guide").addEventListener("click", fileGuide);
    $("file-close").addEventListener("click", function () { A.list = { kind: "game" }; A.step = null; renderMoves(); });
    $("usb").addEventListener("click", startSerial);
    document.addEventListener("keydown", onKey);
    A.sound = new SE.Sound();
    soundButton();
    setInterval(function () { if (A.st.roles === "motion" && A.looks.length) drawLooks(); }, MOTION_MS);
    setInterval(function () {
      if (A.proto && A.proto.connected && animating() && !A.refreshing) refresh();
    }, REREAD_MS);
    renderMoves();
    var served = location.protocol === "http:" || location.protocol === "https:";
    $("usb").hidden = !T.SerialTransport.available();
    if (served && !/[?&]serial\b/.test(location.search)) {
      startServer();
    } else {
      A.control = true;
      howto();
      conn(T.SerialTransport.available() ? "not connected: plug in the board and press “Connect a board by USB”" :
        "not connected: this browser has no Web Serial (use Chrome or Edge, or `pegboard web`)", "lost");
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})(typeof window !== "undefined" ? window : globalThis);
