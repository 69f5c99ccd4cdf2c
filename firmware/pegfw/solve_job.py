"""`solve` as a job the main loop runs a slice per pass (App.start_job), so the loop keeps feeding
the watchdog and reading the sensors while the board thinks. Loaded for the request, dropped when
it has answered.

With the 15-hole board's tables there is no search at all: the finish table says where the last
peg can still end from any position, so the walk takes, at each step, a jump after which the
finish stays reachable (a few lookups a jump). Other boards search (pegcore.search.SolutionSearch)."""

from pegcore.rules import popcount
from pegfw.protocol import ProtocolError

try:
    from typing import Any, Optional  # noqa: F401 (type comments)
except ImportError:
    pass


class Job:
    """What App.start_job runs: advance(n) -> finished; nodes; done; jumps (None: no solution)."""

    finish = None  # type: Optional[int]
    jumps = None  # type: Optional[list]
    done = False
    nodes = 0

    def advance(self, nodes):
        raise NotImplementedError

    def reply(self, app):
        if self.jumps is None:
            raise ProtocolError("not_solvable", "no solution from this position%s"
                                % ("" if self.finish is None else " finishing in %d" % self.finish))
        return {"moves": [app.board.move_of(j) for j in self.jumps]}


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
        if not ft.finish_ok(mask, finish):
            self.jumps = None
            self._finish()

    def _finish(self):
        self.done = True
        self.ft.close()

    def advance(self, nodes):
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        while not self.done and nodes > 0:
            m = self.mask
            if popcount(m) == 1:  # the finish was reachable, so this is it
                self._finish()
                break
            j = self.j
            while j < len(need) and not (m & need[j] == need[j] and not m & land[j]):
                j += 1
            if j >= len(need):  # cannot happen with a sound table: say so rather than loop
                raise ProtocolError("not_solvable", "the finish table and the board disagree")
            nodes -= 1
            self.nodes += 1
            c = m ^ flip[j]
            if self.ft.finish_ok(c, self.finish):
                self.line.append(j)
                self.mask, self.j = c, 0
            else:
                self.j = j + 1
        return self.done


class Search(Job):
    """The core's sliced search, for boards without tables."""

    def __init__(self, board, mask, finish):
        from pegcore.search import SolutionSearch

        self.finish = finish
        self.s = SolutionSearch(board, mask, finish)

    def advance(self, nodes):
        s = self.s
        finished = s.advance(nodes)
        self.nodes, self.done, self.jumps = s.nodes, s.done, s.jumps
        return finished


def start(app, rid, finish):
    pos = app.tracker.position
    if app.table is not None:
        job = FinishWalk(app.board, app.table, pos, finish)  # type: Job
        modules = ("pegfw.solve_job", "pegcore.finishfile")  # type: tuple
    else:
        job = Search(app.board, pos, finish)
        modules = ("pegfw.solve_job", "pegcore.search", "pegcore.parity")
    return app.start_job(job, rid, modules)
