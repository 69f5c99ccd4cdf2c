"""The protocol's rarer requests (pegfw.commands.MORE_COMMANDS: info, solve, demo, guide, watch,
brightness, theme, stats, selftest): the App compiles this module when one arrives and drops it
after the reply, so the game keeps the heap.
Each takes the App, the request and the time, as the methods of pegfw.commands do."""

from pegcore.moves import MoveError, validate_moves
from pegcore.rules import holes_of, popcount
from pegfw import VERSION
from pegfw.protocol import ProtocolError

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


def cmd_solve(app, req, now):
    finish = _finish_arg(app, req)
    pos = app.tracker.position
    if finish is None and app.table is not None:  # a walk through the hint table: instant
        jumps = app.advisor.solution(pos)
        if popcount(pos) != 1 and not (jumps and popcount(_after(app.board, pos, jumps)) == 1):
            raise ProtocolError("not_solvable", "no solution from this position")
        return {"moves": [app.board.move_of(j) for j in jumps]}
    app.not_thinking()
    from pegfw import jobs  # the main loop runs it a slice at a time and answers when done

    return jobs.solve(app, app.request_id, finish, now)


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


def cmd_demo(app, req, now):
    empty = req.get("empty")
    start = None
    if empty is not None:
        if isinstance(empty, bool) or not isinstance(empty, int) or empty < 1 or empty > app.board.holes:
            raise ProtocolError("bad_args", "empty must be a hole 1..%d" % app.board.holes)
        start = app.board.full & ~(1 << (empty - 1))
    jumps = _moves_arg(app, req, False, start)
    _not_busy(app)
    return app.start_demo(jumps, now, start, app.request_id)


def cmd_guide(app, req, now):
    jumps = _moves_arg(app, req, True)
    _not_busy(app)
    if not jumps:
        raise ProtocolError("bad_args", "moves must not be empty")
    app.guide = jumps
    app.guide_step = 0
    app.last_frame = None
    return {"steps": len(jumps)}


def cmd_brightness(app, req, now):
    v = req.get("value")
    if v is not None:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1 or v > 100:
            raise ProtocolError("bad_args", "value must be a percentage 1..100")
        app.limiter.set_brightness(v)
        app.last_frame = None
    return {"value": app.limiter.brightness}


def cmd_theme(app, req, now):
    v = req.get("name")
    if v is not None:
        if v not in ("plain", "wooden"):
            raise ProtocolError("bad_args", "name must be plain or wooden")
        app.theme = v
        app.last_frame = None
    return {"name": app.theme}


def cmd_stats(app, req, now):
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


def cmd_selftest(app, req, now):
    secs = req.get("seconds")
    if secs is None:  # null is the same as absent, for every argument
        secs = 10
    if isinstance(secs, bool) or not isinstance(secs, int) or secs < 1 or secs > 300:
        raise ProtocolError("bad_args", "seconds must be 1..300")
    app._check_idle()  # not in _not_busy: a selftest is for any pegs, a game or not
    from pegfw.show_chase import ChaseShow

    app._start_show("selftest", ChaseShow(app.board.holes, now), ("pegfw.show_chase",))
    app.selftest_until = now + secs * 1000
    return {"seconds": secs, "pegs": holes_of(app.sensed), "pixels": app.board.holes}


RESET_DELAY_MS = 200  # the reply's time to reach the host before USB goes away


def cmd_reset(app, req, now):
    """A hard reset shortly after the reply (pegboard deploy: the new files, boot.py included,
    take effect; on-demand modules never mix old and new code)."""
    if getattr(app.hw, "reset", None) is None:
        raise ProtocolError("not_supported", "this board cannot reset itself: press its reset button")
    app.reset_at = now + RESET_DELAY_MS
    return {"in_ms": RESET_DELAY_MS}


def cmd_info(app, req, now):
    return {"firmware": VERSION, "protocol": PROTOCOL, "rows": app.board.rows, "holes": app.board.holes,
            "runtime": app.runtime, "capabilities": CAPABILITIES, "hint_table": app.table is not None,
            "sensors": app.sensors, "current_ma": app.limiter.budget_ma,
            "loops": app.loops, "errors": app.errors, "overflows": app.overflows}


def _not_busy(app):
    app.not_thinking()
    app._check_idle()
    if app.tracker.mode in ("illegal", "setup"):
        raise ProtocolError("busy", "the board is in %s mode: set the pegs right first" % app.tracker.mode)


def cmd_watch(app, req, now):
    step = req.get("step")
    if step is not None and step is not True:
        raise ProtocolError("bad_args", "step must be true (or left out)")
    if app.show_kind == "watch" and step and app.show.speed_ms == 0:
        app.show.step()
        return {"step": app.show.count + 1}
    speed = req.get("speed")
    if speed is None:
        speed = 150
    if step:
        speed = 0
    if isinstance(speed, bool) or not isinstance(speed, int) or speed < 0 or speed > 10000:
        raise ProtocolError("bad_args", "speed must be 0..10000 ms per step")
    _not_busy(app)
    from pegfw.show_watch import SolverShow

    app._start_show("watch", SolverShow(app.board, now, app.tracker.position, speed),
                     ("pegfw.show_watch", "pegcore.search"))
    return {"speed": speed}
