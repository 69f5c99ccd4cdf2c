"""Graded puzzles on the board (docs/protocol.md, `puzzle`): the board's table (pegcore.puzzlefile,
made by the host), the next unsolved one from the board's place, the puzzle of the day when a host
gives the date, the set-up lights until the pegs match, and a win from a puzzle's position kept
as solved (pegfw.store: SOLVED entries). Loaded for a request, a triple press or a won game from
a position a hand set, and dropped after."""

from pegcore.puzzlefile import PuzzleTable, path_for
from pegcore.rules import holes_of, popcount
from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)

MAX = 128  # puzzles the board can keep as solved (Store.solved: a bit each)


def table(board):
    """The board's puzzle table, or ProtocolError not_supported (a board without one)."""
    path = path_for(board.rows)
    if path is None:
        raise ProtocolError("not_supported", "no puzzles for a %d-hole board (15 and 21 holes have them)"
                            % board.holes)
    try:
        return PuzzleTable(path, board.holes)
    except (OSError, ValueError) as e:
        raise ProtocolError("not_supported", "the puzzle table cannot be read (%s): deploy the firmware again" % e)


def next_unsolved(tab, store, after, grade):
    """The first puzzle after index `after` (of `grade`, if given) not solved yet, going round;
    if all are solved, the next one anyway."""
    span = tab.of_grade(grade) if grade else range(tab.count)
    n = len(span)
    if not n:
        raise ProtocolError("bad_args", "grade %d has no puzzles" % grade)
    k = 0
    while k < n and span[k] <= after:
        k += 1
    for d in range(n):
        i = span[(k + d) % n]
        if not store.is_solved(i):
            return i
    return span[k % n]


def of_day(tab, day):
    """The puzzle of day `day` (days since 1970-01-01, the host's date): the grades in turn, one
    day each, and in each grade its puzzles in turn: the same puzzle on every board that day."""
    g = 1 + day % tab.grades
    span = tab.of_grade(g)
    return span[day // tab.grades % len(span)] if len(span) else 0


def _int_arg(req, name, lo, hi):
    v = req.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise ProtocolError("bad_args", "%s must be %d..%d" % (name, lo, hi))
    return v


def cmd_puzzle(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """Set up a puzzle: `n` (1..count), else `day` (the puzzle of the day), else the next unsolved
    one (of `grade`, if given) from the board's place. The set-up lights show what to fill and take
    out; once the pegs match, a game starts from the puzzle (toward its finish hole, if any)."""
    tab = table(app.board)
    try:
        n = _int_arg(req, "n", 1, min(tab.count, MAX))
        day = _int_arg(req, "day", 0, 1 << 30)
        grade = _int_arg(req, "grade", 1, tab.grades)
        if n is not None:
            i = n - 1
        elif day is not None:
            i = of_day(tab, day)
        else:
            i = next_unsolved(tab, app.store, app.puzzle_at, grade)
        return start(app, tab, i)
    finally:
        tab.close()


def press(app):
    """The button pressed three times quickly: the next unsolved puzzle (the event `puzzle` says
    which; a board without a table refuses, as a request would)."""
    tab = table(app.board)
    try:
        start(app, tab, next_unsolved(tab, app.store, app.puzzle_at, 0))
    finally:
        tab.close()


def start(app, tab, i):
    """Light puzzle i's position to be set; a game starts from it once the pegs match."""
    app.check_thinking()
    app.check_idle()
    mask, finish = tab.puzzle(i)
    t = app.tracker
    events = []  # type: list
    t.to_setup(events, "puzzle")  # the game in play ends (unfinished: abandoned)
    t.target, t.target_goal = mask, finish
    app.puzzle_at = i
    app.puzzle = mask
    fields = describe(app, tab, i, mask, finish)
    app.link.event("puzzle", fields)
    t.judge(events)  # the pegs may match already
    app.take_events(events)
    s = t.sensed
    fields["to_fill"] = holes_of(mask & ~s)
    fields["to_remove"] = holes_of(s & ~mask)
    fields["done"] = not t.target
    return fields


def describe(app, tab, i, mask, finish):
    solved = 0
    for k in range(min(tab.count, MAX)):
        if app.store.is_solved(k):
            solved += 1
    return {"n": i + 1, "grade": tab.grade_of(i), "grades": tab.grades, "pegs": holes_of(mask),
            "finish": finish or None, "solved": app.store.is_solved(i), "count": tab.count,
            "solved_count": solved}


def solved(app, start_mask, goal):
    """A game from `start_mask` was won (toward finish hole `goal`, 0 anywhere): if that is a
    puzzle of the table, it is kept as solved; its number (1..), or 0."""
    if popcount(start_mask) >= app.board.holes - 1:
        return 0  # a full board less one is no puzzle
    path = path_for(app.board.rows)
    if path is None:
        return 0
    try:
        tab = PuzzleTable(path, app.board.holes)
    except (OSError, ValueError):
        return 0
    try:
        for i in range(min(tab.count, MAX)):
            mask, finish = tab.puzzle(i)
            if mask == start_mask and finish == goal:
                app.store.mark_solved(i)
                return i + 1
    finally:
        tab.close()
    return 0

