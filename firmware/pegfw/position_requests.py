"""Rare requests about the position on the board: `play` (a game from the pegs as they stand;
the button held 3 s does the same) and `setup` (the board waits for a wanted position, lighting
what to fill and what to take out). Compiled for the request and dropped after (pegfw.ondemand),
as pegfw.game_requests is; handlers take (app, rid, req, now)."""

import gc

from pegcore.rules import has_move, holes_of
from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)


def pegs_arg(app, req, name):
    """A list of distinct holes (at least one), as a mask; None when left out."""
    pegs = req.get(name)
    if pegs is None:
        return None
    n = app.board.holes
    if not isinstance(pegs, list) or not pegs or len(pegs) > n:
        raise ProtocolError("bad_args", "%s must be a list of 1..%d holes" % (name, n))
    mask = 0
    for h in pegs:
        if isinstance(h, bool) or not isinstance(h, int) or h < 1 or h > n:
            raise ProtocolError("bad_args", "%s: every hole must be 1..%d" % (name, n))
        if mask >> (h - 1) & 1:
            raise ProtocolError("bad_args", "%s: hole %d is listed twice" % (name, h))
        mask |= 1 << (h - 1)
    return mask


def cmd_play(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """A game from the pegs as they stand (free play becomes a game); `target`: its challenge
    (a hand-set puzzle with its target), as `challenge` takes it."""
    finish = req.get("finish")
    if finish is not None and (isinstance(finish, bool) or not isinstance(finish, int)
                               or not 1 <= finish <= app.board.holes):
        raise ProtocolError("bad_args", "finish must be a hole 1..%d" % app.board.holes)
    target = req.get("target")
    if target is not None and finish is not None:
        raise ProtocolError("bad_args", "give finish or target, not both (target finish:H is the same)")
    if target is not None and not isinstance(target, str):
        raise ProtocolError("bad_args", "target is text: finish:H, finish, leave:K, most or none")
    app.check_thinking()
    app.check_idle()
    out = play_here(app, finish)
    if target is not None:
        out.update(app.set_challenge(target, now))
    return out


def cmd_challenge(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """Set the challenge of the game in play: `target` "finish:H" (the last peg in hole H),
    "finish" (in the hole that started empty), "leave:K" (exactly K pegs left, no jump), "most"
    (the reverse game: as many pegs as possible with no jump left), "none" (taken off)."""
    target = req.get("target")
    if target is None:
        raise ProtocolError("bad_args", "target is required: finish:H, finish, leave:K, most or none")
    if not isinstance(target, str):
        raise ProtocolError("bad_args", "target is text: finish:H, finish, leave:K, most or none")
    app.check_thinking()
    app.check_idle()
    # once more after a collection if its code did not fit the heap as it lay (it compiles
    # pegcore.targets, the largest module a request loads); inline: the chip's Python stack has
    # no frame to spare on this path (a helper function here exhausted it in chipvm)
    try:
        return app.set_challenge(target, now)
    except MemoryError:
        gc.collect()
        return app.set_challenge(target, now)


def play_here(app, finish):
    """A game from the pegs as they stand (`play`, or the button held 3 s), whatever they were:
    free play, a game, a game with pegs the game cannot explain (the player says what they are)."""
    t = app.tracker
    if not has_move(app.board, t.sensed):
        raise ProtocolError("not_solvable", "no jump is possible from these pegs: set a position with a jump")
    events = []  # type: list
    t.target = 0
    t.begin_game(events, t.sensed, finish or 0)
    t.update_lifted()
    t.version += 1
    app.take_events(events)
    return {"start": holes_of(t.start), "empty": t.empty_start, "finish": finish}


def cmd_setup(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """Light the holes to fill and the pegs to take out until the pegs are `pegs`; then a game
    starts from them (setup_done, new_game). The game in play ends."""
    mask = pegs_arg(app, req, "pegs")
    if mask is None:
        raise ProtocolError("bad_args", "pegs is required: a list of holes")
    app.check_thinking()
    app.check_idle()
    t = app.tracker
    events = []  # type: list
    t.to_setup(events, "request")  # the game in play ends
    t.target, t.target_goal = mask, 0
    t.judge(events)  # the pegs may match already
    app.take_events(events)
    s = t.sensed
    return {"to_fill": holes_of(mask & ~s), "to_remove": holes_of(s & ~mask), "done": not t.target}
