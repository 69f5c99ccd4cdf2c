"""Long work as jobs the main loop runs a slice per pass (pegfw.job), so the loop keeps
feeding the watchdog and reading the sensors while the board thinks: `solve`, and on boards
without the hint table (21 and 28 holes) hints and demonstrations too. Loaded for the job
(App.call_job), dropped when it is done.

With the 15-hole board's tables there is no search at all: the finish table says where the last
peg can still end from any position, so the walk takes, at each step, a jump after which the
finish stays reachable (a few lookups a jump). Other boards search (pegcore.search.SolutionSearch,
its memo bounded), and give up with `search_limit` past pegfw.job.JOB_LIMIT positions."""

from pegcore.rules import popcount
from pegfw.commands import BUTTON
from pegfw.job import JOB_LIMIT, Job
from pegfw.ondemand import unload
from pegfw.protocol import ProtocolError

class FinishWalk(Job):
    """Jumps from `mask` that end with the last peg in `finish`, one checked child per step."""

    def __init__(self, board, table, mask, finish):
        from pegcore.finishfile import FinishTable

        self.board, self.finish = board, finish
        self.nodes = 0
        self.line = []  # type: list  # the jumps so far
        self.jumps = self.line
        self.mask = mask
        self.j = 0  # next jump to try from self.mask
        self.done = False
        path = table.path.replace("_hints.bin", "_finish.bin")  # it lies beside the hint table
        try:
            ft = FinishTable(table, path)
        except OSError:
            raise ProtocolError("no_table", "the finish table (%s) is missing" % path)
        except ValueError as e:
            raise ProtocolError("no_table", str(e))
        self.ft = ft
        if not self._ok(mask):
            self.jumps = None
            self.done = True

    def _ok(self, mask):
        try:
            return self.ft.finish_ok(mask, self.finish)
        except (OSError, ValueError) as e:  # a damaged file or a read error: say so, once
            raise ProtocolError("no_table", "the finish table cannot be read: %s" % e)

    def close(self):
        self.ft.close()

    def advance(self, nodes):
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        while not self.done and nodes > 0:
            m = self.mask
            if popcount(m) == 1:  # the finish was reachable, so this is it
                self.done = True
                break
            j = self.j
            while j < len(need) and not (m & need[j] == need[j] and not m & land[j]):
                j += 1
            if j >= len(need):  # cannot happen with a sound table: say so rather than loop
                raise ProtocolError("not_solvable", "the finish table and the board disagree")
            nodes -= 1
            self.nodes += 1
            c = m ^ flip[j]
            if self._ok(c):
                self.line.append(j)
                self.mask, self.j = c, 0
            else:
                self.j = j + 1
        return self.done


class Search(Job):
    """The core's sliced search (one solution), for boards without tables."""

    def __init__(self, board, mask, finish):
        from pegcore.search import SolutionSearch

        self.finish = finish
        self.s = SolutionSearch(board, mask, finish)

    def advance(self, nodes):
        s = self.s
        finished = s.advance(nodes)
        self.nodes, self.done, self.jumps = s.nodes, s.done, s.jumps
        return finished


class HintSearch(Search):
    """A hint on a board without the table: the first jump of a solution, or lost (no solution;
    how few pegs it could still leave would take a far longer search: best_left is None)."""

    def __init__(self, board, mask):
        Search.__init__(self, board, mask, None)

    def reply(self, app):
        j = self.jumps[0] if self.jumps else -1
        ok = self.jumps is not None
        move, ok, left = app.show_hint(j, ok, 1 if ok else None, app.hw.ticks_ms(), self.asked_at)
        return {"move": move, "solvable": ok, "best_left": left}


class DemoSearch(Search):
    """A demonstration on a board without the table: the line it will play, found first."""

    def __init__(self, board, mask):
        Search.__init__(self, board, mask, None)
        self.mask = mask

    def reply(self, app):
        if self.jumps is None:
            raise ProtocolError("not_solvable", "no solution from this position to demonstrate")
        app.play_demo(self.jumps, app.hw.ticks_ms(), self.mask)
        return {"moves": [app.board.move_of(j) for j in self.jumps]}


def book_line(app):
    """The rest of the opening book's line while the game follows it (a lookup, no search), else
    None. Only for a game from a full board less one hole, as the book's lines start."""
    t = app.tracker
    if t.mode != "play" or t.empty_start is None:
        return None
    from pegcore import book

    try:
        lines = book.load(app.board, book.path_for(app.board.rows))
    except ValueError:  # a damaged book: search instead
        lines = {}
    finally:
        unload("pegcore.book")  # done with it: a search may follow, and wants the heap
    return book.rest_of_line(lines, t.empty_start, t.moves)


def solve(app, rid, finish, now):
    pos = app.tracker.position
    line = book_line(app) if finish is None and app.table is None else None
    if line is not None:
        return {"moves": [app.board.move_of(j) for j in line]}
    if app.table is not None:
        return app.start_job(FinishWalk(app.board, app.table, pos, finish), rid, now)
    return app.start_job(Search(app.board, pos, finish), rid, now)


def hint(app, rid, now):
    """`now`: when the hint was asked for (the button's release, or the request read)."""
    line = book_line(app)
    if line is not None:
        move, ok, left = app.show_hint(line[0], True, 1, app.hw.ticks_ms(), now)
        return {"move": move, "solvable": ok, "best_left": left}
    return app.start_job(HintSearch(app.board, app.tracker.position), rid, now)


def demo(app, rid, mask, now):
    line = book_line(app) if mask == app.tracker.position else None
    if line is not None:
        app.play_demo(list(line), now, mask)
        return {"moves": [app.board.move_of(j) for j in line]}
    return app.start_job(DemoSearch(app.board, mask), rid, now)


class ChallengeHint(Job):
    """A hint toward the game's challenge on a board without tables: the first jump of a line that
    meets it (pegcore.targets.Targets.search), or "not reachable" when none does. The reverse game
    not resolved has no end to search for: its hint is the first jump of the best line found
    within the job's budget."""

    def __init__(self, challenge, mask):
        self.c = challenge
        self.s = challenge.targets.search(challenge.target, mask, 256)  # the chip's heap beside the search's code

    def advance(self, nodes):
        s = self.s
        finished = s.advance(nodes)
        self.nodes, self.jumps = s.nodes, s.jumps
        if not finished and self.c.target[1] == 0 and s.nodes + nodes >= JOB_LIMIT:
            return True  # the reverse game, unresolved: the best so far will do
        return finished

    def reply(self, app):
        line = self.jumps
        j = line[0] if line else -1
        more = {"challenge": self.c.text(), "reachable": line is not None}
        move, ok, left = app.show_hint(j, line is not None, None, app.hw.ticks_ms(), self.asked_at, more)
        more.update({"move": move, "solvable": ok, "best_left": None})
        return more


def challenge_hint(app, rid, now):
    """`now`: when the hint was asked for."""
    return app.start_job(ChallengeHint(app.challenge_on(), app.tracker.position), rid, now)



class GuideLine(Search):
    """A new line for the guide on a board without the table (the player played on past a move
    off its line): a solution from here, or word that none ends with one peg."""

    def __init__(self, board, mask):
        Search.__init__(self, board, mask, None)

    def reply(self, app):
        if app.guide is not None:
            app.guide.replanned(self.jumps or [], self.jumps is not None)
        return {}

    def cancel(self, app, why):
        app.end_job()  # a move came first: the guide asks again from the new position

    def fail(self, app, code, message, extra=None):
        if app.guide is not None:  # gave up: no line to light until a move the guide knows
            app.guide.planning = False
            app.guide.line, app.guide.step = [], 0
            app.link.event("guide_line", {"moves": [], "solvable": None, "message": message})


def guide_line(app, mask):
    return app.start_job(GuideLine(app.board, mask), BUTTON, app.hw.ticks_ms())


def review(app, rid, now, n):
    """Where a game lost its win (pegfw.review: its code is the job's, dropped after it)."""
    from pegfw.review import start

    return start(app, rid, now, n)
