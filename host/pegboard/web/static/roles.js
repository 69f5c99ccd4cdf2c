/* What each hole shows, from the board's state (`state`: pegs, lifted, landing, pull, illegal,
   target and the running `show`), never from the lights' colours: the same model as the terminal UI
   (host/pegboard/tui/roles.py: ROLES, hole_role), so the page and the terminal agree. Every role has a symbol as well as a colour (Okabe–Ito's colours and Paul Tol's
   wine, which stay apart with colour blindness): nothing rests on colour alone. */
(function (root) {
  "use strict";

  // role: [words in the legend, symbol, background, symbol colour (>= 3:1 against it)]; the pegs'
  // hues with theme "pegs" (each peg keeps its colour); how near a lit colour is taken for one.
  // From Python (pegboard.tui.roles, pegcore.pegcolours) by `python -m pegboard.web.tables`
  var ROLES = /*ROLES*/{"empty": ["empty", "○", "#303030", "#c0c0c0"], "peg": ["peg", "●", "#e69f00", "#000000"], "lifted": ["lifted", "↑", "#f0e442", "#000000"], "landing": ["may land", "◎", "#009e73", "#000000"], "pull": ["pull out", "⊗", "#882255", "#ffffff"], "illegal": ["illegal, lost", "✕", "#d55e00", "#000000"], "from": ["jump this", "★", "#0072b2", "#ffffff"], "over": ["over this", "◆", "#cc79a7", "#000000"], "to": ["into here", "◇", "#56b4e9", "#000000"], "demo": ["demo peg", "■", "#ffffff", "#000000"]}/*END*/;
  var HUES = /*HUES*/[16771584, 65514, 4194559, 11141375, 9830144, 16711786]/*END*/;
  var NEAR = /*NEAR*/0.2/*END*/;
  var JUMP_ROLES = ["from", "over", "to"];

  function split(c) { return [c >> 16 & 255, c >> 8 & 255, c & 255]; }
  function direction(rgb) {
    var top = Math.max(rgb[0], rgb[1], rgb[2]);
    return rgb.map(function (v) { return v / top; });
  }
  function dist(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }
  function like(rgb, led) { return dist(direction(rgb), direction(split(led))) < NEAR; }
  function has(list, h) { return (list || []).indexOf(h) >= 0; }

  /* What hole h shows, from the board's state: its pegs, the lifted peg, where it may land, what
     to pull out, illegal pegs, a position being set, and the show running over them. Never from
     the lights' colours: the game-over celebration lights empty holes, and they stay empty. */
  function holeRole(h, st) {
    var show = st.show || {};
    var move = show.move || [];
    if (show.kind === "demo" || show.kind === "watch") { // the show lights its own pegs
      if (show.tried === h) return "landing";
      if (show.taken_back === h) return "illegal";
      if (move.indexOf(h) >= 0) return JUMP_ROLES[move.indexOf(h)];
      if (has(show.pegs, h)) return show.kind === "demo" ? "demo" : (show.solved ? "landing" : "peg");
      return "empty";
    }
    if (show.kind === "review") { // the position before the move that lost the win: that move, then a better one
      if (move.indexOf(h) >= 0) return show.lost ? "illegal" : JUMP_ROLES[move.indexOf(h)];
      return has(show.pegs, h) ? "peg" : "empty";
    }
    var pegs = st.pegs || [];
    if (show.kind === "guide" && show.put_back && move.indexOf(h) >= 0) return move.indexOf(h) === 2 ? "pull" : "landing";
    if ((show.kind === "hint" || show.kind === "guide") && move.indexOf(h) >= 0) return JUMP_ROLES[move.indexOf(h)];
    if (show.kind === "hint" && show.lost && has(pegs, h)) return "illegal";
    if (st.target && st.target.length) {
      if (has(pegs, h) !== has(st.target, h)) return has(st.target, h) ? "landing" : "pull";
      return has(pegs, h) ? "peg" : "empty";
    }
    if (has(st.illegal, h)) return "illegal";
    if (has(st.pull, h)) return "pull";
    if (has(st.landing, h)) return "landing";
    if (st.lifted === h) return "lifted";
    return has(pegs, h) ? "peg" : "empty";
  }

  function hex(rgb) { return "#" + rgb.map(function (v) { return (Math.max(0, Math.min(255, v | 0)) + 256).toString(16).slice(1); }).join(""); }
  function luminance(rgb) {
    var lin = rgb.map(function (v) { var s = v / 255; return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4); });
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  }
  function contrast(a, b) {
    var la = luminance(a), lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }
  function ink(bg) { return contrast(bg, [0, 0, 0]) >= contrast(bg, [255, 255, 255]) ? "#000000" : "#ffffff"; }

  /* {role, symbol, bg, fg, words} of hole h: its role's look; with the theme "pegs", a peg in the
     hue its LED shows (the colour from the light, the role from the state). */
  function holeLook(h, st) {
    var role = holeRole(h, st);
    var rgb = (st.lights || [])[h - 1] || [];
    if (role === "peg" && st.theme === "pegs" && rgb.length >= 3 && Math.max(rgb[0], rgb[1], rgb[2])) {
      for (var i = 0; i < HUES.length; i++) {
        if (like(rgb.slice(0, 3), HUES[i])) {
          var own = split(HUES[i]);
          return { role: "peg", symbol: ROLES.peg[1], bg: hex(own), fg: ink(own), words: "peg" };
        }
      }
    }
    var r = ROLES[role];
    return { role: role, symbol: r[1], bg: r[2], fg: r[3], words: r[0] };
  }

  var api = { ROLES: ROLES, HUES: HUES, holeRole: holeRole, holeLook: holeLook, contrast: contrast };
  root.PegRoles = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
