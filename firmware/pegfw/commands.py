"""Every request of the protocol (docs/protocol.md) and the module whose `cmd_<name>` answers it.
The everyday ones (state, hint, stop) and the two a deploy needs while it rewrites the drive
(quiet, reset) are here, in memory; the rare ones live in pegfw.game_requests,
pegfw.position_requests, pegfw.board_requests and pegfw.store_records, compiled for the request
and dropped after it (pegfw.ondemand), so the game keeps the heap.

A handler takes (app, rid, req, now): the App, the request's id, the request (a dict) and the
time in ticks; it returns the reply's fields, or DEFERRED when a job answers later, or Slices
when the answer is worked out a slice a pass, or raises ProtocolError."""

from pegcore.rules import holes_of
from pegfw.lights import estimate_ma
from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)

DEFERRED = object()  # a handler's answer when a job (pegfw.job) will reply later
BUTTON = object()    # who asked, when it was the button (a request's id may be None)


class Slices:
    """A handler's answer worked out over several loop passes (a read of every kept game takes
    the chip ~90 ms): `steps`, a generator, yields None after each slice and, last, the reply's
    fields. A hint button's release is answered between slices (bench:
    firmware.release_to_hint_lights); other requests wait their turn."""

    def __init__(self, steps):
        self.steps = steps

EVERYDAY = "pegfw.commands"
GAME = "pegfw.game_requests"
BOARD = "pegfw.board_requests"
POSITION = "pegfw.position_requests"
COMMANDS = {"state": EVERYDAY, "hint": EVERYDAY, "stop": EVERYDAY, "quiet": EVERYDAY, "reset": EVERYDAY,
            "solve": GAME, "demo": GAME, "guide": GAME, "watch": GAME, "review": GAME, "play": POSITION,
            "setup": POSITION,
            "challenge": POSITION,
            "info": BOARD, "brightness": BOARD, "theme": BOARD, "stats": BOARD, "selftest": BOARD,
            "bests": BOARD, "roles": "pegfw.sense_requests", "sound": "pegfw.sense_requests",
            "puzzle": "pegfw.puzzles",
            "records": "pegfw.store_records"}  # (no name of its own: the chip keeps this module's globals)


def cmd_state(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    t = app.tracker
    pos = t.position
    frame = app.last_frame or ()
    return {"pegs": holes_of(t.sensed), "position": holes_of(pos), "empty_start": t.empty_start,
            "start": holes_of(t.start) if t.start else None, "finish": t.finish,
            "challenge": app.challenge_on().text() if t.goal else None,
            "target": holes_of(t.target) if t.target else None,
            "mode": app.mode(), "moves": [app.board.move_of(j) for j in t.moves],
            # a lookup on the 15-hole board; other boards would have to search, and while a deploy
            # rewrites the drive the table file is not read: unknown
            "solvable": app.advisor.hint(pos)[1] if app.table is not None and not app.updating else None,
            "lifted": t.lifted, "landing": holes_of(t.landing), "illegal": holes_of(t.bad),
            "pull": holes_of(t.pending), "show": _show(app, now),
            "lights": [[c >> 16, c >> 8 & 255, c & 255] for c in frame],
            "ma": estimate_ma(frame),
            "brightness": app.limiter.brightness, "theme": app.theme, "roles": app.roles(),
            "seq": app.link.seq, "dropped": app.link.dropped}


def _show(app, now):
    """What the lights show over the pegs, in roles (docs/protocol.md: `show`)."""
    t = app.tracker
    if app.shows.show is None and app.guide is not None and t.mode == "play" and t.sensed == t.position:
        return app.guide.describe()
    return app.shows.describe(now)


def cmd_hint(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    if app.shows.hosted():
        app.check_idle()
    return app.hint(now, rid)


def cmd_stop(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    return {"stopped": app.stop()}


QUIET_S = (120, 600)  # (default, most) seconds a `quiet` lasts unless a reset comes first


def cmd_quiet(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """A deploy is about to rewrite the drive: stop what runs, read no file and compile no code
    until `reset` (or `seconds` pass: then the hint table is opened again)."""
    secs = req.get("seconds")
    if secs is None:
        secs = QUIET_S[0]
    if isinstance(secs, bool) or not isinstance(secs, int) or secs < 1 or secs > QUIET_S[1]:
        raise ProtocolError("bad_args", "seconds must be 1..%d" % QUIET_S[1])
    was = app.stop()
    app.quiet(now, secs * 1000)
    return {"seconds": secs, "stopped": was}


RESET_DELAY_MS = 200  # the reply's time to reach the host before USB goes away


def cmd_reset(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """A hard reset shortly after the reply (pegboard deploy: the new files, boot.py included,
    take effect; on-demand modules never mix old and new code)."""
    if getattr(app.hw, "reset", None) is None:
        raise ProtocolError("not_supported", "this board cannot reset itself: press its reset button")
    app.reset_at = now + RESET_DELAY_MS
    return {"in_ms": RESET_DELAY_MS}
