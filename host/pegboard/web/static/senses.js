/* The board's senses on the page: each role's pattern in time when the board's roles are "motion"
   (the same patterns as its lights: pegcore.rolemotion), and its tunes played through Web Audio
   (the same notes as its piezo: pegfw.sound), muted until the user turns sound on: a page never
   makes a noise nobody asked for, and browsers allow audio only after a gesture anyway.
   Both tables are the Python ones, written here by `python -m pegboard.web.tables`. */
(function (root) {
  "use strict";

  // role -> [shift, 16 levels in eighths]: level = levels[(ms >> shift) & 15] (pegcore.rolemotion)
  var PATTERNS = /*PATTERNS*/{"from": [7, [2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2]], "over": [7, [8, 8, 1, 1, 8, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]], "to": [7, [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 1, 1]], "landing": [8, [4, 4, 5, 6, 7, 8, 8, 8, 8, 8, 7, 6, 5, 4, 4, 4]], "pull": [7, [8, 8, 8, 8, 1, 1, 1, 1, 8, 8, 8, 8, 1, 1, 1, 1]], "illegal": [6, [8, 1, 8, 1, 8, 1, 8, 1, 8, 1, 8, 1, 8, 1, 8, 1]]}/*END*/;
  // tune -> [[Hz, ms], ...], 0 Hz a rest (pegfw.sound.TUNES)
  var TUNES = /*TUNES*/{"click": [[4000, 15]], "buzz": [[180, 350]], "win": [[1047, 110], [1319, 110], [1568, 110], [2093, 330]], "lost": [[784, 180], [659, 180], [523, 180], [392, 420]], "best": [[2637, 50], [0, 40], [3136, 50], [0, 40], [4186, 120]]}/*END*/;
  var FULL = 8;

  function level(role, ms) {
    var p = PATTERNS[role];
    return p ? p[1][(Math.floor(ms) >> p[0]) & 15] : FULL;
  }

  /* "#rrggbb" at level/8 of its brightness */
  function dim(hex, lv) {
    if (lv >= FULL) return hex;
    var n = parseInt(hex.slice(1), 16);
    var out = [n >> 16 & 255, n >> 8 & 255, n & 255].map(function (v) {
      return ("0" + Math.floor(v * lv / FULL).toString(16)).slice(-2);
    });
    return "#" + out.join("");
  }

  /* looks (roles.js holeLook) with each role's level now */
  function animate(looks, ms) {
    return looks.map(function (l) {
      var lv = level(l.role, ms);
      if (lv >= FULL) return l;
      var out = {};
      Object.keys(l).forEach(function (k) { out[k] = l[k]; });
      out.bg = dim(l.bg, lv);
      out.fg = lv <= 2 ? "#ffffff" : l.fg;  // the symbol stays readable on a dimmed disc
      return out;
    });
  }

  /* Tunes through Web Audio, once allowed (a click on the page's sound button). */
  function Sound() {
    this.ctx = null;
    this.on = false;
    this.volume = 0.15;
    this.played = [];  // [name, when] of what this page played (the tests read it)
  }

  Sound.prototype.allow = function (on) {
    this.on = !!on;
    if (this.on && !this.ctx) {
      var AC = root.AudioContext || root.webkitAudioContext;
      this.ctx = AC ? new AC() : null;
    }
    if (this.ctx && this.on && this.ctx.state === "suspended") this.ctx.resume();
    return this.on && !!this.ctx;
  };

  Sound.prototype.play = function (name) {
    var notes = TUNES[name];
    if (!notes || !this.on || !this.ctx) return false;
    var t = this.ctx.currentTime + 0.01;
    var gain = this.ctx.createGain();
    gain.gain.value = this.volume;
    gain.connect(this.ctx.destination);
    var self = this;
    notes.forEach(function (n) {
      if (n[0]) {
        var o = self.ctx.createOscillator();
        o.type = "square";  // a piezo's PWM is a square wave
        o.frequency.value = n[0];
        o.connect(gain);
        o.start(t);
        o.stop(t + n[1] / 1000);
      }
      t += n[1] / 1000;
    });
    this.played.push([name, Date.now()]);
    return true;
  };

  root.PegSenses = { PATTERNS: PATTERNS, TUNES: TUNES, level: level, dim: dim, animate: animate, Sound: Sound };
})(typeof window !== "undefined" ? window : globalThis);
