/* The board's events in plain words, as the terminal UI's log says them (host/pegboard/tui/words.py). */
(function (root) {
  "use strict";

  var VERDICTS = { "genius": "genius!", "purty smart": "purty smart", "just plain dumb": "just plain dumb",
                   "eg-no-ra-moose": "eg-no-ra-moose" };
  // a tune the board's piezo played (tui/words.py TUNES)
  var TUNES = { buzz: "♪ the board buzzes", win: "♪ the board plays its win tune",
                lost: "♪ the board plays its lost-game tune", best: "♪ the board chirps: a new personal best" };
  var GUIDE_OFF = { done: "solution complete", different_move: "a different move was made", undo: "a move was undone",
                    stopped: "stopped", new_game: "a new game started", setup: "the game ended",
                    game_over: "the game is over" };
  var SETUP_WHY = { emptied: "the board was emptied: game abandoned, free play", game_over: "the game is over: free play",
                    request: "the game ended: the board shows the position to set up",
                    review: "the board lights where the win was lost",
                    puzzle: "the board lights the puzzle's position to set up" };
  var GRADES = { 1: "easy", 2: "fair", 3: "tricky", 4: "hard", 5: "hardest" };
  var MODE_WORDS = { setup: "setting up", play: "playing", illegal: "illegal placement", over: "game over",
                     demo: "a show running", guide: "guiding" };
  var SHOW_WORDS = { demo: "demo running", watch: "the solver's search running", selftest: "self-test running" };
  var DONE = { demo_done: "demo", watch_done: "the solver's search", selftest_done: "self-test" };

  function count(n, word) { return n === 0 ? "no " + word + "s" : n + " " + word + (n === 1 ? "" : "s"); }
  function pegs(n) { return count(n, "peg"); }
  function holes(list) { return (list || []).join(", "); }
  function move(mv) { return mv ? mv[0] + " → " + mv[2] + " over " + mv[1] : "?"; }

  function startText(e) {
    var text = e.empty ? "hole " + e.empty + " empty" : e.start ? "from pegs in " + holes(e.start) : "from the pegs as they stand";
    if (e.finish) text += ", finish in hole " + e.finish;
    return text;
  }

  function gameOverText(left, verdict) {
    var head = left === 1 ? "You won" : "Game over";
    var what = left === 1 ? "one peg left" : pegs(left) + " left";
    return head + ": " + what + (verdict ? " — " + (VERDICTS[verdict] || verdict) : "");
  }

  /* a challenge ("finish:13", "leave:3", "most:10") in words, as tui/words.py says it */
  function challengeText(c) {
    if (!c) return "no challenge";
    var i = c.indexOf(":"), kind = i < 0 ? c : c.slice(0, i), n = i < 0 ? "" : c.slice(i + 1);
    if (kind === "finish") return "the last peg in hole " + n;
    if (kind === "leave") return "leave exactly " + pegs(+n);
    return "the reverse game: leave as many pegs as you can" + (n ? " (" + n + ")" : "");
  }

  function hintText(h) {
    if (h.challenge) {
      if (!h.move) return h.reachable === false ? "hint: " + challengeText(h.challenge) + " can no longer be met"
        : "hint: no jump left";
      return "hint: " + move(h.move) + " (toward " + challengeText(h.challenge) + ")";
    }
    if (!h.move) return "hint: no jump left (" + (h.best_left ? pegs(h.best_left) + " on the board" : "the board is empty") + ")";
    if (h.solvable) return "hint: " + move(h.move);
    return "hint: " + move(h.move) + " (one peg is out of reach: best is " + pegs(h.best_left) + " left)";
  }

  // a `review` reply: the move that lost the win, and one that would have kept it
  function reviewText(r) {
    var goal = r.finish ? "one peg in hole " + r.finish : "one peg left";
    var which = r.game ? "game " + r.game : "the game";
    if (r.verdict === "lost_from_start") return which + " could not end with " + goal + " from its start: no move lost it";
    if (r.verdict !== "lost_at") return which + " never lost its win (" + goal + " was still possible after every move)";
    return "move " + r.move_number + " of " + which + ", " + move(r.played) + ", lost the win (" + goal + "); " +
      move(r.better) + " would have kept it. The board lights the position before it: set the pegs as lit to play on from there";
  }

  function clockText(secs) {
    var h = Math.floor(secs / 3600), m = Math.floor(secs / 60) % 60, s = secs % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  // a game over's time on the board's clock (nothing from firmware that keeps none)
  function timeText(e) { return typeof e.seconds === "number" ? " in " + clockText(e.seconds) : ""; }

  // a `best` event: a new personal best for the game's start (and challenge), with the one it beat
  function bestText(e) {
    var text = "a new personal best for this start: " + pegs(e.pegs) + " in " + clockText(e.seconds || 0);
    var was = e.before;
    if (was && typeof was === "object") text += " (before: " + pegs(was.pegs) + " in " + clockText(was.seconds || 0) + ")";
    return text;
  }

  // a `puzzle` reply or event in words: which puzzle, its grade, its goal, what to set
  function puzzleText(r) {
    var goal = r.finish ? "one peg left in hole " + r.finish : "one peg left";
    var text = "puzzle " + r.n + " of " + r.count + ", grade " + r.grade + " (" + (GRADES[r.grade] || "?") + "): " + goal +
      " from pegs " + (r.pegs || []).join(",");
    if (r.solved) text += " (solved before)";
    text += "; " + (r.solved_count || 0) + " of " + r.count + " solved";
    if ("done" in r) text += r.done ? ". The pegs are set: play" : ". Set the pegs as lit: a game starts from them";
    return text;
  }

  function eventText(e) {
    var n = e.event;
    switch (n) {
      case "new_game": return (e.puzzle ? "puzzle " + e.puzzle + ": " : e.retry ? "retry: " : "new game: ") + startText(e);
      case "puzzle": return puzzleText(e);
      case "puzzle_solved": return "puzzle " + e.n + " solved: the board keeps it";
      case "best": return bestText(e);
      case "setup": return SETUP_WHY[e.reason] || "free play";
      case "setup_done": return "the position is set: a game starts from it";
      case "lift": return "peg lifted from " + e.hole;
      case "place": return "peg placed in " + e.hole;
      case "move": return move(e.move) + " (" + pegs(e.pegs_left) + " left)";
      case "undo": return "undo: " + move(e.move) + " taken back";
      case "illegal": return "illegal placement at " + holes(e.holes) + ": put it back";
      case "recovered": return "the pegs make sense again";
      case "game_over": {
        var text = gameOverText(e.pegs_left, e.verdict);
        if (e.challenge) {
          text += "; challenge (" + challengeText(e.challenge) + ") " +
            (e.met === true ? "met" : e.met === false ? "missed" : "not judged");
        } else if (e.in_finish === true) {
          text += " (in the finish hole)";
        } else if (e.in_finish === false) {
          text += " (not in the finish hole)";
        }
        return text + timeText(e);
      }
      case "challenge":
        if (!e.challenge) return "challenge taken off: the game is scored as usual";
        return "challenge: " + challengeText(e.challenge) +
          (e.reachable === false ? " (it can no longer be met from here)" : "");
      case "hint": return hintText(e);
      case "button":
        if (e.pressed) return null;
        if (e.ms >= 3000) return "the board's button held " + (e.ms / 1000).toFixed(1) + " s: play from here";
        if (e.ms >= 800) return "the board's button held " + (e.ms / 1000).toFixed(1) + " s: the board demonstrates";
        return "hint button pressed";
      case "demo_step": return "demo: move " + e.step + " made: " + move(e.move);
      case "guide_step": return "guide " + e.step + ": " + move(e.move) + " done, " +
        (e.remaining === 0 ? "that was the last" : e.remaining + " to go");
      case "guide_astray": return move(e.move) + " is not the guide's move: put it back as lit (fill the green holes, " +
        "take out the orange peg), or play on and the guide follows";
      case "guide_back": return "guide back at move " + ((e.step || 0) + 1) + (e.move ? ": " + move(e.move) : "");
      case "guide_line":
        if (e.solvable === null || e.solvable === undefined) return "the guide found no line from here: " + (e.message || "it gave up");
        return "the guide follows a new line from here: " + count((e.moves || []).length, "move") +
          (e.solvable ? "" : " (one peg is out of reach: it leaves the fewest)");
      case "guide_off": return "guide off: " + (GUIDE_OFF[e.reason] || e.reason);
      case "overflow": return "too many sensor changes at once: the board re-read every hole";
      case "resumed": return "game resumed after power loss: " + startText(e) + ", " + count((e.moves || []).length, "move");
      case "sensors": return "sensors: pegs in " + (holes(e.pegs) || "no hole");
      case "quiet": return "the board is being updated: hints are off for " + e.seconds + " s";
      case "quiet_done": return e.hint_table ? "the update is over: hints are on again" : "the update is over, but the hint table did not open";
      case "error": return "the board hit an error and carries on: " + e.message;
      case "tune": return TUNES[e.name] || null;  // (a click needs no words: its move is told)
      case "refused": return "the button's request was refused: " + e.message;
      case "lost": return "the board is gone (unplugged?): waiting for it to come back";
      case "reconnected": return "the board is back" + (e.port ? " on " + e.port : "") + ": catching up";
      case "rebooted": return "the board restarted";
      case "resync": {
        var parts = [];
        if (e.new_game) parts.push("a new game began meanwhile");
        if (e.missed && e.missed.length && !e.new_game) parts.push(count(e.missed.length, "move") + " made meanwhile: " + e.missed.map(move).join(", "));
        if (e.undone && e.undone.length) parts.push(count(e.undone.length, "move") + " taken back");
        return "caught up" + (parts.length ? ": " + parts.join("; ") : ": nothing was missed");
      }
      default:
        if (DONE[n]) return DONE[n] + " " + (e.stopped ? "stopped" : "done");
        return String(n || "?").replace(/_/g, " ");
    }
  }

  function modeText(st, n, canPlay) {
    if (st.target && st.target.length) {
      return "setting up a position (" + pegs(st.target.length) + "): fill the holes lit green (◎), take out the pegs lit orange (⊗)";
    }
    if (st.mode === "starting") return "the board is starting: it has not read its pegs yet";
    if (st.mode === "setup") {
      return "free play: " + pegs(n) + " set by hand (hints are about them)" + (canPlay ? "; “Play from here” starts a game from them" : "");
    }
    var parts = [pegs(n)];
    if (st.empty_start) parts.push("from hole " + st.empty_start);
    else if (st.start) parts.push("from a hand-set start of " + pegs(st.start.length));
    if (st.finish) parts.push("finish in hole " + st.finish);
    var words = MODE_WORDS[st.mode] || st.mode || "waiting for the board";
    if (st.mode === "demo" && st.show && SHOW_WORDS[st.show.kind]) words = SHOW_WORDS[st.show.kind]; // which show
    return words + ": " + parts.join(", ");
  }

  var api = { challengeText: challengeText, eventText: eventText, reviewText: reviewText, clockText: clockText, puzzleText: puzzleText, modeText: modeText, gameOverText: gameOverText, move: move, pegs: pegs, count: count,
              startText: startText, MODE_WORDS: MODE_WORDS };
  root.PegWords = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
