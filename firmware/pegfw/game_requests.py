"""Rare requests about the game (solve, demo, guide, watch): compiled for the request and dropped
after the reply (pegfw.ondemand; pegfw.commands.COMMANDS says which module answers what). Each
handler takes (app, rid, req, now), as those of pegfw.commands do."""

from pegcore.moves import MoveError, validate_moves
from pegcore.rules import popcount
from pegfw import ondemand
from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)


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
    return app.call_job("solve", app, rid, finish, now)  # a slice per pass; it answers when done


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
    if req.get("start") is not None:  # a hand-set start: its reader lives with play and setup
        from pegfw.position_requests import pegs_arg

        start = pegs_arg(app, req, "start")
    if empty is not None:
        if isinstance(empty, bool) or not isinstance(empty, int) or empty < 1 or empty > app.board.holes:
            raise ProtocolError("bad_args", "empty must be a hole 1..%d" % app.board.holes)
        if start is not None:
            raise ProtocolError("bad_args", "give empty or start, not both")
        start = app.board.full & ~(1 << (empty - 1))
    jumps = _moves_arg(app, req, False, start)
    _not_busy(app)
    return app.start_demo(jumps, now, start, rid)


def cmd_guide(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    jumps = _moves_arg(app, req, True)
    _not_busy(app)
    if app.tracker.mode == "setup":
        raise ProtocolError("busy", "no game is being played: start one (play, or setup with the file's start)")
    if not jumps:
        raise ProtocolError("bad_args", "moves must not be empty")
    app.start_guide(jumps)
    return {"steps": len(jumps)}


def _not_busy(app):
    app.check_thinking()
    app.check_idle()
    if app.tracker.mode == "illegal":
        raise ProtocolError("busy", "an illegal placement is lit: set the pegs right first")
    if app.tracker.target:
        raise ProtocolError("busy", "the board waits for a position to be set: set it, or send stop")


def cmd_review(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """Where the game (`game`: a kept game's number; left out, the one just over, else the newest)
    lost its win: pegfw.review."""
    app.check_thinking()
    app.check_idle()
    ondemand.begin("job")  # as App.call_job does, a frame less: the kept games are read deep down
    try:
        return ondemand.load("pegfw.review").start(app, rid, now, req.get("game"))
    finally:
        if app.job is None:
            ondemand.end("job")


def cmd_watch(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    step = req.get("step")
    if step is not None and step is not True:
        raise ProtocolError("bad_args", "step must be true (or left out)")
    show = app.shows.show if app.shows.kind == "watch" else None
    if step and show is not None:
        show.speed_ms = 0  # a watch running at a speed goes on a step at a time, from where it is
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
