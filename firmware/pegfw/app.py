"""The main loop: sensors -> game tracker -> events and lights; the hint button; the serial
protocol; shows; NVM; watchdog. App takes plain objects (see devices.Devices) so tests and the
simulator drive the very same code."""

import sys

try:
    from typing import Any  # noqa: F401 (used in type comments)
except ImportError:  # CircuitPython and MicroPython have no typing module
    pass

from pegcore.advisor import Advisor
from pegcore.geometry import Board
from pegcore.rules import holes_of
from pegfw import colors, shows, unload
from pegfw.clock import ticks_diff
from pegfw.lights import Limiter, base_frame
from pegfw.protocol import Link, ProtocolError, parse_request
from pegfw.store import Store
from pegfw.tracker import Tracker
from pegfw.commands import MORE_COMMANDS, Commands

LONG_PRESS_MS = 800
SETTLE_MS = 60          # quiet time after a keypad reset before trusting the picture
FRAME_MS = 20           # animate at most every 20 ms
CATCHUP_STEPS = 2       # positions a resumed game's catch-up search visits per pass (~5 ms on a chip)


class App(Commands):
    def __init__(self, hw, cfg, table=None, runtime=None):
        """`table`: the hint table (pegfw.startup.load_table) for a 15-hole board, else None."""
        self.hw = hw
        self.sensors = cfg.sensors  # the settings themselves are not kept: their class is heap
        self.board = Board(cfg.rows)
        self.tracker = Tracker(self.board)
        self.link = Link(hw.serial)
        self.limiter = Limiter(cfg.current_ma, cfg.brightness)
        self.theme = cfg.theme
        self.table = table
        self.advisor = Advisor(self.board, self.table)
        self.store = Store(hw.nvm, cfg.rows)
        self.runtime = runtime or sys.implementation.name
        self.sensed = 0
        self.pending_lines = []
        self.settle_until = None
        self.show = None  # type: Any  # the running show (hint, game over, demo, watch, selftest)
        self.show_kind = None
        self.show_modules = ()  # modules loaded for the running show, dropped when it ends
        self.guide = None         # remaining jumps of an uploaded solution being guided
        self.guide_step = 0
        self.press_at = None
        self.press_swallowed = False
        self.last_frame = None
        self.next_frame = 0
        self._base_version = -1
        self._base_theme = None
        self._base = []  # type: list
        self.selftest_until = None
        self.resuming = False  # a resumed game's catch-up may still run (pegfw.resume loaded)
        self.chase = None  # type: Any  # its search, while a picture needs one
        self.overflows = 0
        self.errors = 0
        self.loops = 0
        now = hw.ticks_ms()
        self._rescan(now)

    # -- sensors -----------------------------------------------------------------------------
    def _rescan(self, now):
        """Forget the event stream and re-read the whole board: keypad's reset() reports every
        held key as pressed again; the picture is trusted once the stream is quiet."""
        keys = self.hw.sensors
        keys.events.clear()
        keys.reset()
        self.sensed = 0
        self.settle_until = now + SETTLE_MS

    def _poll_sensors(self, now):
        keys = self.hw.sensors
        ev = self.hw.event
        changed = False
        while keys.events.get_into(ev):
            bit = 1 << ev.key_number
            if ev.pressed:
                self.sensed |= bit
            else:
                self.sensed &= ~bit
            changed = True
        if keys.events.overflowed:
            self.overflows += 1
            self.link.event("overflow", {"count": self.overflows})
            self._rescan(now)
            return
        if self.settle_until is not None:
            if changed:
                self.settle_until = now + SETTLE_MS
            elif ticks_diff(now, self.settle_until) >= 0:
                self.settle_until = None
                self._adopt_whole_board()
            return
        if changed:
            self._events(self.tracker.sense(self.sensed))
            if self.selftest_until is not None:
                self.link.event("sensors", {"pegs": holes_of(self.sensed)})

    def _adopt_whole_board(self):
        t = self.tracker
        if t.mode == "setup" and self.store.empty_start:
            from pegfw.resume import resume  # only after a reset mid-game

            events = resume(self)
            del resume
            self.resuming = True
        else:
            events = t.reset(self.sensed)
        self._events(events)

    def _catch_up(self):
        """After a resume, a picture the game cannot explain may hold moves made while the
        firmware was down: search for them, a few positions per pass (pegfw.resume.Catchup)."""
        t = self.tracker
        if not t.catchup:
            self.chase = None
            self.resuming = False
            unload("pegfw.resume")
            return
        c = self.chase
        if c is None or c.target != t.sensed:
            from pegfw.resume import Catchup

            c = self.chase = Catchup(t, t.base[1], t.sensed)
        if c.done:
            return  # the picture fits the game, or nothing fits it: wait for the next one
        found = c.run(CATCHUP_STEPS)
        if found:
            from pegfw.resume import take_line

            self._events(take_line(t, found))
        elif found is False and t._fit(t.position, t.sensed, t._previous()) == 3:
            events = []
            t.flag(events)  # no moves explain it either: an illegal placement after all
            self._events(events)

    # -- game events -------------------------------------------------------------------------
    def _events(self, events):
        b = self.board
        now = self.hw.ticks_ms()
        for e in events:
            name = e[0]
            if name in ("lift", "place"):
                self.link.event(name, {"hole": e[1]})
            elif name == "new_game":
                self._stop_show()
                self.guide = None
                self.store.new_game(e[1])
                self.link.event("new_game", {"empty": e[1]})
            elif name == "move":
                self.store.move(e[1])
                self.link.event("move", {"move": b.move_of(e[1]), "pegs_left": e[2]})
                self._guide_check(e[1])
                if self.show_kind == "hint":
                    self._stop_show()
            elif name == "undo":
                self.store.undo()
                self.link.event("undo", {"move": b.move_of(e[1])})
                if self.guide is not None:
                    self._guide_off("undo")
            elif name == "illegal":
                self.link.event("illegal", {"holes": e[1]})
            elif name == "recovered":
                self.link.event("recovered")
            elif name == "game_over":
                self.store.game_over(e[1])
                self.link.event("game_over", {"pegs_left": e[1], "verdict": e[2]})
                if self.show_kind not in ("demo", "watch"):
                    from pegfw.show_over import GameOverShow

                    self._start_show("over", GameOverShow(b.holes, now, e[2]), ("pegfw.show_over",))

    def _guide_check(self, jump):
        if self.guide is None:
            return
        if self.guide and self.guide[0] == jump:
            self.guide.pop(0)
            self.guide_step += 1
            self.link.event("guide_step", {"step": self.guide_step, "move": self.board.move_of(jump),
                                           "remaining": len(self.guide)})
            if not self.guide:
                self._guide_off("done")
        else:
            self._guide_off("different_move")

    def _guide_off(self, reason):
        self.guide = None
        self.link.event("guide_off", {"reason": reason})

    # -- button ------------------------------------------------------------------------------
    def _poll_button(self, now):
        keys = self.hw.button
        ev = self.hw.event
        while keys.events.get_into(ev):
            if ev.pressed:
                self.press_at = now
                self.press_swallowed = False
                self.link.event("button", {"pressed": True})
                if self.show_kind == "watch" and self.show.speed_ms == 0:
                    self.show.step()
                    self.press_swallowed = True
                elif self.show_kind in ("demo", "watch", "selftest"):
                    self._stop_show()  # any press stops a demonstration
                    self.press_swallowed = True
            elif self.press_at is not None:
                held = ticks_diff(now, self.press_at)
                self.press_at = None
                if not self.press_swallowed:
                    if held >= LONG_PRESS_MS:
                        self._start_demo(None, now)
                    else:
                        self._hint(now)  # lights before the event's JSON
                self.link.event("button", {"pressed": False, "ms": held})
        if keys.events.overflowed:
            keys.events.clear()

    # -- actions -----------------------------------------------------------------------------
    def _in_game(self):
        """The tracked position came by legal jumps from one empty hole (the hint table's domain);
        in setup the pegs are whatever hands put there."""
        return self.tracker.mode != "setup"

    def _forget_search(self):
        """After advice on a hand-made position (setup), give the search's memos (8 KB) and code
        back. In a game they stay: a board without the table searches for every hint."""
        if not self._in_game() and self.advisor.forget():
            for name in ("pegcore.solver", "pegcore.memo", "pegcore.parity"):
                unload(name)

    def _hint(self, now):
        j, ok, left = self.advisor.hint(self.tracker.position, self._in_game())
        self._start_show("hint", shows.HintShow(self.board, now, j, ok))
        self._draw(now)  # lights first: the player is waiting; the host can wait a pass
        move = self.board.move_of(j) if j >= 0 else None
        self.link.event("hint", {"move": move, "solvable": ok, "best_left": left})
        self._forget_search()
        return move, ok, left

    def _start_demo(self, jumps, now, start=None):
        pos = self.tracker.position if start is None else start
        if jumps is None:
            jumps = self.advisor.solution(pos, start is not None or self._in_game())
            self._forget_search()
        from pegfw.show_demo import DemoShow

        self._start_show("demo", DemoShow(self.board, now, pos, jumps), ("pegfw.show_demo",))
        return jumps

    def _start_show(self, kind, show, modules=()):
        """Run `show`; `modules` were loaded for it alone and leave the heap when it ends."""
        for name in self.show_modules:
            if name not in modules:
                unload(name)
        self.show = show
        self.show_kind = kind
        self.show_modules = modules
        self.last_frame = None

    def _stop_show(self, stopped=True):
        if self.show_kind in ("demo", "watch", "selftest"):  # a show the host started ends
            self.link.event(self.show_kind + "_done", {"stopped": stopped})
        if self.show_kind == "selftest":
            self.selftest_until = None
        self.show = None
        self.show_kind = None
        for name in self.show_modules:
            unload(name)
        self.show_modules = ()
        self.last_frame = None

    # -- lights ------------------------------------------------------------------------------
    def _frame(self, now):
        t = self.tracker
        if t.version != self._base_version or self.theme != self._base_theme:
            # the steady picture only changes with the pegs (or the theme)
            self._base_version, self._base_theme = t.version, self.theme
            self._base = base_frame(self.board, t, self.theme)
        base = self._base
        if self.guide and t.mode == "play" and t.sensed == t.position:
            base = shows.paint_jump(base, self.board, self.guide[0], colors.HINT_FROM, colors.HINT_OVER,
                                    colors.HINT_TO)
        if self.show is None:
            return base
        frame = self.show.frame(now, base)
        if self.show_kind == "demo":
            for k in self.show.take_steps():
                self.link.event("demo_step", {"step": k + 1, "move": self.board.move_of(self.show.jumps[k])})
        if frame is None:
            self._stop_show(stopped=False)
            return base
        return frame

    def _draw(self, now):
        if self.show is None and self.last_frame is not None and ticks_diff(now, self.next_frame) < 0:
            return
        frame = self.limiter.limit(self._frame(now))
        self.next_frame = now + FRAME_MS
        if frame != self.last_frame:
            self.hw.show(frame)
            self.last_frame = frame

    # -- the loop ----------------------------------------------------------------------------
    def step(self):
        """One pass of the main loop: never waits for anything."""
        now = self.hw.ticks_ms()
        self._poll_sensors(now)
        self._poll_button(now)
        if self.resuming:
            self._catch_up()
        # flow control: take requests only while their replies have room to wait in; the rest
        # stay queued (here or in the USB buffer) until the host reads
        if not self.pending_lines and self.link.has_room():
            self.pending_lines = self.link.read_lines()
        while self.pending_lines and self.link.has_room():
            self._request(self.pending_lines.pop(0), now)
        if self.selftest_until is not None and ticks_diff(now, self.selftest_until) >= 0:
            self._stop_show(stopped=False)  # the self-test's time is up: selftest_done
        self._draw(now)
        self.link.flush()
        self.hw.feed()
        self.loops += 1

    def run(self):
        while True:
            try:
                self.step()
            except MemoryError:
                import gc

                gc.collect()
                self.errors += 1
            except Exception as e:  # keep the board alive; the host hears about it
                self.errors += 1
                print("pegboard: loop error:", repr(e))
                self.link.event("error", {"message": repr(e)[:120], "count": self.errors})

    # -- protocol ----------------------------------------------------------------------------
    def _request(self, line, now):
        link = self.link
        if line is None:
            link.error(None, "line_too_long", "requests are at most 512 bytes; the line was discarded")
            return
        if not line.strip():
            return  # a blank line (a human pressing Enter) asks nothing
        try:
            rid, cmd, req = parse_request(line)
        except ProtocolError as e:
            link.error(e.rid, e.code, e.message)
            return
        try:
            self._answer(rid, cmd, req, now)
        except Exception as e:  # whatever went wrong, the line gets its one reply
            self.errors += 1
            link.error(rid, "internal", "the board could not answer: %s" % repr(e)[:80])

    def _answer(self, rid, cmd, req, now):
        link = self.link
        # names are checked before any lookup: MicroPython and CircuitPython raise for names of
        # 255+ bytes, outside any reply
        known = len(cmd) <= 12 and cmd.isalpha()
        handler = getattr(Commands, "cmd_" + cmd, None) if known else None  # type: Any
        more = handler is None and known and cmd in MORE_COMMANDS
        if handler is None and not more:
            link.error(rid, "unknown_cmd", "unknown command %r" % cmd[:40])
            return
        name = "cmd_" + cmd
        # a rare request: its code (and what it imports) is compiled for the answer and dropped
        # after it, but for the modules of a show it started
        loaded = list(sys.modules) if more else None
        try:
            if more:
                from pegfw import more_commands

                handler = getattr(more_commands, name)
                del more_commands
            fields = handler(self, req, now)
        except ProtocolError as e:
            link.error(rid, e.code, e.message, e.extra)
            return
        except MemoryError:
            import gc

            gc.collect()
            link.error(rid, "no_memory", "the board is short of memory for this request: try again")
            return
        finally:
            if loaded is not None:
                handler = None
                for m in list(sys.modules):
                    if m.startswith("peg") and m not in loaded and m not in self.show_modules:
                        unload(m)
        link.reply(rid, fields or {})

