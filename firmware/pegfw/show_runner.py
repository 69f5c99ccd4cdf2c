"""The one light show running at a time (pegfw.shows: hint, game over, demo, watch, selftest):
starts it, draws it over the steady picture, ends it, and tells the host when a show it asked
for ends. The code of every show but the hint is loaded for it alone (pegfw.ondemand)."""

try:
    from typing import Any  # noqa: F401 (type comments)
except ImportError:  # the chip has no typing module
    pass

from pegfw import ondemand
from pegfw.clock import ticks_diff

HOST_SHOWS = ("demo", "watch", "selftest")  # shows the host (or a long press) starts; only stop ends them


class ShowRunner:
    def __init__(self, link, board):
        self.link, self.board = link, board
        self.kind = None  # "hint", "over", "demo", "watch", "selftest", or None
        self.show = None  # type: Any  # the show: frame(now, base) -> a frame, or None once it has ended
        self.until = None  # when a timed show (the self-test) ends, in ticks

    def run(self, kind, show, until=None):
        """Show `show` (already built; its code stays in memory) in place of the running one."""
        self.stop()
        self.kind, self.show, self.until = kind, show, until

    def load(self, kind, module, name, args, until=None):
        """Load show class `name` from `module` for this show alone, build it with `args`, run it."""
        self.stop()
        ondemand.begin("show")
        try:
            show = getattr(ondemand.load(module), name)(*args)
        except BaseException:
            ondemand.end("show")  # no show, no code of its own
            raise
        self.kind, self.show, self.until = kind, show, until

    def describe(self, now):
        """The running show in roles for the views (the state reply's `show`), or None: its kind,
        and what its lights mean (a show without roles, the self-test's chase, gives its kind)."""
        if self.show is None:
            return None
        out = {"kind": self.kind}
        describe = getattr(self.show, "describe", None)
        if describe is not None:
            out.update(describe(now))
        return out

    def hosted(self):
        """Whether a show the host asked for runs (demo, watch, selftest): it answers busy."""
        return self.kind in HOST_SHOWS

    def stop(self, stopped=True):
        """End the show; `stopped`: by a request or the button, not by running out."""
        if self.kind in HOST_SHOWS:
            self.link.event(self.kind + "_done", {"stopped": stopped})
        self.kind = self.show = self.until = None
        ondemand.end("show")

    def frame(self, now, base):
        """The show's frame over `base`, or None when no show runs (or it has just ended)."""
        show = self.show
        if show is None:
            return None
        if self.until is not None and ticks_diff(now, self.until) >= 0:
            self.stop(stopped=False)  # its time is up: selftest_done
            return None
        frame = show.frame(now, base)
        if self.kind == "demo":
            for k in show.take_steps():
                self.link.event("demo_step", {"step": k + 1, "move": self.board.move_of(show.jumps[k])})
        if frame is None:
            self.stop(stopped=False)
        return frame
