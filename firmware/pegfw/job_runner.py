"""Long work (pegfw.jobs: solve, and hints and demos where there is no hint table) run a slice per
loop pass, so the loop keeps feeding the watchdog and reading the sensors while the board
thinks. One job at a time: this heap holds one search. The job's code is loaded for it alone
(pegfw.ondemand owner "job") and dropped when it ends, however it ends."""

import gc

try:
    from typing import Any  # noqa: F401 (type comments)
except ImportError:  # the chip has no typing module
    pass

from pegfw import ondemand
from pegfw.protocol import ProtocolError

JOB_SLICE = 8           # positions a job searches per loop pass (bench: a pass stays short on the chip)
JOB_LIMIT = 2400        # ... and in all before it answers that it gave up (bench: about 3 s on the chip)
DEFERRED = object()     # a handler's answer when a job will reply later
BUTTON = object()       # who asked, when it was the button (a request's id may be None)


class JobRunner:
    def __init__(self, app):
        self.app = app  # the job's answer is made from the game (job.reply(app)); errors are counted there
        self.link = app.link
        self.job = None  # type: Any  # the running job (pegfw.jobs.Job), or None
        self.rid = None  # the request to answer when it is done, or BUTTON

    def check_idle(self):
        """Raise busy while a job runs."""
        if self.job is not None:
            raise ProtocolError("busy", "the board is still thinking about the last request: wait for its answer")

    def call(self, name, *args):
        """pegfw.jobs.<name>(*args), with the code it loads kept for the job it starts (or dropped at
        once if it answered without one, from the opening book, or failed)."""
        self.check_idle()
        ondemand.begin("job")
        try:
            return getattr(ondemand.load("pegfw.jobs"), name)(*args)
        finally:
            if self.job is None:
                ondemand.end("job")

    def start(self, job, rid, asked_at):
        """Run `job` (advance(n) -> finished; nodes; reply(app) -> fields or raises ProtocolError;
        close()) a slice per pass; answer request `rid` (or BUTTON) when it is done."""
        job.asked_at = asked_at
        self.job, self.rid = job, rid
        return DEFERRED

    def run(self):
        """One slice of the running job; its answer when it finishes or gives up."""
        app, job, rid = self.app, self.job, self.rid
        try:
            finished = job.advance(JOB_SLICE)
            if not finished and job.nodes < JOB_LIMIT:
                return
            if finished:
                self._reply(rid, job.reply(app))
            else:
                self._fail(rid, "search_limit", "the board gave up after %d positions: solve it on the PC "
                           "(pegboard solve)" % job.nodes)
        except ProtocolError as e:
            self._fail(rid, e.code, e.message, e.extra)
        except MemoryError:
            self.end()  # drop the search first: the reply needs heap
            self._fail(rid, "no_memory", "the board is short of memory for this request: try again")
            return
        except Exception as e:  # a damaged file, a bug: the request still gets its one answer
            app.errors += 1
            self._fail(rid, "internal", "the board failed at this request: %s" % repr(e)[:80])
        self.end()

    def cancel(self, why):
        """The position changed (or stop): an answer for the old one would mislead."""
        if self.job is not None:
            rid = self.rid
            self.end()
            if why == "stopped":
                self._fail(rid, "stopped", "stopped before the board had its answer")
            else:
                self._fail(rid, "position_changed", "the pegs moved before the board had its answer: ask again")

    def end(self):
        if self.job is not None:
            try:
                self.job.close()
            except Exception:  # closing a file that failed: nothing more to do
                pass
        self.job = self.rid = None
        ondemand.end("job")
        gc.collect()  # the search's memo and stacks go back at once

    def _reply(self, rid, fields):
        if rid is not BUTTON:
            self.link.reply(rid, fields)

    def _fail(self, rid, code, message, extra=None):
        if rid is not BUTTON:
            self.link.error(rid, code, message, extra)
        else:  # the button asked: say it on the link as an event
            self.link.event("error", {"message": message, "code": code, "count": self.app.errors})
