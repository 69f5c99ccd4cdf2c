"""Faults the rest of the suite let through, each pinned by what a user of the link sees:

- the firmware's framing (pegfw.protocol, driven through the App on fake hardware): a line of
  exactly the documented size is served, JSON one level too deep is `bad_json` (not an internal
  error), a reply is never lost when events filled the output while the host was not reading, and
  an `id` that is a boolean is refused;
- the hub (pegboard.link.hub, its own loop in a thread, on a scripted board behind a
  pseudo-terminal, reached by programs over its socket as every pegboard program reaches it): a
  program's IN_FLIGHT-th request still goes to the board and the next one is `busy`, a request
  without an id is answered without one, a program holding the tap gets each board line once (as
  the tap), requests the board never answers stop counting after REPLY_S, and the last program to
  leave is told so only once the port is free for others;
- `pegboard deploy`: the drive it fills answers a reverse-game challenge from the ends table."""

import json
import os
import secrets
import select
import socket
import sys
import threading
import time

import pytest
from conftest import ROOT
from fakehw import HW, make_app, run

from pegcore.geometry import Board, start_mask
from pegcore.rules import apply, legal_jumps, popcount
from pegfw.protocol import MAX_DEPTH, MAX_LINE, OUT_LIMIT

B = Board(5)
DOCS = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


# -- the firmware's framing, through the App on fake hardware -------------------------------------

def game(hw=None):
    """An App in a game from a full board less hole 1, its start-up lines read."""
    hw, app = make_app(hw)
    hw.sensors.set(start_mask(Board(hw.cfg.rows), 1))
    run(app, hw, 200)
    hw.serial.lines()
    return hw, app


def answers(app, hw, line, ms=20):
    """The replies (not events) to the raw request `line` (bytes, without its newline)."""
    hw.serial.rx += line + b"\n"
    run(app, hw, ms)
    return [r for r in (json.loads(x) for x in hw.serial.lines()) if "event" not in r]


def padded(size):
    """An `info` request of exactly `size` bytes (its newline not counted)."""
    head = b'{"id": 1, "cmd": "info", "pad": "'
    line = head + b"x" * (size - len(head) - 2) + b'"}'
    assert len(line) == size
    return line


def test_a_request_of_exactly_the_documented_size_is_answered_and_one_byte_more_is_not():
    assert "at most **%d bytes**" % MAX_LINE in DOCS
    hw, app = game()
    (ok,) = answers(app, hw, padded(MAX_LINE))
    assert ok["id"] == 1 and ok["ok"] is True and ok["rows"] == 5, ok
    (too_long,) = answers(app, hw, padded(MAX_LINE + 1))
    assert too_long["error"] == "line_too_long" and "id" not in too_long


def nested(levels):
    """An `info` request whose JSON is `levels` deep (the object itself is the first level)."""
    inner = b"[" * (levels - 1) + b"1" + b"]" * (levels - 1)
    return b'{"id": 2, "cmd": "info", "deep": ' + inner + b"}"


def test_json_one_level_deeper_than_documented_is_bad_json_not_an_internal_error():
    assert "nested deeper than %d levels is refused (`bad_json`)" % MAX_DEPTH in DOCS
    hw, app = game()
    (ok,) = answers(app, hw, nested(MAX_DEPTH))
    assert ok["id"] == 2 and ok["ok"] is True, ok
    for levels in (MAX_DEPTH + 1, MAX_DEPTH + 5):
        (bad,) = answers(app, hw, nested(levels))
        assert bad["ok"] is False and bad["error"] == "bad_json", bad
        assert "deeper than %d" % MAX_DEPTH in bad["message"]
    assert app.errors == 0  # refused as the docs say, not a failure of the board's own code


@pytest.mark.parametrize("rid", [True, False])
def test_an_id_that_is_a_boolean_is_refused_and_not_echoed(rid):
    hw, app = game()
    (bad,) = answers(app, hw, json.dumps({"id": rid, "cmd": "info"}).encode())
    assert bad["ok"] is False and bad["error"] == "bad_args" and "id" not in bad, bad
    (ok,) = answers(app, hw, b'{"id": 0, "cmd": "info"}')  # 0 is an integer: fine
    assert ok["id"] == 0 and ok["ok"] is True


def test_a_reply_is_kept_when_events_filled_the_output_while_the_host_did_not_read():
    """docs/protocol.md: while the host does not read, events are dropped; replies never are. A
    `solve` on 21 holes answers many loop passes after it is asked; meanwhile the button's events
    fill what the board holds for the host, until they are dropped. Its reply must still come."""
    hw, app = game(HW({"PEGBOARD_ROWS": 6, "PEGBOARD_SENSORS": "shift", "PEGBOARD_SR_CLOCK": "GP2",
                       "PEGBOARD_SR_DATA": "GP3", "PEGBOARD_SR_LATCH": "GP4"}))
    hw.serial.room = 0  # the host stops reading
    hw.serial.rx += b'{"id": 1, "cmd": "solve", "finish": 1}\n'
    run(app, hw, 10)
    assert app.job is not None, "the solve is searching"
    dropped = app.link.dropped
    for _ in range(1000):
        if app.link.dropped > dropped:
            break
        hw.button.set(1)  # a press and its release: two events each
        hw.button.set(0)
        run(app, hw, 5)
    assert app.link.dropped > dropped and len(app.link.out) <= OUT_LIMIT, "events were dropped: the output is full"
    assert app.job is not None, "the solve was still searching when the output filled"
    for _ in range(10000):
        if app.job is None:
            break
        run(app, hw, 5)
    assert app.job is None, "the solve finished"
    hw.serial.room = 1 << 30  # the host reads again
    run(app, hw, 50)
    replies = [r for r in (json.loads(x) for x in hw.serial.lines()) if "event" not in r]
    assert [r["id"] for r in replies] == [1], replies
    assert replies[0]["ok"] is True and replies[0]["moves"][-1][2] == 1, replies[0]


# -- the hub, on a scripted board behind a pseudo-terminal ----------------------------------------

hubs = pytest.mark.skipif(sys.platform == "win32", reason="the scripted board needs a pseudo-terminal")


class PtyBoard(threading.Thread):
    """A board on a pseudo-terminal that answers each request at once ({"id", "ok", "cmd"}, the id
    as it came) except `hold`, which it keeps unanswered until `answer_held`. `got`: every request
    it read, in order."""

    def __init__(self):
        from pegboard.sim.ptys import raw_pty

        super().__init__(daemon=True)
        self.master, self.slave, self.path = raw_pty()
        self.got = []
        self.held = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def say(self, obj):
        data = json.dumps(obj).encode() + b"\n"
        with self.lock:
            while data:
                try:
                    data = data[os.write(self.master, data):]
                except BlockingIOError:
                    select.select([], [self.master], [], 1)

    def reply_to(self, req):
        self.say(dict({"id": req["id"]} if "id" in req else {}, ok=True, cmd=req.get("cmd")))

    def answer_held(self, n):
        """Answer the first `n` held requests."""
        with self.lock:
            now, self.held = self.held[:n], self.held[n:]
        for req in now:
            self.reply_to(req)

    def run(self):
        from pegboard.link.serial_link import LineCutter

        cut = LineCutter()
        while not self.stopping.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            for line in cut.feed(data):
                req = json.loads(line)
                with self.lock:
                    self.got.append(req)
                    if req.get("cmd") == "hold":
                        self.held.append(req)
                        continue
                self.reply_to(req)

    def close(self):
        from pegboard.sim.ptys import close_fds

        self.stopping.set()
        self.join(5)
        close_fds(self.master, self.slave)


class Program:
    """A program attached to the hub over its socket, as pegboard.link.hub_link attaches."""

    def __init__(self, hub, name, tap=False):
        from pegboard.link.serial_link import LineCutter

        self.sock = socket.create_connection(hub.address, timeout=10)
        self.cut = LineCutter()
        self.lines = []  # what came and was not taken yet
        self.sock.sendall(json.dumps({"key": hub.key, "name": name, "tap": tap}).encode() + b"\n")
        self.until(lambda o: o.get("hub") == "welcome", "the welcome")

    def send(self, *objs):
        self.sock.sendall(b"".join(json.dumps(o).encode() + b"\n" for o in objs))

    def until(self, match, what, timeout=10.0):
        """The lines that came up to and including the first that matches, taken; fails after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            for i, obj in enumerate(self.lines):
                if match(obj):
                    got, self.lines = self.lines[:i + 1], self.lines[i + 1:]
                    return got
            left = deadline - time.monotonic()
            assert left > 0, "timed out after %.0f s waiting for %s; got %r" % (timeout, what, self.lines)
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            assert data, "the hub closed the connection before %s; got %r" % (what, self.lines)
            self.lines += [json.loads(line) for line in self.cut.feed(data)]

    def reply(self, rid, what="the reply"):
        return self.until(lambda o: "event" not in o and not isinstance(o.get("hub"), str) and o.get("id") == rid,
                          what)[-1]

    def close(self):
        self.sock.close()


@pytest.fixture
def rig(runtime_env):
    """(hub, board): a hub serving a scripted board on a pseudo-terminal, its loop in a thread."""
    from pegboard.link import hub as hubmod
    from pegboard.link.serial_link import SerialLink

    board = PtyBoard()
    board.start()
    hub = hubmod.Hub(SerialLink(board.path).open(), secrets.token_hex(8))
    loop = threading.Thread(target=hub.serve, args=(board.path,), daemon=True)
    loop.start()
    try:
        yield hub, board
    finally:
        hub.stopping = True
        loop.join(10)
        board.close()


def board_got(board, n, what):
    from support import until

    return until(lambda: len(board.got) >= n and list(board.got), 10, what)


@hubs
def test_a_program_has_exactly_in_flight_requests_on_their_way_and_the_next_is_busy(rig):
    from pegboard.link.hub import IN_FLIGHT

    hub, board = rig
    p = Program(hub, "many")
    p.send(*({"id": i, "cmd": "hold"} for i in range(IN_FLIGHT + 1)))
    busy = p.reply(IN_FLIGHT, "the busy answer to the request past IN_FLIGHT")
    assert busy["ok"] is False and busy["error"] == "busy" and busy.get("hub") is True, busy
    got = board_got(board, IN_FLIGHT, "the requests in flight to reach the board")
    assert len(got) == IN_FLIGHT, "exactly IN_FLIGHT went to the board"
    board.answer_held(1)  # one answered: room for one more
    assert p.reply(0)["ok"] is True
    p.send({"id": "next", "cmd": "info"})
    assert p.reply("next")["ok"] is True, "the board answered it: it was not refused busy"
    p.close()


@hubs
def test_a_request_without_an_id_is_answered_without_one_as_the_board_answers_it(rig):
    hub, board = rig
    p = Program(hub, "plain")
    p.send({"cmd": "info"})
    (reply,) = p.until(lambda o: "event" not in o and "hub" not in o, "the reply")
    assert reply["ok"] is True and reply["cmd"] == "info" and "id" not in reply, reply
    assert isinstance(board.got[-1].get("id"), str), "the board saw the hub's own id"
    p.send({"id": 7, "cmd": "info"})  # an id of the program's own comes back
    assert p.reply(7)["cmd"] == "info"
    p.close()


@hubs
def test_a_program_holding_the_tap_gets_each_board_line_once_as_the_tap(rig):
    hub, board = rig
    plain = Program(hub, "plain")
    monitor = Program(hub, "monitor", tap=True)
    event = {"event": "lift", "seq": 1, "hole": 3}
    board.say(event)
    assert plain.until(lambda o: "event" in o, "the event")[-1] == event
    monitor.send({"id": "after", "cmd": "info"})  # what comes before its reply came before the event's end
    seen = monitor.until(lambda o: o.get("id") == "after" and "event" not in o, "the monitor's reply")
    assert [o for o in seen if "event" in o] == [], "the board's line came raw as well as tapped"
    taps = [o for o in seen if o.get("hub") == "tap" and o["dir"] == "<" and o["who"] == "all"]
    assert [json.loads(o["line"]) for o in taps] == [event]
    plain.close()
    monitor.close()


@hubs
def test_requests_the_board_never_answers_stop_counting_after_reply_s(rig, monkeypatch):
    from pegboard.link import hub as hubmod
    from support import until

    monkeypatch.setattr(hubmod, "REPLY_S", 1.0)
    hub, board = rig
    p = Program(hub, "patient")
    p.send(*[{"id": i, "cmd": "hold"} for i in range(hubmod.IN_FLIGHT)], {"id": "early", "cmd": "info"})
    assert p.reply("early")["error"] == "busy", "busy while the board has them all"
    board_got(board, hubmod.IN_FLIGHT, "the requests to reach the board")
    tries = iter(range(1 << 30))

    def served():
        rid = "try-%d" % next(tries)
        p.send({"id": rid, "cmd": "info"})
        reply = p.reply(rid)
        return reply["ok"] and reply.get("cmd") == "info"

    until(served, 10 * hubmod.REPLY_S + 5, "the unanswered requests to expire", every=0.1)
    p.close()


@hubs
def test_the_last_program_to_leave_is_told_once_the_port_is_free_for_others(rig):
    from pegboard.link.errors import NoBoard
    from pegboard.link.serial_link import SerialLink

    hub, board = rig
    first, last = Program(hub, "first"), Program(hub, "last")
    first.send({"hub": "bye"})
    assert first.until(lambda o: "hub" in o, "the hub's answer")[-1] == {"hub": "bye"}
    with pytest.raises(NoBoard):  # the other program still uses the board: the hub holds its port
        SerialLink(board.path).open().close()
    last.send({"hub": "bye"})
    assert last.until(lambda o: "hub" in o, "the hub's answer")[-1] == {"hub": "released"}
    SerialLink(board.path).open().close()  # at once, no wait: free when the program was told
    first.close()
    last.close()


# -- pegboard deploy --------------------------------------------------------------------------------

def most_pegs_at_a_dead_end(board, mask, memo=None):
    """The most pegs any line of play from `mask` can leave with no jump left."""
    memo = {} if memo is None else memo
    if mask not in memo:
        jumps = legal_jumps(board, mask)
        memo[mask] = max((most_pegs_at_a_dead_end(board, apply(board, mask, j), memo) for j in jumps),
                         default=popcount(mask))
    return memo[mask]


def test_a_deployed_drive_answers_the_reverse_game_from_its_ends_table(capsys, tmp_path):
    from test_deploy import deploy, fresh_drive

    from pegboard.link.client import BoardClient
    from pegboard.sim.simulator import Simulator

    d = fresh_drive(tmp_path)
    assert deploy(capsys, "--drive", str(d), "--no-restart", "--py")[0] == 0
    with Simulator(firmware=d) as sim, BoardClient(sim.data_path) as c:
        sim.control("fill", empty=4)
        sim.control("wait_idle")
        r = c.request("challenge", target="most")
        assert r["challenge"] == "most:%d" % most_pegs_at_a_dead_end(B, start_mask(B, 4)), r
        assert r["reachable"] is True
        h = c.request("hint")
        assert h["challenge"] == r["challenge"] and h["reachable"] is True and h["move"], h


# -- the hub's writer thread (pegboard.link.board_writer), on a stand-in port ---------------------

class FlakyPort:
    """A SerialLink's face to BoardWriter: its writes fail as scripted (NoBoard codes), the hub's
    loop reopening it (`reopen`) as the real loop does."""

    def __init__(self, failures):
        from pegboard.link.errors import NoBoard

        self.NoBoard = NoBoard
        self.failures = list(failures)
        self.written = []
        self.reconnects = 1
        self.is_open = True
        self.reconnect_for = 30.0  # the writer waits this long for the hub's loop to reopen it
        self.tried = threading.Event()
        self.wrote = threading.Event()

    def write(self, data, reconnect=True):
        assert reconnect is False  # the writer never reopens the port: the hub's loop does
        self.tried.set()
        if self.failures:
            code = self.failures.pop(0)
            self.is_open = False
            raise self.NoBoard("the port failed", code)
        self.written.append(data)
        self.wrote.set()

    def reopen(self):
        self.is_open = True
        self.reconnects += 1


def _writer(port):
    from pegboard.link.board_writer import BoardWriter

    w = BoardWriter(port)
    w.start()
    return w


def test_a_line_that_met_a_failed_port_goes_out_once_on_the_port_that_comes_back():
    port = FlakyPort(["gone"])
    w = _writer(port)
    w.put(b'{"id": 1, "cmd": "state"}\n')
    assert port.tried.wait(10)
    port.reopen()  # the hub's loop has the board back
    assert port.wrote.wait(60), "the line never went out on the port that came back"
    w.close()
    w.join(60)  # the thread takes the written line off its queue before it sees the close
    assert not w.is_alive()
    assert port.written == [b'{"id": 1, "cmd": "state"}\n'] and w.failure is None and w.queued() == 0


def test_a_board_that_takes_nothing_for_the_write_timeout_is_reported_gone_and_its_queue_dropped():
    port = FlakyPort(["write_timeout"])
    w = _writer(port)
    w.put(b"a\n")
    w.put(b"b\n")
    w.join(10)  # the thread ends with its failure: the hub reports the board gone
    assert not w.is_alive() and w.failure is not None and w.failure.code == "write_timeout"
    assert w.queued() == 0 and port.written == []
    w.put(b"c\n")  # nothing queued after the failure
    assert w.queued() == 0


def test_the_writer_never_keeps_a_program_from_exiting():
    from pegboard.link.board_writer import BoardWriter

    # a board that never takes a byte leaves the thread in its write: the program still ends
    assert BoardWriter(FlakyPort([])).daemon
