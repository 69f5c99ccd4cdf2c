"""The protocol's rarer requests (solve, demo, guide, brightness, theme, stats, selftest): the App
compiles this module when one arrives and drops it after the reply, so the game keeps the heap.
Each takes the App, the request and the time, as the methods of pegfw.commands do."""

from pegcore.moves import MoveError, validate_moves
from pegcore.rules import holes_of, popcount
from pegfw.protocol import ProtocolError


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
    if finish is None:
        jumps = app.advisor.solution(pos, app._in_game())
        ok = popcount(pos) == 1 or (jumps and popcount(_after(app.board, pos, jumps)) == 1)
    else:
        from pegcore.solver import Solver

        jumps = Solver(app.board, finish).solution(pos)
        ok = jumps is not None
    if not ok:
        raise ProtocolError("not_solvable", "no solution from this position%s"
                            % ("" if finish is None else " finishing in %d" % finish))
    return {"moves": [app.board.move_of(j) for j in jumps]}


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
    app._not_busy()
    jumps = app._start_demo(jumps, now, start)
    return {"moves": [app.board.move_of(j) for j in jumps]}


def cmd_guide(app, req, now):
    jumps = _moves_arg(app, req, True)
    app._not_busy()
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
    return app.store.as_dict()


def cmd_selftest(app, req, now):
    secs = req.get("seconds", 10)
    if isinstance(secs, bool) or not isinstance(secs, int) or secs < 1 or secs > 300:
        raise ProtocolError("bad_args", "seconds must be 1..300")
    if app.show_kind in ("demo", "watch"):
        raise ProtocolError("busy", "a %s is running: send stop first" % app.show_kind)
    from pegfw.show_chase import ChaseShow

    app._start_show("selftest", ChaseShow(app.board.holes, now), ("pegfw.show_chase",))
    app.selftest_until = now + secs * 1000
    return {"seconds": secs, "pegs": holes_of(app.sensed), "pixels": app.board.holes}
