"""The main loop, and the coordinator of the board's parts: sensors -> game tracker -> events and
lights; the hint button; requests (pegfw.dispatch); shows (pegfw.show_runner); NVM (pegfw.store);
the watchdog. Parts that exist only while they work are loaded for it (pegfw.ondemand) and are
None otherwise: guided play (`guide`, pegfw.guide) and long work (`job`, pegfw.job). App takes
plain objects (see devices.Devices) so tests and the simulator drive the very same code.

Its public surface (what commands and jobs use): hint, show_hint, start_demo, play_demo,
start_guide, call_job, start_job, end_job, stop, mode, check_idle, check_thinking, and the parts
(tracker, link, shows, guide, job, store, limiter, advisor)."""

import gc
import sys

try:
    from typing import Any  # noqa: F401 (used in type comments)
except ImportError:  # CircuitPython and MicroPython have no typing module
    pass

from pegcore.advisor import Advisor
from pegcore.geometry import Board
from pegcore.rules import holes_of
from pegfw import colors, game_events, ondemand, senses, shows
from pegfw.clock import ticks_diff
from pegfw.commands import BUTTON, DEFERRED
from pegfw.dispatch import Dispatcher
from pegfw.lights import Limiter, base_frame
from pegfw.protocol import Link, ProtocolError
from pegfw.show_runner import ShowRunner
from pegfw.store import Store
from pegfw.tracker import Tracker

# the chip's free heap; CPython (the simulator, tests) has no heap of its own to report
MEM_FREE = getattr(gc, "mem_free", None)
LONG_PRESS_MS = 800
PLAY_PRESS_MS = 3000    # held this long: play from here (the pegs as they stand start a game)
DOUBLE_PRESS_MS = 400   # a second short press this soon after the first, before a game's first move:
                        # the challenge "finish in the hole that started empty" set (or taken off) once
                        # this passes with no third; a third this soon: a puzzle (pegfw.puzzles)
EMPTY_SETTLE_MS = 500   # an empty board this long ends the game in play (pegfw.tracker.emptied)
QUIET_MS = 2000         # no peg moved this long, nothing shown or searched: NVM may be rewritten
SETTLE_MS = 60          # quiet time after a keypad reset before trusting the picture
FRAME_MS = 20           # animate at most every 20 ms
HEAP_SAMPLE_MS = 10000  # how often the board collects and notes its free heap (stats)
CATCHUP_STEPS = 2       # positions a resumed game's catch-up search visits per pass (see bench)
CONSOLE_GAP_MS = 10000  # at most one console line this often from the loop (errors go to the host)
CONSOLE_MAX = 80        # and that short: it fits an empty USB FIFO (256 bytes) with room to spare


class App:
    def __init__(self, hw, cfg, table=None, runtime=None):
        """`table`: the hint table (pegfw.startup.load_table) for a 15-hole board, else None."""
        ondemand.forget()  # an earlier App's shows and jobs (in tests) own nothing now
        self.hw = hw
        self.sensors = cfg.sensors  # the settings themselves are not kept: their class is heap
        self.board = Board(cfg.rows)
        self.tracker = Tracker(self.board)
        self.link = Link(hw.serial)
        self.limiter = Limiter(cfg.current_ma, cfg.brightness)
        self.theme = cfg.theme
        self.motion = None  # type: Any  # pegfw.motion while PEGBOARD_ROLES is "motion" (set_roles)
        self.set_roles(cfg.roles)
        self.sound = senses.player(hw, cfg)  # type: Any  # pegfw.sound.Player on a board with a piezo
        self.table = table
        self.advisor = Advisor(self.board, self.table)
        self.store = Store(hw.nvm, cfg.rows, hw.ticks_ms)
        ondemand.load("pegfw.store_log").load(self.store)  # read once: the code leaves the heap after
        if self.store.end is None and hw.nvm is not None:
            self.store.compact(False)  # a new, foreign or damaged record: rewritten now, not mid-game
        for name in ("pegfw.store_log", "pegfw.store_records", "pegfw.store_games", "pegfw.store_tokens",
                     "pegfw.bests"):
            ondemand.unload(name)  # (the replay notes the bests with pegfw.bests)
        self.runtime = runtime or sys.implementation.name
        self.shows = ShowRunner(self.link, self.board)
        self.requests = Dispatcher(self)
        self.guide = None  # type: Any  # guided play (pegfw.guide.Guide), while it runs
        self.challenge = None  # type: Any  # the game's challenge (pegfw.challenge.Challenge), while it has one
        self.released_at = None  # type: Any  # when the last short press was released (a double press)
        self.quick = 0  # short presses in a row, each within DOUBLE_PRESS_MS of the one before
        self.double_at = None  # type: Any  # a double press's release: its challenge, unless a third comes
        self.puzzle_at = -1  # the board's place in its puzzles: the last one set up (pegfw.puzzles)
        self.puzzle = 0  # that puzzle's position, until the game from it starts (its new_game says so)
        self.job = None  # type: Any  # long work (pegfw.job.Job), while it runs
        self.retry = 0  # a review's position to play again from, until its game starts (pegfw.review)
        self.sensed = 0
        self.starting = True  # until the first whole-board read: nothing is known of the pegs yet
        self.settle_until = None
        self.empty_since = None  # the board went empty then (a game in play ends if it stays so)
        self.moved_at = hw.ticks_ms()  # the last sensor change
        self.press_at = None
        self.press_swallowed = False
        self.last_frame = None
        self.next_frame = 0
        self.base_version = -1  # the tracker's version and the theme the steady picture was made from
        self.base_theme = None
        self.base = []  # type: list
        self.reset_at = None  # a `reset` request: when to reset (its reply has gone out by then)
        self.updating = False  # a deploy rewrites the drive (`quiet`): no file read, no code compiled
        self.quiet_until = 0
        self.chase = None  # type: Any  # a resumed game's catch-up search, while a picture needs one
        self.overflows = 0
        self.errors = 0
        self.console_at = None  # the loop's last console line (App.console), and those left out
        self.console_skipped = 0
        self.loops = 0
        # the board measures itself (stats): the first real board checks every published estimate
        self.longest_pass_ms = 0
        self.free_heap_low = 1 << 30 if MEM_FREE else None  # the first pass samples it
        self.heap_sample_at = hw.ticks_ms()
        self.deferred = []  # (fn, args) of after_hint, in order
        self.hint_ms = None  # the last hint: button released (or request read) -> its lights sent
        now = hw.ticks_ms()
        self._rescan(now)

    # -- what the game is doing ----------------------------------------------------------------
    def mode(self):
        """starting (the pegs not read yet), setup, play, illegal, over (the tracker's), or demo (a
        demo or watch runs), guide."""
        if self.starting:
            return "starting"
        if self.shows.kind in ("demo", "watch"):
            return "demo"
        if self.guide is not None:
            return "guide"
        return self.tracker.mode

    def check_idle(self):
        """Requests that start something answer busy while a demo, watch, selftest or guide
        runs (docs/protocol.md); only stop ends those."""
        if self.shows.hosted() or self.guide is not None:
            raise ProtocolError("busy", "a %s is running: send stop first" % (self.shows.kind or "guide"))

    def check_thinking(self):
        """Raise busy while a job runs: this heap holds one search at a time."""
        if self.job is not None:
            raise ProtocolError("busy", "the board is still thinking about the last request: wait for its answer")

    def stop(self):
        """End whatever runs (guide, search, show); what it was, or None."""
        was = self.shows.kind or ("guide" if self.guide is not None else None)
        if self.tracker.target:
            was = was or "setup"
            self.tracker.target = 0
            self.tracker.version += 1  # the steady picture loses the fill/remove colours
        self.guide_off("stopped")
        if self.job is not None:
            was = was or "search"
            self.job.cancel(self, "stopped")
        self.shows.stop()
        return was

    # -- the senses: roles in time, tunes (pegfw.senses) ------------------------------------------
    set_roles = senses.set_roles
    roles = senses.roles
    chime = senses.chime

    # -- parts that exist while they work ------------------------------------------------------
    def start_guide(self, jumps):
        ondemand.begin("guide")
        self.guide = ondemand.load("pegfw.guide").Guide(self.link, self.board, jumps)

    def challenge_on(self):
        """The game's challenge (pegfw.challenge.Challenge; its code and tables loaded while the
        game has one), or None."""
        code = self.tracker.goal
        c = self.challenge
        if c is not None and c.code != code:
            self.challenge_off()
            c = None
        if c is None and code:
            ondemand.begin("challenge")
            self.challenge = c = ondemand.load("pegfw.challenge").Challenge(self.board, self.table, code)
        return c

    def challenge_off(self):
        if self.challenge is not None:
            self.challenge.close()
            self.challenge = None
            ondemand.end("challenge")

    def set_challenge(self, text, now):
        """Set (text "none": take off) the game's challenge (pegfw.challenge.set_challenge; its code
        stays loaded while the game has one)."""
        self.challenge_off()
        ondemand.begin("challenge")
        try:
            return ondemand.load("pegfw.challenge").set_challenge(self, text, now)
        finally:
            if self.challenge is None:
                ondemand.end("challenge")

    def guide_off(self, reason):
        """End guided play, saying why (done, different_move, undo, stopped, new_game)."""
        if self.guide is not None:
            self.guide = None
            ondemand.end("guide")
            self.link.event("guide_off", {"reason": reason})

    def call_job(self, name, *args):
        """pegfw.jobs.<name>(*args): an answer at once (the opening book), or a job started that
        answers later (start_job). The code it loads stays while its job runs."""
        self.check_thinking()
        ondemand.begin("job")
        try:
            return getattr(ondemand.load("pegfw.jobs"), name)(*args)
        finally:
            if self.job is None:
                ondemand.end("job")

    def start_job(self, job, rid, asked_at):
        """Run `job` a slice per pass; it answers request `rid` (or BUTTON) when it is done."""
        job.rid, job.asked_at = rid, asked_at
        self.job = job
        return DEFERRED

    def cancel_job(self):
        """The pegs moved: a search's answer for the old position would mislead."""
        if self.job is not None:
            self.job.cancel(self, "position")

    def end_job(self):
        job, self.job = self.job, None
        if job is not None:
            try:
                job.close()
            except Exception:  # closing a file that failed: nothing more to do
                pass
        ondemand.end("job")
        gc.collect()  # the search's memo and stacks go back at once

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
            self.take_events(self.tracker.sense(self.sensed))
            if self.shows.kind == "selftest":  # a self-test reports every sensor change
                self.link.event("sensors", {"pegs": holes_of(self.sensed)})
            self.empty_since = now if not self.sensed else None
            self.moved_at = now
        elif self.empty_since is not None and ticks_diff(now, self.empty_since) >= EMPTY_SETTLE_MS:
            self.empty_since = None
            self.take_events(self.tracker.emptied())

    def _adopt_whole_board(self):
        self.starting = False
        t = self.tracker
        if t.mode == "setup" and self.store.start:
            ondemand.begin("resume")  # only after a reset mid-game; its code leaves when the game is whole
            events = ondemand.load("pegfw.resume").resume(self)
        else:
            events = t.reset(self.sensed)
        self.empty_since = self.hw.ticks_ms() if not self.sensed else None
        self.take_events(events)

    # -- game events -------------------------------------------------------------------------
    take_events = game_events.take_events  # a method (its module says why it has one of its own)

    # -- button ------------------------------------------------------------------------------
    def _poll_button(self, now):
        keys = self.hw.button
        ev = self.hw.event
        while keys.events.get_into(ev):
            if ev.pressed:
                self.press_at = now
                self.press_swallowed = False
                # collect while the finger is down, so the hint at the release never waits for a
                # collection (a full one takes longer on the chip than the hint's 5 ms budget);
                # the free heap's statistics are taken from it, not by a collection of their own
                gc.collect()
                self._note_free_heap(now)
                self.link.event("button", {"pressed": True})
                if self.shows.kind == "watch" and self.shows.show.speed_ms == 0:
                    self.shows.show.step()
                    self.press_swallowed = True
                elif self.shows.hosted():
                    self.shows.stop()  # any press stops a demonstration
                    self.press_swallowed = True
            elif self.press_at is not None:
                held = ticks_diff(now, self.press_at)
                self.press_at = None
                if not self.press_swallowed and self.job is None:  # else it still thinks
                    try:
                        quick = self._quick_presses(now, held)
                        t = self.tracker
                        self.double_at = None
                        if held >= PLAY_PRESS_MS:
                            self.play_here()
                        elif held >= LONG_PRESS_MS:
                            self.start_demo(None, now)
                        elif quick == 3 and not (t.mode == "play" and t.moves):
                            self.next_puzzle()  # three quick presses, no game under way: the next unsolved puzzle
                        elif quick == 2 and t.mode == "play" and not t.moves:
                            self.double_at = now  # the challenge once no third press follows (a puzzle)
                        elif self.tracker.mode == "over" and self._lost_over():
                            self.call_job("review", self, BUTTON, now, None)  # where it went wrong
                        else:
                            # timed from the debounced release (the event's timestamp), not this pass
                            self.hint(now, asked_at=ev.timestamp)  # lights before the event's JSON
                    except ProtocolError as e:  # the button has no reply to carry its refusal: an event does
                        self.link.event("refused", {"code": e.code, "message": e.message})
                self.link.event("button", {"pressed": False, "ms": held})
        if keys.events.overflowed:
            keys.events.clear()
        if self.double_at is not None and self.press_at is None and ticks_diff(now, self.double_at) > DOUBLE_PRESS_MS:
            self.double_at = None  # two presses and no third: the challenge
            try:
                self.set_challenge("none" if self.tracker.goal else "finish", now)
            except ProtocolError as e:
                self.link.event("refused", {"code": e.code, "message": e.message})

    def _lost_over(self):
        """The game is over and missed its win (more than one peg, or not in its finish hole):
        a hint has nothing to light, so a short press reviews it."""
        t = self.tracker
        p = t.position
        if t.goal and t.finish is None:
            return False
        return p & (p - 1) != 0 or (t.finish is not None and p != 1 << (t.finish - 1))

    def _quick_presses(self, now, held):
        """How many short presses in a row this release ends (each within DOUBLE_PRESS_MS of the
        one before): two before a game's first move set a challenge (once no third follows), three
        with no game under way set up a puzzle."""
        was, self.released_at = self.released_at, now
        if held >= LONG_PRESS_MS or was is None or ticks_diff(now, was) > DOUBLE_PRESS_MS or self.quick >= 3:
            self.quick = 0
        self.quick += 1
        return self.quick

    # -- actions -----------------------------------------------------------------------------
    def play_here(self):
        """The button held PLAY_PRESS_MS: a game from the pegs as they stand (as `play`, whose
        code is loaded for it)."""
        ondemand.begin("button")
        try:
            ondemand.load("pegfw.position_requests").play_here(self, None)
        finally:
            ondemand.end("button")

    def next_puzzle(self):
        """Three quick presses: the next unsolved puzzle's set-up lights (its code loaded for it)."""
        ondemand.begin("button")
        try:
            ondemand.load("pegfw.puzzles").press(self)
        finally:
            ondemand.end("button")

    # -- a deploy rewriting the drive --------------------------------------------------------------
    def quiet(self, now, ms):
        """Read no file and compile no code for `ms` (a deploy is writing them); a reset ends it,
        else the hint table is opened afresh when it is over."""
        self.updating = True
        ondemand.frozen[0] = True
        self.quiet_until = now + ms
        self.last_frame = None
        self.link.event("quiet", {"seconds": ms // 1000})

    def _quiet_over(self):
        self.updating = False
        ondemand.frozen[0] = False
        table, self.table = self.table, None
        if table is not None:  # the file may have been replaced: the open one points at freed blocks
            path = table.path
            table.codes.f.close()
            self.advisor = Advisor(self.board, None)
            del table
            gc.collect()
            try:
                self.table = ondemand.load("pegcore.hintfile").load(self.board, path)
            except Exception as e:  # damaged or half-written: search instead, and say so
                self.link.event("error", {"message": "hint table: %s" % repr(e)[:80], "count": self.errors})
            ondemand.unload("pegcore.hintfile")
        self.advisor = Advisor(self.board, self.table)
        self.last_frame = None
        self.link.event("quiet_done", {"hint_table": self.table is not None})

    def hint(self, now, rid=BUTTON, asked_at=None):
        """The best move, lit, and a hint event; the reply's fields for request `rid` (`asked_at`:
        when the button's release was scanned). A lookup on the 15-hole board; elsewhere a search
        run as a job (the answer comes a few passes later)."""
        if asked_at is None:
            asked_at = now
        if self.updating:
            raise ProtocolError("busy", "the board is being updated: hints are back after it restarts")
        c = self.challenge_on() if self.tracker.goal and self.tracker.mode == "play" else None
        if c is not None:  # toward the challenge's target: lookups on 15 holes, else a search
            j, ok = c.hint(self.tracker.position)
            if ok is None:
                return self.call_job("challenge_hint", self, rid, asked_at)
            more = {"challenge": c.text(), "reachable": ok}
            move, ok, left = self.show_hint(j, ok, None, now, asked_at, more)
            more.update({"move": move, "solvable": ok, "best_left": None})
            return more
        if self.table is None:
            return self.call_job("hint", self, rid, asked_at)
        j, ok, left = self.advisor.hint(self.tracker.position)
        move, ok, left = self.show_hint(j, ok, left, now, asked_at)
        return {"move": move, "solvable": ok, "best_left": left}

    def show_hint(self, j, ok, left, now, asked_at=None, more=None):
        """Light the hint (`asked_at`: when the button or the request asked, if before `now`;
        `more`: the event's fields about a challenge)."""
        self.shows.run("hint", shows.HintShow(self.board, now, j, ok))
        self.last_frame = None  # sent now even if the same hint is lit: this press has its answer
        self.draw(now, False)  # lights first: the player is waiting; the host can wait a pass
        self.hint_ms = ticks_diff(self.hw.ticks_ms(), now if asked_at is None else asked_at)
        move = self.board.move_of(j) if j >= 0 else None
        fields = {"move": move, "solvable": ok, "best_left": left}
        if more:
            fields.update(more)
        self.link.event("hint", fields)
        return move, ok, left

    def start_demo(self, jumps, now, start=None, rid=BUTTON):
        """Demonstrate `jumps` (None: the board's own best line) from `start` (None: the position);
        the reply's fields for request `rid`."""
        pos = self.tracker.position if start is None else start
        if jumps is None:
            if self.table is None:
                return self.call_job("demo", self, rid, pos, now)
            jumps = self.advisor.solution(pos)
        self.play_demo(jumps, now, pos)
        return {"moves": [self.board.move_of(j) for j in jumps]}

    def play_demo(self, jumps, now, pos):
        self.shows.load("demo", "pegfw.show_demo", "DemoShow", (self.board, now, pos, jumps))

    # -- lights ------------------------------------------------------------------------------
    def _frame(self, now):
        t = self.tracker
        if t.version != self.base_version or self.theme != self.base_theme:
            # the steady picture only changes with the pegs (or the theme)
            self.base_version, self.base_theme = t.version, self.theme
            self.base = base_frame(self.board, t, self.theme)
        base = self.base
        if self.guide is not None and t.mode == "play" and t.sensed == t.position:
            base = self.guide.paint(base)  # its next jump, or a move to put back
        if self.updating:  # the empty holes say the board is being updated
            base = [colors.UPDATING if c == colors.EMPTY else c for c in base]
        if self.press_at is not None and not self.press_swallowed and ticks_diff(now, self.press_at) >= PLAY_PRESS_MS:
            s = t.sensed  # held long enough to play from here: the pegs say so, green, until released
            base = [colors.LANDING if s >> i & 1 else c for i, c in enumerate(base)]
        frame = self.shows.frame(now, base)
        return base if frame is None else frame

    def draw(self, now, motion=True):
        """Send the lights if they changed (a steady picture is looked at every FRAME_MS, but at
        once when the pegs changed it: a `state` asked after the event then has its lights).
        `motion` False: the roles' patterns wait for the next frame (a hint's lights go out first)."""
        if self.shows.show is None and self.last_frame is not None and ticks_diff(now, self.next_frame) < 0 \
                and self.tracker.version == self.base_version:
            return
        raw = self._frame(now)
        frame = self.limiter.limit(raw)
        if motion and self.motion is not None and self.shows.kind != "over":  # (the celebration's own colours)
            frame = self.motion.apply(raw, frame, now)
        self.next_frame = now + FRAME_MS
        if frame != self.last_frame:
            self.hw.show(frame)
            self.last_frame = frame

    # -- the loop ----------------------------------------------------------------------------
    def step(self):
        """One pass of the main loop: never waits for anything."""
        now = self.hw.ticks_ms()
        early = False
        try:
            if not self.starting:  # (a press waits in its queue until the pegs are read)
                self._poll_button(now)  # first: a release that came during the last pass is answered now
                # then a line that came in the last pass's second half (lines are read twice a pass, so a
                # laptop's `hint` waits half a pass at most to be read: bench request_to_hint_lights_p99);
                # not while a release is coming, events are held, hints wait their turn or a request is
                # answered in slices; a pass that read early does not read again
                early = self.link.held is None and not self.deferred and self.requests.working is None \
                    and self.link.waiting() and not self._hint_coming(now)
                if early:
                    self.requests.serve(now)
            self._poll_sensors(now)
            if not self.starting:
                self._poll_button(now)  # and one that came while the pegs were read
            if ondemand.live("resume"):  # a resumed game's catch-up: its code is loaded until done
                ondemand.load("pegfw.resume").catch_up(self, CATCHUP_STEPS)
            if self.link.host_left():
                if self.job is not None and self.job.rid is not BUTTON:
                    self.job.cancel(self, "stopped")  # its answer has nobody to go to
                self.link.forget_output()
            hint_coming = self._hint_coming(now)
            self.link.hold(hint_coming)
            if not hint_coming:  # requests wait in the USB buffer for a short press's release
                while self.deferred:
                    fn, args = self.deferred.pop(0)
                    fn(*args)
                if not early:
                    self.requests.serve(now)
            if self.job is not None:
                self.job.run(self)
            if not hint_coming or self.tracker.version != self.base_version:
                self.draw(now)  # a show's next frame waits for the release's hint; the pegs do not
            if self.sound is not None:
                self.sound.poll(now)  # the next note when this one's time is up
            if self.updating and ticks_diff(now, self.quiet_until) >= 0:
                self._quiet_over()  # no reset came: the deploy was given up, or failed
            if self.store.low_on_room() and self._quiet(now) and not self.updating \
                    and self.requests.working is None:  # (a request reading the kept games: not under it)
                self.store.compact_step()  # the log nearly full: rewritten, a slice a pass, while nobody plays
            elif self.store.rewriting is not None:
                self.store.compact_stop()  # someone plays again: a later quiet spell starts it over
            if MEM_FREE is not None and ticks_diff(now, self.heap_sample_at) >= 0 and not hint_coming:
                # free heap means something only after a collection (the heap fills with garbage
                # between them), so collect now and then and note the lowest
                gc.collect()
                self._note_free_heap(now)
        finally:  # whatever went wrong above, what is queued goes out and the watchdog is fed
            self.link.flush()
            if self.reset_at is not None and ticks_diff(now, self.reset_at) >= 0:
                self.hw.reset()
            self.hw.feed()
            self.loops += 1
            took = ticks_diff(self.hw.ticks_ms(), now)
            if took > self.longest_pass_ms:
                self.longest_pass_ms = took

    def _hint_coming(self, now):
        """The button is down for what its release will answer with a hint: until then a pass
        does nothing that could hold that release (a request's reply, a collection for the heap's
        statistics, a flash write, a show's next frame, the events' JSON), so the hint's wait is
        one short pass at most (bench: firmware.release_to_hint_lights)."""
        return (self.press_at is not None and not self.press_swallowed and self.job is None
                and ticks_diff(now, self.press_at) < LONG_PRESS_MS)

    def after_hint(self, fn, *args):
        """fn(*args) now, or after the hint a short press's release asks for (a flash write
        stops the chip for up to 3 ms; a show's code takes a compile). Kept in order; a power
        cut before it runs loses nothing the pegs do not show: at power-on the board catches up
        with them (pegfw.resume)."""
        if self.deferred or self._hint_coming(self.hw.ticks_ms()):
            self.deferred.append((fn, args))
        else:
            fn(*args)

    def _note_free_heap(self, now):
        """Just after a collection: the lowest free heap seen (stats)."""
        self.heap_sample_at = now + HEAP_SAMPLE_MS
        if MEM_FREE is not None:
            free = MEM_FREE()
            if free < self.free_heap_low:
                self.free_heap_low = free

    def _quiet(self, now):
        """Nobody is playing: no peg moved for QUIET_MS, the button up, nothing shown or searched."""
        return (ticks_diff(now, self.moved_at) >= QUIET_MS and self.press_at is None and self.shows.show is None
                and self.job is None and self.tracker.sensed == self.tracker.position)

    def run(self):
        while True:
            try:
                self.step()
            except MemoryError:
                gc.collect()
                self.errors += 1
            except Exception as e:  # keep the board alive; the host hears about it
                self.errors += 1
                self.console("pegboard: loop error: " + repr(e))
                self.link.event("error", {"message": repr(e)[:120], "count": self.errors})

    def console(self, text):
        """A line on the REPL console, never one that could hold the loop: at most one each
        CONSOLE_GAP_MS, CONSOLE_MAX characters, and only into an empty USB FIFO (a host holding the
        port open without reading would otherwise block the print until the watchdog resets the
        board). The data port's `error` event is the errors' real channel."""
        now = self.hw.ticks_ms()
        if (self.console_at is not None and ticks_diff(now, self.console_at) < CONSOLE_GAP_MS) or \
                not self.hw.console_idle():
            self.console_skipped += 1
            return
        self.console_at = now
        print(text[:CONSOLE_MAX])
