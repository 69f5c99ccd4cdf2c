/* Solution files in the browser, checked as the PC checks them (host/pegboard/solve/solution_file.py,
   firmware/pegcore/geometry.py and moves.py, ported line for line): at most 64 KB, UTF-8, nested at
   most 8 levels, JSON, {"rows": 5, "empty": 4 | "start": [holes], "moves": [[from, over, to], ...]},
   every move legal from the start, and the file made for the board's size. A bad file is refused
   with the reason and nothing is sent. Also the triangle's geometry the page draws with. */
(function (root) {
  "use strict";

  var MAX_BYTES = 64 * 1024;
  var MAX_DEPTH = 8;
  var MIN_ROWS = 4, MAX_ROWS = 8;
  var DIRECTIONS = [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, -1]];

  function index(r, c) { return r * (r + 1) / 2 + c; }
  function isInt(v) { return typeof v === "number" && Number.isInteger(v); }

  /* pegcore.geometry.Board: holes 1..N top to bottom, left to right; jumps as [from, over, to]. */
  function Geometry(rows) {
    if (!isInt(rows) || rows < MIN_ROWS || rows > MAX_ROWS) {
      throw new Error("rows must be " + MIN_ROWS + ".." + MAX_ROWS + ", not " + JSON.stringify(rows));
    }
    this.rows = rows;
    this.holes = rows * (rows + 1) / 2;
    this.coords = [];
    for (var r = 0; r < rows; r++) for (var c = 0; c <= r; c++) this.coords.push([r, c]);
    this.jumps = []; // [from, over, to], 1-based
    for (var i = 0; i < this.holes; i++) {
      var rc = this.coords[i];
      for (var d = 0; d < DIRECTIONS.length; d++) {
        var dr = DIRECTIONS[d][0], dc = DIRECTIONS[d][1];
        var r2 = rc[0] + 2 * dr, c2 = rc[1] + 2 * dc;
        if (r2 >= 0 && r2 < rows && c2 >= 0 && c2 <= r2) {
          this.jumps.push([i + 1, index(rc[0] + dr, rc[1] + dc) + 1, index(r2, c2) + 1]);
        }
      }
    }
  }
  Geometry.prototype.checkHole = function (h) {
    if (!isInt(h) || h < 1 || h > this.holes) throw new Error("hole must be 1.." + this.holes + ", not " + JSON.stringify(h));
    return h;
  };
  Geometry.prototype.findJump = function (f, o, t) {
    for (var j = 0; j < this.jumps.length; j++) {
      var m = this.jumps[j];
      if (m[0] === f && m[1] === o && m[2] === t) return j;
    }
    return -1;
  };
  Geometry.prototype.rowCol = function (h) { return this.coords[h - 1]; };
  Geometry.prototype.rowsFor = function (holes) {
    for (var r = MIN_ROWS; r <= MAX_ROWS; r++) if (r * (r + 1) / 2 >= holes) return r;
    return 5;
  };

  /* Pegs as a Set of holes (masks would need BigInt past 31 holes: 8 rows have 36). */
  function isLegal(pegs, move) { return pegs.has(move[0]) && pegs.has(move[1]) && !pegs.has(move[2]); }
  function apply(pegs, move) {
    var out = new Set(pegs);
    out.delete(move[0]); out.delete(move[1]); out.add(move[2]);
    return out;
  }

  function SolutionError(message) {
    var e = new Error(message);
    e.name = "SolutionError";
    return e;
  }

  /* pegcore.moves.validate_moves: the pegs after the moves, or a throw naming the first bad step (0-based). */
  function validateMoves(g, pegs, moves) {
    for (var k = 0; k < moves.length; k++) {
      var mv = moves[k];
      var bad = function (why) { var e = new Error("step " + k + ": " + why); e.step = k; e.why = why; return e; };
      if (!Array.isArray(mv) || mv.length !== 3) throw bad("each move must be [from, over, to]");
      for (var i = 0; i < 3; i++) {
        if (!isInt(mv[i]) || mv[i] < 1 || mv[i] > g.holes) throw bad("holes must be 1.." + g.holes);
      }
      if (g.findJump(mv[0], mv[1], mv[2]) < 0) {
        throw bad(mv[0] + " -> " + mv[2] + " over " + mv[1] + " is not a jump on this board");
      }
      if (!isLegal(pegs, mv)) throw bad(mv[0] + " -> " + mv[2] + " over " + mv[1] + " is not legal here");
      pegs = apply(pegs, mv);
    }
    return pegs;
  }

  /* How deep the JSON text's brackets nest (outside strings), without parsing it. */
  function nesting(text) {
    var depth = 0, deepest = 0, inString = false, escaped = false;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === "\\") escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "[" || ch === "{") { depth++; deepest = Math.max(deepest, depth); }
      else if (ch === "]" || ch === "}") depth--;
    }
    return deepest;
  }

  function sorted(set) { return Array.from(set).sort(function (a, b) { return a - b; }); }
  function fmt(mv) { return "[" + mv.map(function (x) { return JSON.stringify(x); }).join(", ") + "]"; }

  /* check_solution: {rows, empty (or null), start: [holes], moves}. */
  function checkSolution(sol, where) {
    where = where || "solution";
    if (!sol || typeof sol !== "object" || Array.isArray(sol)) {
      throw SolutionError(where + ": expected an object with rows, empty and moves");
    }
    var rows = "rows" in sol ? sol.rows : 5;
    var g;
    try { g = new Geometry(rows); } catch (e) { throw SolutionError(where + ": " + e.message); }
    var empty = sol.empty === undefined ? null : sol.empty, start = sol.start === undefined ? null : sol.start;
    if ((empty === null) === (start === null)) {
      throw SolutionError(where + ": give the start as empty (one hole) or start (the holes with pegs), one of them");
    }
    var pegs = new Set();
    if (start !== null) {
      if (!Array.isArray(start) || !start.length) {
        throw SolutionError(where + ": start must be a non-empty list of the holes with pegs");
      }
      start.forEach(function (h) {
        try { g.checkHole(h); } catch (e) { throw SolutionError(where + ": start: " + e.message); }
        if (pegs.has(h)) throw SolutionError(where + ": start: hole " + h + " is listed twice");
        pegs.add(h);
      });
      var gaps = [];
      for (var h = 1; h <= g.holes; h++) if (!pegs.has(h)) gaps.push(h);
      if (gaps.length <= 1) empty = gaps.length ? gaps[0] : null; // a full board less one: the same as empty
    } else {
      try { g.checkHole(empty); } catch (e) { throw SolutionError(where + ": empty: " + e.message); }
      for (var k = 1; k <= g.holes; k++) if (k !== empty) pegs.add(k);
    }
    var moves = sol.moves;
    if (!Array.isArray(moves) || !moves.length) {
      throw SolutionError(where + ": moves must be a non-empty list of [from, over, to]");
    }
    try {
      validateMoves(g, pegs, moves);
    } catch (e) {
      throw SolutionError(where + ": move " + (e.step + 1) + " " + fmt(moves[e.step]) + ": " + e.why);
    }
    return { rows: rows, empty: empty, start: sorted(pegs), moves: moves };
  }

  /* load_solution for a file's bytes (ArrayBuffer or Uint8Array) named `name`; `boardRows`: the
     connected board's rows (a file for another size is refused, naming both), or null. */
  function loadSolution(bytes, name, boardRows) {
    var raw = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    if (raw.length > MAX_BYTES) {
      throw SolutionError(name + " is over " + MAX_BYTES / 1024 + " KB: a solution file is a few hundred bytes");
    }
    var text;
    try { text = new TextDecoder("utf-8", { fatal: true }).decode(raw); } catch (e) {
      throw SolutionError(name + " is not UTF-8 text");
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    var depth = nesting(text);
    if (depth > MAX_DEPTH) {
      throw SolutionError(name + " is nested " + depth + " levels deep (at most " + MAX_DEPTH + "): a solution file is " +
                          '{"rows": 5, "empty": 4, "moves": [[4, 2, 1], ...]}');
    }
    var sol;
    try { sol = JSON.parse(text); } catch (e) { throw SolutionError(name + " is not JSON: " + e.message); }
    var out = checkSolution(sol, name);
    if (boardRows && out.rows !== boardRows) {
      throw SolutionError(name + " is for " + out.rows + " rows (" + out.rows * (out.rows + 1) / 2 + " holes); this board has " +
                          boardRows + " rows (" + boardRows * (boardRows + 1) / 2 + " holes)");
    }
    return out;
  }

  var api = { Geometry: Geometry, checkSolution: checkSolution, loadSolution: loadSolution, nesting: nesting,
              validateMoves: validateMoves, apply: apply, isLegal: isLegal, MAX_BYTES: MAX_BYTES, MAX_DEPTH: MAX_DEPTH };
  root.PegSolution = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
