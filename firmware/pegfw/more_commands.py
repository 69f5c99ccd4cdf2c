"""The protocol's rarer requests (pegfw.commands.COMMANDS says which): compiled when one arrives
and dropped after the reply (pegfw.ondemand), so the game keeps the heap. Each handler takes
(app, rid, req, now), as those of pegfw.commands do."""

from pegcore.moves import MoveError, validate_moves
from pegcore.rules import holes_of, popcount
from pegfw import VERSION
from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)

PROTOCOL = 1
CAPABILITIES = ("hint", "solve", "demo", "guide", "watch", "selftest", "stats", "theme", "brightness", "reset")


def _after(board, mask, jumps):
    for j in jumps:
        mask ^= board.flip[j]
    return mask


def _finish_arg(app, req):
    f = req.get("finish")
    if f is None:
        return None
    if isinstance(f, bool) or not isinstance(f, int) or f < 1 or f > app.board.holes:
        raise ProtocolError("bad_args", "finish must be a hole 1..%d" % app.board.holes)
    return f


def cmd_solve(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    finish = _finish_arg(app, req)
    pos = app.tracker.position
    if finish is None and app.table is not None:  # a walk through the hint table: instant
        jumps = app.advisor.solution(pos)
        if popcount(pos) != 1 and not (jumps and popcount(_after(app.board, pos, jumps)) == 1):
            raise ProtocolError("not_solvable", "no solution from this position")
        return {"moves": [app.board.move_of(j) for j in jumps]}
    return app.jobs.call("solve", app, rid, finish, now)  # a slice per pass; it answers when done


def _moves_arg(app, req, required, start=None):
    moves = req.get("moves")
    if moves is None:
        if required:
            raise ProtocolError("bad_args", "moves is required: a list of [from, over, to]")
        return None
    if not isinstance(moves, list) or len(moves) > 64:
        raise ProtocolError("bad_args", "moves must be a list of at most 64 [from, over, to] moves")
    try:
        pos = app.tracker.position if start is None else start
        _final, jumps = validate_moves(app.board, pos, moves)
    except MoveError as e:
        err = ProtocolError("illegal_move", "step %d: %s" % (e.step, e.why))
        err.extra = {"step": e.step}
        raise err
    return jumps


def cmd_demo(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    empty = req.get("empty")
    start = None
    if empty is not None:
        if isinstance(empty, bool) or not isinstance(empty, int) or empty < 1 or empty > app.board.holes:
            raise ProtocolError("bad_args", "empty must be a hole 1..%d" % app.board.holes)
        start = app.board.full & ~(1 << (empty - 1))
    jumps = _moves_arg(app, req, False, start)
    _not_busy(app)
    return app.start_demo(jumps, now, start, rid)


def cmd_guide(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    jumps = _moves_arg(app, req, True)
    _not_busy(app)
    if not jumps:
        raise ProtocolError("bad_args", "moves must not be empty")
    app.guide.start(jumps)
    return {"steps": len(jumps)}


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
    v = req.get("name")
    if v is not None:
        if v not in ("plain", "wooden"):
            raise ProtocolError("bad_args", "name must be plain or wooden")
        app.theme = v
    return {"name": app.theme}


def cmd_stats(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """The games played, and the board's own figures since start-up (measured on the device, so a
    real board checks the estimates published from the simulator)."""
    import gc
    from pegfw.app import MEM_FREE

    gc.collect()  # the free heap after a collection: what the game really leaves
    st = app.store
    return {"games": st.games, "wins": st.wins, "best": st.best or None, "nvm_writes": st.writes,
            "nvm_erases": st.erases, "corrupt_record_ignored": st.corrupt,
            "free_heap": MEM_FREE() if MEM_FREE else None, "free_heap_lowest": app.free_heap_low,
            "longest_pass_ms": app.longest_pass_ms, "last_hint_ms": app.hint_ms, "loops": app.loops,
            "errors": app.errors}


def cmd_selftest(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    secs = req.get("seconds")
    if secs is None:  # null is the same as absent, for every argument
        secs = 10
    if isinstance(secs, bool) or not isinstance(secs, int) or secs < 1 or secs > 300:
        raise ProtocolError("bad_args", "seconds must be 1..300")
    app.check_idle()  # not in _not_busy: a selftest is for any pegs, a game or not
    app.shows.load("selftest", "pegfw.show_chase", "ChaseShow", (app.board.holes, now), now + secs * 1000)
    return {"seconds": secs, "pegs": holes_of(app.sensed), "pixels": app.board.holes}


RESET_DELAY_MS = 200  # the reply's time to reach the host before USB goes away


def cmd_reset(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """A hard reset shortly after the reply (pegboard deploy: the new files, boot.py included,
    take effect; on-demand modules never mix old and new code)."""
    if getattr(app.hw, "reset", None) is None:
        raise ProtocolError("not_supported", "this board cannot reset itself: press its reset button")
    app.reset_at = now + RESET_DELAY_MS
    return {"in_ms": RESET_DELAY_MS}


def cmd_info(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    return {"firmware": VERSION, "protocol": PROTOCOL, "rows": app.board.rows, "holes": app.board.holes,
            "runtime": app.runtime, "capabilities": CAPABILITIES, "hint_table": app.table is not None,
            "sensors": app.sensors, "current_ma": app.limiter.budget_ma,
            "loops": app.loops, "errors": app.errors, "overflows": app.overflows}


def _not_busy(app):
    app.jobs.check_idle()
    app.check_idle()
    if app.tracker.mode in ("illegal", "setup"):
        raise ProtocolError("busy", "the board is in %s mode: set the pegs right first" % app.tracker.mode)


def cmd_watch(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    step = req.get("step")
    if step is not None and step is not True:
        raise ProtocolError("bad_args", "step must be true (or left out)")
    show = app.shows.show if app.shows.kind == "watch" else None
    if step and show is not None and show.speed_ms == 0:
        show.step()
        return {"step": show.count + 1}
    speed = req.get("speed")
    if speed is None:
        speed = 150
    if step:
        speed = 0
    if isinstance(speed, bool) or not isinstance(speed, int) or speed < 0 or speed > 10000:
        raise ProtocolError("bad_args", "speed must be 0..10000 ms per step")
    _not_busy(app)
    app.shows.load("watch", "pegfw.show_watch", "SolverShow", (app.board, now, app.tracker.position, speed))
    return {"speed": speed}
