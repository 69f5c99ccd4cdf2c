"""The protocol's commands (docs/protocol.md), as methods the App inherits: kept apart from the
loop so each module stays small enough for the chip to compile from source."""

from pegcore.rules import MoveError, holes_of, popcount, validate_moves
from pegfw import VERSION, colors, shows
from pegfw.protocol import ProtocolError

PROTOCOL = 1
CAPABILITIES = ["hint", "solve", "demo", "guide", "watch", "selftest", "stats", "theme", "brightness"]


def _after(board, mask, jumps):
    for j in jumps:
        mask ^= board.flip[j]
    return mask


class Commands:
    def _mode(self):
        if self.show_kind in ("demo", "watch"):
            return "demo"
        if self.guide is not None:
            return "guide"
        return self.tracker.mode

    def cmd_info(self, req, now):
        return {"firmware": VERSION, "protocol": PROTOCOL, "rows": self.board.rows, "holes": self.board.holes,
                "runtime": self.runtime, "capabilities": CAPABILITIES, "hint_table": self.table is not None,
                "sensors": self.cfg.sensors, "current_ma": self.limiter.budget_ma,
                "loops": self.loops, "errors": self.errors, "overflows": self.overflows}

    def cmd_state(self, req, now):
        t = self.tracker
        pos = t.position
        return {"pegs": holes_of(t.sensed), "position": holes_of(pos), "empty_start": t.empty_start,
                "mode": self._mode(), "moves": [self.board.move_of(j) for j in t.moves],
                "solvable": self.advisor.hint(pos)[1] if t.mode != "setup" else None,
                "lifted": t.lifted, "landing": holes_of(t.landing), "illegal": holes_of(t.bad),
                "lights": [colors.channels(c) for c in (self.last_frame or [])], "ma": self.limiter.last_ma,
                "brightness": self.limiter.brightness, "theme": self.theme,
                "seq": self.link.seq, "dropped": self.link.dropped}

    def cmd_hint(self, req, now):
        move, ok, left = self._hint(now)
        return {"move": move, "solvable": ok, "best_left": left}

    def _finish_arg(self, req):
        f = req.get("finish")
        if f is None:
            return None
        if isinstance(f, bool) or not isinstance(f, int) or f < 1 or f > self.board.holes:
            raise ProtocolError("bad_args", "finish must be a hole 1..%d" % self.board.holes)
        return f

    def cmd_solve(self, req, now):
        finish = self._finish_arg(req)
        pos = self.tracker.position
        if finish is None:
            jumps = self.advisor.solution(pos)
            ok = popcount(pos) == 1 or (jumps and popcount(_after(self.board, pos, jumps)) == 1)
        else:
            from pegcore.solver import Solver

            jumps = Solver(self.board, finish).solution(pos)
            ok = jumps is not None
        if not ok:
            raise ProtocolError("not_solvable", "no solution from this position%s"
                                % ("" if finish is None else " finishing in %d" % finish))
        return {"moves": [self.board.move_of(j) for j in jumps]}

    def _moves_arg(self, req, required, start=None):
        moves = req.get("moves")
        if moves is None:
            if required:
                raise ProtocolError("bad_args", "moves is required: a list of [from, over, to]")
            return None
        if not isinstance(moves, list) or len(moves) > 64:
            raise ProtocolError("bad_args", "moves must be a list of at most 64 [from, over, to] moves")
        try:
            pos = self.tracker.position if start is None else start
            _final, jumps = validate_moves(self.board, pos, moves)
        except MoveError as e:
            err = ProtocolError("illegal_move", "step %d: %s" % (e.step, e.why))
            err.extra = {"step": e.step}
            raise err
        return jumps

    def _not_busy(self):
        if self.show_kind in ("demo", "watch", "selftest") or self.guide is not None:
            raise ProtocolError("busy", "a %s is running: send stop first" % (self.show_kind or "guide"))
        if self.tracker.mode in ("illegal", "setup"):
            raise ProtocolError("busy", "the board is in %s mode: set the pegs right first" % self.tracker.mode)

    def cmd_demo(self, req, now):
        empty = req.get("empty")
        start = None
        if empty is not None:
            if isinstance(empty, bool) or not isinstance(empty, int) or empty < 1 or empty > self.board.holes:
                raise ProtocolError("bad_args", "empty must be a hole 1..%d" % self.board.holes)
            start = self.board.full & ~(1 << (empty - 1))
        jumps = self._moves_arg(req, False, start)
        self._not_busy()
        jumps = self._start_demo(jumps, now, start)
        return {"moves": [self.board.move_of(j) for j in jumps]}

    def cmd_guide(self, req, now):
        jumps = self._moves_arg(req, True)
        self._not_busy()
        if not jumps:
            raise ProtocolError("bad_args", "moves must not be empty")
        self.guide = jumps
        self.guide_step = 0
        self.last_frame = None
        return {"steps": len(jumps)}

    def cmd_watch(self, req, now):
        if self.show_kind == "watch" and req.get("step") is True and self.show.speed_ms == 0:
            self.show.step()
            return {"step": self.show.count + 1}
        speed = req.get("speed", 150)
        if req.get("step") is True:
            speed = 0
        if isinstance(speed, bool) or not isinstance(speed, int) or speed < 0 or speed > 10000:
            raise ProtocolError("bad_args", "speed must be 0..10000 ms per step")
        self._not_busy()
        self._start_show("watch", shows.SolverShow(self.board, now, self.tracker.position, speed))
        return {"speed": speed}

    def cmd_stop(self, req, now):
        was = self.show_kind or ("guide" if self.guide is not None else None)
        if self.guide is not None:
            self._guide_off("stopped")
        self._stop_show()
        return {"stopped": was}

    def cmd_brightness(self, req, now):
        v = req.get("value")
        if v is not None:
            if isinstance(v, bool) or not isinstance(v, int) or v < 1 or v > 100:
                raise ProtocolError("bad_args", "value must be a percentage 1..100")
            self.limiter.brightness = v
            self.last_frame = None
        return {"value": self.limiter.brightness}

    def cmd_theme(self, req, now):
        v = req.get("name")
        if v is not None:
            if v not in ("plain", "wooden"):
                raise ProtocolError("bad_args", "name must be plain or wooden")
            self.theme = v
            self.last_frame = None
        return {"name": self.theme}

    def cmd_stats(self, req, now):
        return self.store.as_dict()

    def cmd_selftest(self, req, now):
        secs = req.get("seconds", 10)
        if isinstance(secs, bool) or not isinstance(secs, int) or secs < 1 or secs > 300:
            raise ProtocolError("bad_args", "seconds must be 1..300")
        if self.show_kind in ("demo", "watch"):
            raise ProtocolError("busy", "a %s is running: send stop first" % self.show_kind)
        self._start_show("selftest", shows.ChaseShow(self.board.holes, now))
        self.selftest_until = now + secs * 1000
        return {"seconds": secs, "pegs": holes_of(self.sensed), "pixels": self.board.holes}
