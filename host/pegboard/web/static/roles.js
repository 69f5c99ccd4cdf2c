/* What each hole shows, from the colour its LED is lit (`state.lights`): the same mapping as the
   terminal UI (host/pegboard/tui/roles.py: ROLES, LED_ROLES, led_role, hole_role), so the page and the
   terminal agree. Every role has a symbol as well as a colour (Okabe–Ito's colours and Paul Tol's
   wine, which stay apart with colour blindness): nothing rests on colour alone. */
(function (root) {
  "use strict";

  // role: [words in the legend, symbol, background, symbol colour (>= 3:1 against it)]
  var ROLES = {
    empty: ["empty", "○", "#303030", "#c0c0c0"],
    peg: ["peg", "●", "#e69f00", "#000000"],
    lifted: ["lifted", "↑", "#f0e442", "#000000"],
    landing: ["may land", "◎", "#009e73", "#000000"],
    pull: ["pull out", "⊗", "#882255", "#ffffff"],
    illegal: ["illegal, lost", "✕", "#d55e00", "#000000"],
    from: ["jump this", "★", "#0072b2", "#ffffff"],
    over: ["over this", "◆", "#cc79a7", "#000000"],
    to: ["into here", "◇", "#56b4e9", "#000000"],
    demo: ["demo peg", "■", "#ffffff", "#000000"]
  };

  // pegcore.pegcolours.HUES: theme "pegs" (each peg keeps its colour)
  var HUES = [0xFFEA00, 0x00FFEA, 0x4000FF, 0xAA00FF, 0x95FF00, 0xFF006A];
  // pegfw.colors as the TUI reads them: what each colour the board lights means
  var LED_ROLES = [[0x000014, "empty"], [0x281400, "empty"], [0x282828, "peg"], [0xFF963C, "peg"],
                   [0x00FF00, "landing"], [0xFF3C00, "pull"], [0xFF0000, "illegal"], [0x0050FF, "from"],
                   [0xFF00C8, "over"], [0x00FF78, "to"], [0xFFFFFF, "demo"]].concat(HUES.map(function (c) { return [c, "peg"]; }));
  var WOODEN = [0xFF0000, 0x0000FF, 0xFFC800]; // theme "wooden": the pegs' colours, by hole
  var DIM = 0.35;
  var NEAR = 0.2;

  function split(c) { return [c >> 16 & 255, c >> 8 & 255, c & 255]; }
  function direction(rgb) {
    var top = Math.max(rgb[0], rgb[1], rgb[2]);
    return rgb.map(function (v) { return v / top; });
  }
  function dist(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }
  function like(rgb, led) { return dist(direction(rgb), direction(split(led))) < NEAR; }

  /* The role of a hole lit `rgb` (after the board's brightness), or null for a colour with no role. */
  function ledRole(rgb, brightness) {
    if (!rgb || rgb.length < 3) return "empty";
    rgb = rgb.slice(0, 3);
    var top = Math.max(rgb[0], rgb[1], rgb[2]);
    if (top === 0) return "empty";
    var dim = top * 100 / (255 * Math.max(brightness || 100, 1)) < DIM;
    for (var i = 0; i < LED_ROLES.length; i++) {
      var led = LED_ROLES[i][0];
      if ((Math.max.apply(null, split(led)) / 255 < DIM) === dim && like(rgb, led)) return LED_ROLES[i][1];
    }
    return null;
  }

  function holeRole(h, st) {
    var lights = st.lights || [];
    var rgb = lights[h - 1] || [];
    var role = ledRole(rgb, st.brightness || 100);
    if (role === "empty" && st.lifted === h) return "lifted";
    var pegs = st.pegs || [], illegal = st.illegal || [];
    if (st.theme === "wooden" && pegs.indexOf(h) >= 0 && illegal.indexOf(h) < 0 && rgb.length >= 3 &&
        Math.max(rgb[0], rgb[1], rgb[2]) && like(rgb.slice(0, 3), WOODEN[(h - 1) % 3])) return "peg";
    if (st.mode === "over" && role !== "peg" && role !== "empty") return null; // the celebration's colours
    return role;
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

  /* {role, symbol, bg, fg, words} of hole h: the role's look, a theme "pegs" peg in its own hue, or
     a colour with no role as the eye sees it (LEDs run dim: lifted). */
  function holeLook(h, st, pegs) {
    var role = holeRole(h, st);
    var rgb = (st.lights || [])[h - 1] || [];
    if (role === "peg" && st.theme === "pegs" && rgb.length >= 3) {
      for (var i = 0; i < HUES.length; i++) {
        if (Math.max(rgb[0], rgb[1], rgb[2]) && like(rgb.slice(0, 3), HUES[i])) {
          var own = split(HUES[i]);
          return { role: "peg", symbol: ROLES.peg[1], bg: hex(own), fg: ink(own), words: "peg" };
        }
      }
    }
    if (role) {
      var r = ROLES[role];
      return { role: role, symbol: r[1], bg: r[2], fg: r[3], words: r[0] };
    }
    var seen = [32, 32, 32];
    if (rgb.length >= 3 && Math.max(rgb[0], rgb[1], rgb[2]) > 0) {
      var m = Math.max(rgb[0], rgb[1], rgb[2]);
      var k = m < 128 ? 255 / m : 1;
      seen = rgb.slice(0, 3).map(function (v) { return Math.min(255, Math.floor(v * k)); });
    }
    var has = pegs.indexOf(h) >= 0;
    return { role: has ? "peg" : "empty", symbol: ROLES[has ? "peg" : "empty"][1], bg: hex(seen), fg: ink(seen),
             words: has ? "peg" : "empty" };
  }

  /* The jump the lights show (from, over, to each lit once), or null. */
  function litJump(st, holes) {
    var where = { from: [], over: [], to: [] };
    for (var h = 1; h <= holes; h++) {
      var role = holeRole(h, st);
      if (where[role]) where[role].push(h);
    }
    if (where.from.length === 1 && where.over.length === 1 && where.to.length === 1) {
      return [where.from[0], where.over[0], where.to[0]];
    }
    return null;
  }

  var api = { ROLES: ROLES, HUES: HUES, ledRole: ledRole, holeRole: holeRole, holeLook: holeLook, litJump: litJump,
              contrast: contrast };
  root.PegRoles = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
