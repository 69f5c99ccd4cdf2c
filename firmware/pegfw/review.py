"""Where did I go wrong: the first move of a game after which it could no longer be won, and a
move that would have kept the win there (the `review` request; a short press after a lost game).
Once a position is lost every position after it is too, so the turn is found by halving: a few
positions judged, not every one. On the 15-hole board each is a table lookup; on the others a
sliced search per position, run as a job (pegfw.job). Then the board lights it (pegfw.show_review)
and waits for the position before that move to be set: the retry starts from there. Loaded with
the job and dropped after it."""

from pegcore.rules import holes_of, popcount
from pegfw.job import Job
from pegfw.protocol import ProtocolError

LOST = -2     # a judged position: no win from it
RUNNING = -3  # ... not judged yet: its search goes on

try:
    from typing import Any  # noqa: F401 (type comments)
except ImportError:  # the chip has no typing module
    pass

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)


def start(app, rid, now, n):
    # type: (App, object, int, object) -> object
    """Review kept game `n` (1 the oldest kept), or None: the game just over, else the newest."""
    t, store = app.tracker, app.store
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise ProtocolError("bad_args", "game must be a kept game's number, 1 or more")
    review = Review(app, n)
    if n is None and t.mode == "over" and store.start:
        review.begin(store.start, store.goal, list(store.moves))
    return app.start_job(review, rid, now)


class Review(Job):
    """The halving over the game's positions: `lo` a position from which the win was still there
    (with `first[lo]`, a move that keeps it), `hi` one from which it was not."""

    def __init__(self, app, n):
        self.board, self.table, self.store, self.n = app.board, app.table, app.store, n
        self.masks = None  # type: Any  # the game's positions, once it is found
        self.ft = None
        self.first = {}  # type: dict
        self.lo = self.hi = -1
        self.probe = 0  # the position to judge next
        self.s = None  # the search judging it, on a board without tables
        self.verdict = None

    def begin(self, start_mask, goal, jumps):
        b = self.board
        if goal > b.holes:
            raise ProtocolError("not_supported", "review finds the lost win of a game to one peg or a finish hole; "
                                                 "this game's challenge is another")
        self.finish, self.played = goal, jumps
        masks = [start_mask]
        for j in jumps:
            if masks[-1] & b.need[j] != b.need[j] or masks[-1] & b.land[j]:
                raise ProtocolError("internal", "the kept game has a move that is not legal")
            masks.append(masks[-1] ^ b.flip[j])
        if self.table is not None and goal:
            from pegcore.finishfile import FinishTable

            try:
                self.ft = FinishTable(self.table, self.table.path.replace("_hints.bin", "_finish.bin"))
            except (OSError, ValueError) as e:
                raise ProtocolError("no_table", "the finish table cannot be read: %s" % e)
        self.masks = masks

    def close(self):
        if self.ft is not None:
            self.ft.close()

    def advance(self, nodes):
        if self.masks is None:  # a kept game: read in the job's first slice (the request's stack is deeper)
            from pegfw.store_games import games

            k, n, game = 0, self.n, None
            for start_mask, goal, _result, moves, _secs in games(self.store, True):
                k += 1
                if n is None or k == n:
                    game = (start_mask, goal, list(moves))
                    if k == n:
                        break
            if game is None:
                if n is None:
                    raise ProtocolError("no_game", "no game is kept yet: play one first")
                raise ProtocolError("bad_args", "game %d is not kept: the board keeps %d" % (n, k))
            self.begin(game[0], game[1], game[2])
            return False
        while self.verdict is None:
            i = self.probe
            got = self._judge(self.masks[i], nodes)
            if got == RUNNING:
                return False  # a search under way: on in the next slice
            self._learn(i, got)
        return True

    def _learn(self, i, j):
        """Position i judged: j a move that keeps the win (-1: won already), or LOST."""
        last = len(self.masks) - 1
        if j == LOST:
            if i == 0:
                self.verdict = "lost_from_start"
                return
            self.hi = i
        else:
            self.first[i] = j
            self.lo = i
            if i == last:
                self.verdict = "not_lost"  # won, or left while the win was still there
                return
            if self.hi < 0:
                self.probe = last
                return
        if self.hi - self.lo == 1:
            self.verdict = "lost_at"
        else:
            self.probe = (self.lo + self.hi) // 2

    def _judge(self, m, nodes):
        """A move from m that keeps the win (-1: m is won already), LOST, or RUNNING (a search is
        under way: asked again in the next slice)."""
        b = self.board
        if self.table is not None and not self.finish:
            j, left = self.table.lookup(m)
            return (j if popcount(m) > 1 else -1) if left == 1 else LOST
        if self.ft is not None:
            if not self.ft.finish_ok(m, self.finish):
                return LOST
            if popcount(m) == 1:
                return -1
            for j in range(len(b.need)):
                if m & b.need[j] == b.need[j] and not m & b.land[j] and self.ft.finish_ok(m ^ b.flip[j], self.finish):
                    return j
            raise ProtocolError("internal", "the finish table and the board disagree")
        if self.s is None:
            from pegcore.search import SolutionSearch

            self.s = SolutionSearch(b, m, self.finish or None)
        s = self.s
        s.advance(nodes)
        self.nodes = s.nodes
        if not s.done:
            return RUNNING
        self.s = None
        self.nodes = 0
        if s.jumps is None:
            return LOST
        return s.jumps[0] if s.jumps else -1

    def reply(self, app):
        b, v = self.board, self.verdict
        out = {"game": self.n, "verdict": v, "moves": len(self.played), "finish": self.finish or None,
               "move_number": None, "played": None, "better": None, "before": None}
        if v == "lost_at":
            k = self.hi
            before = self.masks[k - 1]
            out.update({"move_number": k, "played": b.move_of(self.played[k - 1]),
                        "better": b.move_of(self.first[k - 1]), "before": holes_of(before)})
            light(app, before, self.played[k - 1], self.first[k - 1], self.finish)
        return out


def light(app, before, played, better, goal):
    """Light the position before the move that lost the win, that move and a better one, and wait
    for the pegs to be set as it was: the retry, a game from there toward the same goal."""
    t = app.tracker
    events = []  # type: list
    t.to_setup(events, "review")  # the game is over already: nothing of it is lost
    t.target, t.target_goal = before, goal
    t.judge(events)
    app.retry = before  # the new game from it is told as a retry (game_events)
    job, app.job = app.job, None  # this job's own setup is no move that makes its answer stale
    try:
        app.take_events(events)
    finally:
        app.job = job
    app.shows.load("review", "pegfw.show_review", "ReviewShow", (app.board, app.hw.ticks_ms(), before, played, better))

