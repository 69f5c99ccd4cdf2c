"""A long request's work, run a slice per loop pass so the loop keeps feeding the watchdog and
reading the sensors while the board thinks: what every job (pegfw.jobs) shares. One job at a time
(this heap holds one search): App.job. Loaded with the job (pegfw.ondemand owner "job") and
dropped when it ends, however it ends."""

from pegfw.commands import BUTTON
from pegfw.protocol import ProtocolError

try:
    from typing import Optional  # noqa: F401 (type comments)
except ImportError:  # the chip has no typing module
    pass

JOB_SLICE = 8           # positions a job searches per loop pass (the bench holds a pass short on the chip)
JOB_LIMIT = 2400        # ... and in all, before it answers that it gave up (its time: docs/architecture.md)


class Job:
    """advance(n) -> finished; nodes; jumps (None: no solution) once finished. App.start_job sets
    rid (the request to answer, or BUTTON) and asked_at (when, in ticks)."""

    finish = None  # type: Optional[int]
    jumps = None  # type: Optional[list]
    nodes = 0
    rid = None  # type: object
    asked_at = 0

    def advance(self, nodes):
        raise NotImplementedError

    def close(self):
        """Give back what it holds (a file); called however the job ends."""

    def reply(self, app):
        """The request's answer (or raises ProtocolError); called once the job has finished."""
        if self.jumps is None:
            raise ProtocolError("not_solvable", "no solution from this position%s"
                                % ("" if self.finish is None else " finishing in %d" % self.finish))
        return {"moves": [app.board.move_of(j) for j in self.jumps]}

    # -- its life in the loop ----------------------------------------------------------------
    def run(self, app):
        """One slice; the answer (and the job's end) when it finishes or gives up."""
        try:
            finished = self.advance(JOB_SLICE)
            if not finished and self.nodes < JOB_LIMIT:
                return
            if finished:
                fields = self.reply(app)  # a hint or a demo lights up here, whoever asked
                if self.rid is not BUTTON:
                    app.link.reply(self.rid, fields)
            else:
                self.fail(app, "search_limit", "the board gave up after %d positions: solve it on the PC "
                          "(pegboard solve)" % self.nodes)
        except ProtocolError as e:
            self.fail(app, e.code, e.message, e.extra)
        except MemoryError:
            app.end_job()  # drop the search first: the reply needs heap
            self.fail(app, "no_memory", "the board is short of memory for this request: try again")
            return
        except Exception as e:  # a damaged file, a bug: the request still gets its one answer
            app.errors += 1
            self.fail(app, "internal", "the board failed at this request: %s" % repr(e)[:80])
        app.end_job()

    def cancel(self, app, why):
        """The position changed, or stop came: an answer for the old one would mislead."""
        app.end_job()
        if why == "stopped":
            self.fail(app, "stopped", "stopped before the board had its answer")
        else:
            self.fail(app, "position_changed", "the pegs moved before the board had its answer: ask again")

    def fail(self, app, code, message, extra=None):
        if self.rid is not BUTTON:
            app.link.error(self.rid, code, message, extra)
        else:  # the button asked: say it on the link as an event
            app.link.event("refused", {"code": code, "message": message})
