"""Rare requests about the board itself (info, brightness, theme, stats, selftest, bests):
compiled for the request and dropped after the reply (pegfw.ondemand; pegfw.commands.COMMANDS says
which module answers what). Each handler takes (app, rid, req, now), as those of pegfw.commands do."""

from pegcore.rules import holes_of
from pegfw import VERSION, ondemand
from pegfw.commands import Slices
from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)

PROTOCOL = 1
CAPABILITIES = ("hint", "solve", "demo", "guide", "watch", "play", "setup", "selftest", "stats", "theme",
                "brightness", "reset", "quiet", "records", "challenge", "review",
                "bests", "puzzle", "roles", "sound")  # (roles, sound: pegfw.sense_requests)


def cmd_info(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    return {"firmware": VERSION, "protocol": PROTOCOL, "rows": app.board.rows, "holes": app.board.holes,
            "runtime": app.runtime, "capabilities": CAPABILITIES, "hint_table": app.table is not None,
            "sensors": app.sensors, "current_ma": app.limiter.budget_ma, "piezo": app.sound is not None,
            "loops": app.loops, "errors": app.errors, "overflows": app.overflows}


def cmd_brightness(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    v = req.get("value")
    if v is not None:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1 or v > 100:
            raise ProtocolError("bad_args", "value must be a percentage 1..100")
        app.limiter.set_brightness(v)
    return {"value": app.limiter.brightness}


def cmd_theme(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    from pegfw.colors import THEMES

    v = req.get("name")
    if v is not None:
        if v not in THEMES:
            raise ProtocolError("bad_args", "name must be plain, wooden or pegs")
        app.theme = v
    return {"name": app.theme}


def cmd_stats(app, rid, req, now):
    # type: (App, object, dict, int) -> Slices
    """The games played, and the board's own figures since start-up (measured on the device, so a
    real board checks the estimates published from the simulator)."""
    return Slices(_stats(app))


def _stats(app):
    """cmd_stats's reply: a collection, then the kept games' challenges a game a pass (reading them
    all is one of the chip's longest requests)."""
    import gc
    from pegfw.app import MEM_FREE

    gc.collect()  # the free heap after a collection: what the game really leaves
    free = MEM_FREE() if MEM_FREE else None
    if free is not None and free < app.free_heap_low:
        app.free_heap_low = free  # this answer is a sample too: the lowest is never above it
    yield None
    st = app.store
    kept = [0, 0]  # challenges set, met
    for _ in ondemand.load("pegfw.store_games").challenge_totals(st, app.board, kept):  # (dropped with the request)
        yield None
    yield {"games": st.games, "wins": st.wins, "best": st.best or None, "abandoned": st.abandoned,
           "challenges_kept": {"set": kept[0], "met": kept[1]}, "bests": len(st.bests) // 3,
           "puzzles_solved": _bits(st.solved),
           "nvm_writes": st.writes,
           "nvm_erases": st.erases, "corrupt_record_ignored": st.corrupt,
           "free_heap": free, "free_heap_lowest": app.free_heap_low,
           "longest_pass_ms": app.longest_pass_ms, "last_hint_ms": app.hint_ms,
           "button_debounce_ms": app.hw.debounce_ms, "loops": app.loops,
           "errors": app.errors}


def _bits(data):
    n = 0
    for b in data:
        while b:
            b &= b - 1
            n += 1
    return n


def cmd_selftest(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    secs = req.get("seconds")
    if secs is None:  # null is the same as absent, for every argument
        secs = 10
    if isinstance(secs, bool) or not isinstance(secs, int) or secs < 1 or secs > 300:
        raise ProtocolError("bad_args", "seconds must be 1..300")
    hole = req.get("hole")  # absent or null: the chase; a hole: that hole's pixel alone (bring-up)
    if hole is None:
        hole = 0
    elif isinstance(hole, bool) or not isinstance(hole, int) or hole < 1 or hole > app.board.holes:
        raise ProtocolError("bad_args", "hole must be 1..%d" % app.board.holes)
    app.check_idle()  # not in _not_busy: a selftest is for any pegs, a game or not
    app.shows.load("selftest", "pegfw.show_chase", "ChaseShow", (app.board.holes, now, hole), now + secs * 1000)
    return {"seconds": secs, "pegs": holes_of(app.sensed), "pixels": app.board.holes, "hole": hole or None}

BESTS_PAGE = 8  # bests a reply: each under 120 bytes of JSON


def cmd_bests(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """The personal bests the board keeps, BESTS_PAGE a reply, newest set last: `start` (the pegs),
    `empty` (the hole a full board less one left empty, else null), `challenge` (null: none),
    `pegs`, `seconds`."""
    from pegfw.challenge import text_of

    page = req.get("page", 0)
    if isinstance(page, bool) or not isinstance(page, int) or page < 0:
        raise ProtocolError("bad_args", "page must be 0 or more")
    b = app.store.bests
    full = app.board.full
    out = []
    for i in range(3 * BESTS_PAGE * page, min(len(b), 3 * BESTS_PAGE * (page + 1)), 3):
        gap = full & ~b[i]
        out.append({"start": holes_of(b[i]), "empty": holes_of(gap)[0] if gap and not gap & (gap - 1) else None,
                    "challenge": text_of(b[i + 1]) if b[i + 1] else None, "pegs": b[i + 2] >> 22,
                    "seconds": b[i + 2] & (1 << 21) - 1})
    total = len(b) // 3
    return {"bests": out, "page": page, "pages": (total + BESTS_PAGE - 1) // BESTS_PAGE, "total": total}
