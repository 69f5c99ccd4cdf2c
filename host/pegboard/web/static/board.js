/* The triangle of holes as an SVG that scales with its box (phone to projector). Each hole is a
   focusable button: its colour, its role's symbol (so colour is never the only clue), its number,
   and an aria-label in words. `draw(looks)` repaints; `onPick(hole)` is called for a click, Enter or
   Space on a hole; arrow keys move between holes. */
(function (root) {
  "use strict";

  var NS = "http://www.w3.org/2000/svg";
  var PITCH = 100, R = 44, DY = 88;

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  function BoardView(container, rows, options) {
    options = options || {};
    this.container = container;
    this.onPick = options.onPick || null;
    this.small = !!options.small;
    this.label = options.label || "the board";
    this.build(rows);
  }

  BoardView.prototype.build = function (rows) {
    var self = this;
    this.rows = rows;
    this.holes = rows * (rows + 1) / 2;
    this.container.textContent = "";
    var w = rows * PITCH, h = (rows - 1) * DY + PITCH;
    var svg = el("svg", { viewBox: "0 0 " + w + " " + h, class: "board-svg", role: "group", "aria-label": this.label });
    this.svg = svg;
    this.cells = [];
    var n = 1;
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c <= r; c++) {
        var x = (rows - 1 - r) * PITCH / 2 + c * PITCH + PITCH / 2, y = r * DY + PITCH / 2;
        var g = el("g", { class: "hole", "data-hole": n, transform: "translate(" + x + " " + y + ")" }, svg);
        if (!this.small) {
          g.setAttribute("tabindex", "0");
          g.setAttribute("role", "button");
          g.id = "hole-" + n;
        }
        var disc = el("circle", { r: R, class: "disc" }, g);
        var sym = el("text", { class: "sym", y: this.small ? 4 : -6, "text-anchor": "middle", "dominant-baseline": "middle" }, g);
        var num = null;
        if (!this.small) {
          num = el("text", { class: "num", y: 28, "text-anchor": "middle", "dominant-baseline": "middle" }, g);
          num.textContent = String(n);
        }
        this.cells.push({ g: g, disc: disc, sym: sym, num: num, hole: n, r: r, c: c });
        n++;
      }
    }
    if (!this.small) {
      svg.addEventListener("click", function (ev) {
        var g = ev.target.closest && ev.target.closest(".hole");
        if (g && self.onPick) self.onPick(Number(g.getAttribute("data-hole")));
      });
      svg.addEventListener("keydown", function (ev) { self.key(ev); });
    }
    this.container.appendChild(svg);
  };

  BoardView.prototype.cellAt = function (r, c) {
    if (r < 0 || r >= this.rows) return null;
    c = Math.max(0, Math.min(r, c));
    return this.cells[r * (r + 1) / 2 + c];
  };

  BoardView.prototype.key = function (ev) {
    var g = ev.target.closest && ev.target.closest(".hole");
    if (!g) return;
    var cell = this.cells[Number(g.getAttribute("data-hole")) - 1];
    var next = null;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      ev.stopPropagation();
      if (this.onPick) this.onPick(cell.hole);
      return;
    }
    if (ev.key === "ArrowLeft") next = this.cellAt(cell.r, cell.c - 1);
    else if (ev.key === "ArrowRight") next = this.cellAt(cell.r, cell.c + 1);
    else if (ev.key === "ArrowUp") next = this.cellAt(cell.r - 1, cell.c);
    else if (ev.key === "ArrowDown") next = this.cellAt(cell.r + 1, cell.c);
    if (next) {
      ev.preventDefault();
      next.g.focus();
    }
  };

  /* looks[h - 1] = {symbol, bg, fg, words, role, mark}: mark adds a ring (the stepped move). */
  BoardView.prototype.draw = function (looks) {
    for (var i = 0; i < this.cells.length; i++) {
      var cell = this.cells[i], look = looks[i];
      if (!look) continue;
      cell.disc.setAttribute("fill", look.bg);
      cell.disc.setAttribute("class", "disc" + (look.mark ? " marked" : ""));
      cell.sym.setAttribute("fill", look.fg);
      cell.sym.textContent = look.symbol;
      if (cell.num) cell.num.setAttribute("fill", look.fg);
      cell.g.setAttribute("data-role", look.role || "");
      cell.g.setAttribute("aria-label", "hole " + cell.hole + ": " + look.words);
    }
  };

  root.PegBoardView = BoardView;
})(typeof window !== "undefined" ? window : globalThis);
