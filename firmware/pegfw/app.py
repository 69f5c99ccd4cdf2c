"""The main loop: sensors -> game tracker -> events and lights; the hint button; the serial
protocol; shows; NVM; watchdog. App takes plain objects (see devices.Devices) so tests and the
simulator drive the very same code."""

import gc
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

# the chip's free heap; CPython (the simulator, tests) has no heap of its own to report
MEM_FREE = getattr(gc, "mem_free", None)
LONG_PRESS_MS = 800
REQUESTS_PER_PASS = 8   # everyday requests answered in one loop pass at most (a rare one ends the pass)
JOB_SLICE = 8           # positions a long request searches per loop pass (~10 ms on an RP2040)
JOB_LIMIT = 2400        # ... and in all (~3 s on an RP2040) before it answers that it gave up
SETTLE_MS = 60          # quiet time after a keypad reset before trusting the picture
FRAME_MS = 20           # animate at most every 20 ms
DEFERRED = object()     # a handler's answer when a job will reply later
BUTTON = object()       # who asked, when it was the button (a request's id may be None)
HEAP_SAMPLE_MS = 10000  # how often the board collects and notes its free heap (stats)
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
        self.request_id = None
        self.compiled = False  # the last request loaded code of its own (pegfw.more_commands)
        self.job = None  # type: Any  # (job, request id): a long request run a slice per pass
        self.job_modules = ()
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
        self.reset_at = None  # a `reset` request: when to reset (its reply has gone out by then)
        self.resuming = False  # a resumed game's catch-up may still run (pegfw.resume loaded)
        self.chase = None  # type: Any  # its search, while a picture needs one
        self.overflows = 0
        self.errors = 0
        self.loops = 0
        # the board measures itself (stats): the first real board checks every published estimate
        self.longest_pass_ms = 0
        self.free_heap_low = 1 << 30 if MEM_FREE else None  # the first pass samples it
        self.heap_sample_at = hw.ticks_ms()
        self.hint_ms = None  # the last hint: button released (or request read) -> its lights sent
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
                self.cancel_job("position")
                self._stop_show()
                self.guide = None
                self.store.new_game(e[1])
                self.link.event("new_game", {"empty": e[1]})
            elif name == "move":
                self.cancel_job("position")
                self.store.move(e[1])
                self.link.event("move", {"move": b.move_of(e[1]), "pegs_left": e[2]})
                self._guide_check(e[1])
                if self.show_kind == "hint":
                    self._stop_show()
            elif name == "undo":
                self.cancel_job("position")
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
                    if self.job is not None:
                        pass  # the board is still thinking about the last request
                    elif held >= LONG_PRESS_MS:
                        self.start_demo(None, now)
                    else:
                        self.hint(now)  # lights before the event's JSON
                self.link.event("button", {"pressed": False, "ms": held})
        if keys.events.overflowed:
            keys.events.clear()

    # -- actions -----------------------------------------------------------------------------
    def hint(self, now, rid=BUTTON):
        """The best move, lit, and a hint event; the reply's fields for request `rid`. A lookup on
        the 15-hole board; elsewhere a search run as a job (the answer comes a few passes later)."""
        if self.table is None:
            self.not_thinking()
            from pegfw import jobs

            return jobs.hint(self, rid, now)
        j, ok, left = self.advisor.hint(self.tracker.position)
        move, ok, left = self.show_hint(j, ok, left, now)
        return {"move": move, "solvable": ok, "best_left": left}

    def show_hint(self, j, ok, left, now, asked_at=None):
        """Light the hint (`asked_at`: when the button or the request asked, if before `now`)."""
        self._start_show("hint", shows.HintShow(self.board, now, j, ok))
        self._draw(now)  # lights first: the player is waiting; the host can wait a pass
        self.hint_ms = ticks_diff(self.hw.ticks_ms(), now if asked_at is None else asked_at)
        move = self.board.move_of(j) if j >= 0 else None
        self.link.event("hint", {"move": move, "solvable": ok, "best_left": left})
        return move, ok, left

    def start_demo(self, jumps, now, start=None, rid=BUTTON):
        """Demonstrate `jumps` (None: the board's own best line) from `start` (None: the position);
        the reply's fields for request `rid`."""
        pos = self.tracker.position if start is None else start
        if jumps is None:
            if self.table is None:
                self.not_thinking()
                from pegfw import jobs

                return jobs.demo(self, rid, pos, now)
            jumps = self.advisor.solution(pos)
        self.play_demo(jumps, now, pos)
        return {"moves": [self.board.move_of(j) for j in jumps]}

    def play_demo(self, jumps, now, pos):
        from pegfw.show_demo import DemoShow

        self._start_show("demo", DemoShow(self.board, now, pos, jumps), ("pegfw.show_demo",))

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
        try:
            self._poll_sensors(now)
            self._poll_button(now)
            if self.resuming:
                self._catch_up()
            # flow control: take requests only while their replies have room to wait in; the rest
            # stay queued (here or in the USB buffer) until the host reads
            if not self.pending_lines and self.link.has_room():
                self.pending_lines = self.link.read_lines()
            # and a few a pass: a burst must not hold the loop past the watchdog (on the chip a rare
            # request compiles its code, ~0.3 s: one of those a pass)
            budget = REQUESTS_PER_PASS
            while budget > 0 and self.pending_lines and self.link.has_room():
                self.compiled = False
                self._request(self.pending_lines.pop(0), now)
                budget = 0 if self.compiled else budget - 1
            if self.selftest_until is not None and ticks_diff(now, self.selftest_until) >= 0:
                self._stop_show(stopped=False)  # the self-test's time is up: selftest_done
            if self.job is not None:
                self._run_job()
            self._draw(now)
            if MEM_FREE is not None and ticks_diff(now, self.heap_sample_at) >= 0:
                # free heap means something only after a collection (the heap fills with garbage
                # between them), so collect now and then and note the lowest
                self.heap_sample_at = now + HEAP_SAMPLE_MS
                gc.collect()
                free = MEM_FREE()
                if free < self.free_heap_low:
                    self.free_heap_low = free
        finally:  # whatever went wrong above, what is queued goes out and the watchdog is fed
            self.link.flush()
            if self.reset_at is not None and ticks_diff(now, self.reset_at) >= 0:
                self.hw.reset()
            self.hw.feed()
            self.loops += 1
            took = ticks_diff(self.hw.ticks_ms(), now)
            if took > self.longest_pass_ms:
                self.longest_pass_ms = took

    def run(self):
        while True:
            try:
                self.step()
            except MemoryError:
                gc.collect()
                self.errors += 1
            except Exception as e:  # keep the board alive; the host hears about it
                self.errors += 1
                print("pegboard: loop error:", repr(e))
                self.link.event("error", {"message": repr(e)[:120], "count": self.errors})

    # -- long requests -----------------------------------------------------------------------
    DEFERRED = DEFERRED
    BUTTON = BUTTON

    def not_thinking(self):
        """Raise busy while a job runs: one search at a time on this heap."""
        if self.job is not None:
            raise ProtocolError("busy", "the board is still thinking about the last request: wait for its answer")

    def start_job(self, job, rid, modules, asked_at):
        """Run `job` (pegfw.jobs.Job: advance(n) -> finished; .nodes; .reply(app) -> fields, or
        raises ProtocolError; close()) a slice per pass; `modules` were loaded for it alone.
        `rid`: the request to answer when it is done, or BUTTON; `asked_at`: when (ticks)."""
        self.job = (job, rid)
        self.job_modules = modules
        job.asked_at = asked_at
        return self.DEFERRED

    def _run_job(self):
        job, rid = self.job
        try:
            finished = job.advance(JOB_SLICE)
            if not finished and job.nodes < JOB_LIMIT:
                return
            if finished:
                self._job_reply(rid, job.reply(self))
            else:
                self._job_fail(rid, "search_limit", "the board gave up after %d positions: solve it on the PC "
                           "(pegboard solve)" % job.nodes)
        except ProtocolError as e:
            self._job_fail(rid, e.code, e.message, e.extra)
        except MemoryError:
            self._end_job()  # drop the search first: the reply needs heap
            self._job_fail(rid, "no_memory", "the board is short of memory for this request: try again")
            return
        except Exception as e:  # a damaged file, a bug: the request still gets its one answer
            self.errors += 1
            self._job_fail(rid, "internal", "the board failed at this request: %s" % repr(e)[:80])
        self._end_job()

    def cancel_job(self, why):
        """The position changed (or stop): an answer for the old one would mislead."""
        if self.job is not None:
            rid = self.job[1]
            self._end_job()
            self._job_fail(rid, "position_changed" if why != "stopped" else "stopped",
                       "the pegs moved before the board had its answer: ask again" if why != "stopped"
                       else "stopped before the board had its answer")

    def _job_reply(self, rid, fields):
        if rid is not self.BUTTON:
            self.link.reply(rid, fields)

    def _job_fail(self, rid, code, message, extra=None):
        if rid is not self.BUTTON:
            self.link.error(rid, code, message, extra)
        else:  # the button asked: say it on the link as an event
            self.link.event("error", {"message": message, "code": code, "count": self.errors})

    def _end_job(self):
        if self.job is not None:
            try:
                self.job[0].close()
            except Exception:  # closing a file that failed: nothing more to do
                pass
        self.job = None
        for name in self.job_modules:
            unload(name)
        self.job_modules = ()
        gc.collect()  # the search's memo and stacks go back at once

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
        except Exception as e:  # a bug in reading it: the line still gets its one reply
            self.errors += 1
            link.error(None, "internal", "the board could not read this line: %s" % repr(e)[:80])
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
        self.compiled = more
        job_before = self.job
        try:
            if more:
                from pegfw import more_commands

                handler = getattr(more_commands, name)
                del more_commands
            self.request_id = rid  # for a handler that answers later (start_job)
            fields = handler(self, req, now)
        except ProtocolError as e:
            link.error(rid, e.code, e.message, e.extra)
            return
        except MemoryError:
            if self.job is not job_before:
                self._end_job()  # this request's job never started: what it allocated goes too
            gc.collect()
            link.error(rid, "no_memory", "the board is short of memory for this request: try again")
            return
        finally:
            if loaded is not None:
                handler = None
                for m in list(sys.modules):
                    if m.startswith("peg") and m not in loaded and m not in self.show_modules \
                            and m not in self.job_modules:
                        unload(m)
        if fields is not self.DEFERRED:
            link.reply(rid, fields or {})

