"""Requests from the host, a few per loop pass: each line gets exactly one reply (or error), and a
burst never holds the loop past the watchdog. Which module answers which command is
pegfw.commands.COMMANDS; a rare command's code is loaded for its request alone (pegfw.ondemand)."""

import gc

from pegfw import commands, ondemand
from pegfw.commands import COMMANDS, DEFERRED, EVERYDAY, GAME, POSITION, Slices
from pegfw.protocol import ProtocolError, parse_request

try:
    from typing import Any  # noqa: F401 (type comments)
except ImportError:  # the chip has no typing module
    pass

REQUESTS_PER_PASS = 8   # everyday requests answered in one loop pass at most (a rare one ends the pass)


class Dispatcher:
    def __init__(self, app):
        self.app = app
        self.link = app.link
        self.pending = []  # lines read but not yet answered
        self.working = None  # type: Any  # (id, steps, rare): a request answered a slice a pass (commands.Slices)

    def serve(self, now):
        """Answer what the host sent, a few a pass. Flow control: lines are taken only while their
        replies have room to wait in; the rest stay queued (here or in the USB buffer) until the
        host reads. On the chip a rare request compiles its code: one of those ends the pass."""
        link = self.link
        if self.working is not None:
            self._work()  # one slice this pass; the lines after it wait their turn
            return
        if not self.pending and link.has_room():
            self.pending = link.read_lines()
        budget = REQUESTS_PER_PASS
        while budget > 0 and self.pending and link.has_room() and self.working is None:
            rare = self.answer_line(self.pending.pop(0), now)
            budget = 0 if rare else budget - 1

    def _work(self):
        """The next slice of the request under way; its reply once the last is done."""
        rid, steps, rare = self.working
        fields = None
        try:
            fields = next(steps)
            if fields is None:
                return  # more to do next pass
        except StopIteration:
            fields = {}
        except ProtocolError as e:
            self.link.error(rid, e.code, e.message, e.extra)
        except MemoryError:
            gc.collect()
            self.link.error(rid, "no_memory", "the board is short of memory for this request: try again")
        except Exception as e:  # whatever went wrong, the request gets its one reply
            self.app.errors += 1
            self.link.error(rid, "internal", "the board could not answer: %s" % repr(e)[:80])
        self.working = None
        if rare:
            ondemand.end("request")  # its code goes now (it stayed for the slices)
        if fields is not None:
            self.link.reply(rid, fields)

    def answer_line(self, line, now):
        """Reply to one line (None: a line too long to keep). True if its command was a rare one."""
        link = self.link
        if line is None:
            link.error(None, "line_too_long", "requests are at most 512 bytes; the line was discarded")
            return False
        if not line.strip():
            return False  # a blank line (a human pressing Enter) asks nothing
        try:
            rid, cmd, req = parse_request(line)
        except ProtocolError as e:
            link.error(e.rid, e.code, e.message)
            return False
        except Exception as e:  # a bug in reading it: the line still gets its one reply
            self.app.errors += 1
            link.error(None, "internal", "the board could not read this line: %s" % repr(e)[:80])
            return False
        module = COMMANDS.get(cmd)
        if module is None:
            link.error(rid, "unknown_cmd", "unknown command %r" % cmd[:40])
            return False
        if self.app.starting and (cmd == "hint" or module == GAME or module == POSITION):
            link.error(rid, "busy", "the board is starting: it has not read the pegs yet")
            return False  # about pegs not read yet: a hint for an empty board, a game from none
        rare = module != EVERYDAY
        try:
            self._answer(rid, module, cmd, req, now, rare)
        except Exception as e:  # whatever went wrong, the line gets its one reply
            self.app.errors += 1
            link.error(rid, "internal", "the board could not answer: %s" % repr(e)[:80])
        return rare

    def _answer(self, rid, module, cmd, req, now, rare):
        link, app = self.link, self.app
        job_before = app.job
        if rare:
            ondemand.begin("request")  # the handler's code, and what it imports, leave after the reply
        try:
            code = ondemand.load(module) if rare else commands  # the everyday ones are in memory
            fields = getattr(code, "cmd_" + cmd)(app, rid, req, now)
            if isinstance(fields, Slices):
                self.working = (rid, fields.steps, rare)
                return  # answered by _work, a slice a pass; its code stays until then
        except ProtocolError as e:
            link.error(rid, e.code, e.message, e.extra)
            return
        except MemoryError:
            if app.job is not job_before:
                app.end_job()  # this request's job never answered: what it allocated goes too
            gc.collect()
            link.error(rid, "no_memory", "the board is short of memory for this request: try again")
            return
        finally:
            if rare and self.working is None:  # (a sliced one's code stays for its slices: _work ends it)
                ondemand.end("request")
        if fields is not DEFERRED:
            link.reply(rid, fields or {})
