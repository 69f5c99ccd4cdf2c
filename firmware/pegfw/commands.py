"""The protocol's everyday commands (docs/protocol.md: state, hint, stop), as methods the App
inherits; the others (MORE_COMMANDS) live in pegfw.more_commands, loaded only while one is
answered."""

from pegcore.rules import holes_of
from pegfw.lights import estimate_ma
from pegfw.protocol import ProtocolError

# answered by pegfw.more_commands, loaded for the request
MORE_COMMANDS = ("info", "solve", "demo", "guide", "watch", "brightness", "theme", "stats", "selftest",
                 "reset")


class Commands:
    def _mode(self):
        if self.show_kind in ("demo", "watch"):
            return "demo"
        if self.guide is not None:
            return "guide"
        return self.tracker.mode

    def cmd_state(self, req, now):
        t = self.tracker
        pos = t.position
        return {"pegs": holes_of(t.sensed), "position": holes_of(pos), "empty_start": t.empty_start,
                "mode": self._mode(), "moves": [self.board.move_of(j) for j in t.moves],
                # a lookup on the 15-hole board; other boards would have to search: unknown
                "solvable": self.advisor.hint(pos)[1] if self.table is not None else None,
                "lifted": t.lifted, "landing": holes_of(t.landing), "illegal": holes_of(t.bad),
                "lights": [[c >> 16, c >> 8 & 255, c & 255] for c in (self.last_frame or [])],
                "ma": estimate_ma(self.last_frame or ()),
                "brightness": self.limiter.brightness, "theme": self.theme,
                "seq": self.link.seq, "dropped": self.link.dropped}

    def _check_idle(self):
        """Requests that start something answer busy while a demo, watch, selftest or guide
        runs (docs/protocol.md); only stop ends those."""
        if self.show_kind in ("demo", "watch", "selftest") or self.guide is not None:
            raise ProtocolError("busy", "a %s is running: send stop first" % (self.show_kind or "guide"))

    def cmd_hint(self, req, now):
        if self.show_kind in ("demo", "watch", "selftest"):
            self._check_idle()
        return self.hint(now, self.request_id)

    def cmd_stop(self, req, now):
        was = self.show_kind or ("guide" if self.guide is not None else None)
        if self.guide is not None:
            self._guide_off("stopped")
        if self.job is not None:
            was = was or "search"
            self.cancel_job("stopped")
        self._stop_show()
        return {"stopped": was}
