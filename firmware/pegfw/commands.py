"""The protocol's everyday commands (docs/protocol.md), as methods the App inherits; the rarer
ones (MORE_COMMANDS) live in pegfw.more_commands, loaded only while one is answered."""

from pegcore.rules import holes_of
from pegfw import VERSION, colors
from pegfw.protocol import ProtocolError

PROTOCOL = 1
CAPABILITIES = ["hint", "solve", "demo", "guide", "watch", "selftest", "stats", "theme", "brightness"]
MORE_COMMANDS = ("solve", "demo", "guide", "brightness", "theme", "stats", "selftest")


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
                "solvable": self.advisor.hint(pos, True)[1] if self._in_game() else None,
                "lifted": t.lifted, "landing": holes_of(t.landing), "illegal": holes_of(t.bad),
                "lights": [colors.channels(c) for c in (self.last_frame or [])], "ma": self.limiter.last_ma,
                "brightness": self.limiter.brightness, "theme": self.theme,
                "seq": self.link.seq, "dropped": self.link.dropped}

    def cmd_hint(self, req, now):
        move, ok, left = self._hint(now)
        return {"move": move, "solvable": ok, "best_left": left}

    def _not_busy(self):
        if self.show_kind in ("demo", "watch", "selftest") or self.guide is not None:
            raise ProtocolError("busy", "a %s is running: send stop first" % (self.show_kind or "guide"))
        if self.tracker.mode in ("illegal", "setup"):
            raise ProtocolError("busy", "the board is in %s mode: set the pegs right first" % self.tracker.mode)

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
        from pegfw.show_watch import SolverShow

        self._start_show("watch", SolverShow(self.board, now, self.tracker.position, speed),
                         ("pegfw.show_watch", "pegcore.search"))
        return {"speed": speed}

    def cmd_stop(self, req, now):
        was = self.show_kind or ("guide" if self.guide is not None else None)
        if self.guide is not None:
            self._guide_off("stopped")
        self._stop_show()
        return {"stopped": was}

