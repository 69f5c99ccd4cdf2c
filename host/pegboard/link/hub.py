"""A board's hub: the one process that holds a board's serial port while any `pegboard` program
uses it, so that many programs share one board (`python -m pegboard.link.hub PORT`, started by
the first program that opens the board: pegboard.link.hub_link).

Programs reach it on a local socket (127.0.0.1, a port of the system's choosing, on every system)
after a hello that carries the key from the hub's runtime file: a file in the user's own folder
(pegboard.link.runtime_file), so no other user's program gets in.

Lines are the board's protocol lines. The hub
  - gives every request an id of its own before it goes to the board and puts the asker's id back
    on the reply, which goes to the asker alone: two programs may both use id 1, and no program
    can take another's reply;
  - answers itself, with the asker's id, a request the board would refuse before it could read
    its id (over 512 bytes as the hub sends it, JSON nested deeper than 8 levels); a reply that
    comes without an id all the same answers the oldest line the board has not answered yet;
  - sends every event (and anything else the board says) to every program;
  - sends `{"hub": ...}` lines of its own: "welcome" after the hello, "lost"/"back" when the
    cable is pulled and the board is back, "gone" when it did not come back, "dropped" to a
    program it drops, and, to a program that asked for the tap (`pegboard monitor`), "tap" for
    every line that passes, both ways, with who sent it;
  - never waits for a program: what a program has not read is kept up to BACKLOG bytes; past
    that the program is dropped with a message, and the board and the others go on;
  - never waits for the board either: its writes go out from a thread of their own
    (pegboard.link.board_writer) while this loop reads the board all the while, and each program
    has at most IN_FLIGHT requests on their way to the board: past that it is answered `busy` at
    once (a flood slows its sender, never the others); a program that breaks a rule (a bad
    hello, too much unread) is dropped alone, and nothing a program sends can end the hub;
  - ends (and frees the port) when the last program leaves, or when the board is gone."""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import selectors
import signal
import socket
import sys
import time
from collections import OrderedDict, deque
from typing import Any

from pegboard.link import runtime_file
from pegboard.link.board_writer import BoardWriter
from pegboard.link.errors import NoBoard
from pegboard.link.hub_link import HUB_LOG_MAX
from pegboard.link.serial_link import LineCutter, SerialLink
from pegboard.safe_text import printable

BACKLOG = int(os.environ.get("PEGBOARD_HUB_BACKLOG", 256 * 1024))  # bytes a program may leave unread
FIRST_CLIENT_S = 10.0   # a hub nobody reaches this long after it started (its starter died) ends
HELLO_S = 3.0           # a connection that has not said hello this long is closed
LINE_MAX = 64 * 1024    # a program's line longer than this is cut (the board takes 512 bytes)
BOARD_LINE_MAX = 512    # the board's longest request line (UTF-8 bytes): longer ones the hub refuses
BOARD_DEPTH_MAX = 8     # the board refuses deeper JSON before parsing it (so without its id): the hub does
PENDING_MAX = 1000      # requests awaiting a reply; the oldest are forgotten past this
IN_FLIGHT = 32          # a program's requests on their way to the board; more are answered `busy`
REPLY_S = 60.0          # a request the board has not answered this long no longer counts as in flight
HELLO_SHOWN = 200       # characters of a refused hello the log keeps (a stranger's text)
POLL_S = 0.005          # how often the port is read when it cannot be waited on (Windows)
WAIT_S = 0.1            # the longest wait when it can: its bytes wake the hub at once


def read_json(line: bytes) -> Any:
    """The line's JSON, or None when it is none (Python's parser recurses: 1,000 `[` are none too)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def shape_refusal(obj: dict[str, Any]) -> str | None:
    """Why the board would refuse `obj` before reading its id, else None: nested deeper than it
    parses, or a NaN or Infinity (Python's json writes them; the board's json reads no such thing).
    Level by level, no recursion."""
    level: list[Any] = [obj]
    depth = 1
    while level:
        if depth > BOARD_DEPTH_MAX:
            return "JSON nested deeper than %d levels" % BOARD_DEPTH_MAX
        inner: list[Any] = []
        for container in level:
            for item in container.values() if isinstance(container, dict) else container:
                if isinstance(item, (dict, list)):
                    inner.append(item)
                elif isinstance(item, float) and not math.isfinite(item):
                    return "NaN and Infinity are not JSON"
        level, depth = inner, depth + 1
    return None


def board_line(obj: dict[str, Any]) -> bytes:
    """`obj` as it goes to the board: compact, its text as UTF-8 (escaped, an é would take 6 bytes
    for its 2 and lengthen the line past what its sender counted)."""
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"): only its escape can carry it
        return json.dumps(obj, separators=(",", ":")).encode()


def numbered(obj: dict[str, Any], hub_id: str) -> bytes:
    """A program's request as it goes to the board, under the hub's id, put first: a line such as
    `{"id":"h1f","cmd":"hint"}` the board reads without scanning it byte by byte
    (pegfw.protocol._as_sent), so a page's hint is as quick as the link's."""
    return board_line({"id": hub_id, **{k: v for k, v in obj.items() if k != "id"}})


def board_refusal(line: bytes, out: bytes, obj: Any) -> tuple[str, str] | None:
    """The error the board would answer `out` (what the hub would send for the program's `line`)
    with no id, having read none, and its message; None when the board can read its id."""
    if len(line) > BOARD_LINE_MAX or len(out) > BOARD_LINE_MAX:
        return "line_too_long", ("requests are at most %d bytes (UTF-8, compact, with the hub's id in place "
                                 "of yours)" % BOARD_LINE_MAX)
    why = shape_refusal(obj) if isinstance(obj, dict) else None
    return ("bad_json", "the line is not valid JSON: " + why) if why else None


def line_number(hub_id: str) -> int:
    """Which line to the board a request of the hub's id ("h%x") was."""
    return int(hub_id[1:], 16)


def shown_hello(line: bytes) -> str:
    """A refused hello as the log shows it: escaped and cut (a stranger may send 64 KB of it)."""
    text = printable(line.decode("utf-8", "replace"))
    if len(text) > HELLO_SHOWN:
        return "%s... (cut: %d characters in all)" % (text[:HELLO_SHOWN], len(text))
    return text


class HubLog:
    """The hub's log: its stderr, which hub_link opened on `path` (hub.log) for appending. Another
    user's connections write to it (a refused hello, a failure on what one sent), so it is kept
    under `limit` bytes while the hub runs: at the limit its text moves to `path`.1 (replacing the
    one before) and it starts again, empty. Without a path (a hub started by hand) it is stderr."""

    def __init__(self, path: str | None = None, limit: int = HUB_LOG_MAX) -> None:
        self.path = path
        self.limit = limit

    def write(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)
        if self.path is not None:
            self.keep_small(self.path)

    def keep_small(self, path: str) -> None:
        try:
            if os.fstat(2).st_size < self.limit:
                return
            with open(path, "rb") as f:
                text = f.read()
            fd = os.open(path + ".1", os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with open(fd, "wb") as f:
                f.write(text)
            os.ftruncate(2, 0)  # opened for appending: the next line starts the file again
        except OSError:
            pass  # a log that cannot be kept small is still no reason to stop serving the board


log = HubLog()


class Client:
    def __init__(self, sock: socket.socket, number: int) -> None:
        self.sock = sock
        self.number = number
        self.name = "connection %d" % number
        self.pid: int | None = None
        self.tap = False
        self.ready = False  # has said hello with the right key
        self.since = time.monotonic()
        self.cutter = LineCutter(LINE_MAX)
        self.out = bytearray()
        self.in_flight = 0  # requests sent to the board and not answered yet
        self.busy = 0       # requests answered `busy` (counted for the hub's log)
        self.closed = False
        self.dropping = False  # dropped: its message goes out as the program reads, then it is closed

    def who(self) -> str:
        return "%s (pid %s)" % (self.name, self.pid) if self.pid else self.name


class Hub:
    def __init__(self, link: SerialLink, key: str) -> None:
        self.link = link
        self.key = key
        self.sel = selectors.DefaultSelector()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.listener.setblocking(False)
        self.sel.register(self.listener, selectors.EVENT_READ)
        self.address = self.listener.getsockname()
        self.clients: list[Client] = []
        self.numbers = 0
        self.ever_connected = False
        self.started = time.monotonic()
        # hub id -> asker, its id, whether it gave one, when it was sent
        self.pending: OrderedDict[str, tuple[Client, Any, bool, float]] = OrderedDict()
        # askers of lines the board answers without an id (None: gone), with each line's number
        self.unnumbered: deque[tuple[Client | None, int]] = deque()
        self.writer = BoardWriter(link)
        self.ids = 0  # lines sent to the board, numbered or not: "h%x" % ids is a numbered one's id
        self.board_read = 0  # the newest line the board answered by its id: it has read those before too
        self.board_lines = LineCutter()
        self.announced: Any = None
        self.announced_name = str(link.connected_to)
        self.stopping = False
        self.gone: str | None = None
        self.board_fd: int | None = None  # the port's descriptor as registered in `sel`
        link.on_lost = lambda: self.broadcast_hub({"hub": "lost"})
        link.on_back = self.back

    def back(self) -> None:
        """The port is open again: a fresh board link, on which no earlier request will be answered."""
        self.pending.clear()
        self.unnumbered.clear()
        self.board_read = self.ids
        for c in self.clients:
            c.in_flight = 0
        self.broadcast_hub({"hub": "back", "port": self.link.connected_to})

    # -- the runtime file ------------------------------------------------------------------------
    def announce(self, name: str) -> None:
        real = os.path.realpath(name) if os.path.exists(name) else name
        self.announced = runtime_file.write(name, None, kind="hub", address=list(self.address), key=self.key,
                                            real=real, open=self.link.connected_to,
                                            users=[c.who() for c in self.clients if c.ready])

    # -- programs --------------------------------------------------------------------------------
    def accept(self) -> None:
        try:
            sock, _ = self.listener.accept()
        except OSError:
            return
        sock.setblocking(False)
        self.numbers += 1
        client = Client(sock, self.numbers)
        self.clients.append(client)
        self.sel.register(sock, selectors.EVENT_READ, client)

    def drop(self, client: Client, why: str | None = None) -> None:
        """Close a program's connection; with `why`, first tell it (it gets what the kernel holds
        for it already, then the message: what the hub held for it is lost anyway)."""
        if client.closed:
            return
        was_user = client.ready
        if why and not client.dropping:
            client.ready = False
            client.dropping = True
            client.since = time.monotonic()
            client.out = bytearray(b"\n" + json.dumps({"hub": "dropped", "message": why}).encode() + b"\n")
            log.write("pegboard hub: dropped %s: %s" % (printable(client.who()), why))
            self.flush(client)
        else:
            client.closed = True
            try:
                self.sel.unregister(client.sock)
            except (KeyError, ValueError):
                pass
            client.sock.close()
            self.clients.remove(client)
        if any(c is client for c, _ in self.unnumbered):
            # its answers still come, in order: they go to nobody (the queue keeps its place)
            self.unnumbered = deque((None if c is client else c, n) for c, n in self.unnumbered)
        if was_user:
            self.announce(self.announced_name)

    def send(self, client: Client, data: bytes) -> None:
        if client.closed or client.dropping:
            return
        if len(client.out) + len(data) > BACKLOG:
            self.drop(client, "it left over %d KB of the board's lines unread; the board does not wait for "
                              "a program (reconnect to go on)" % (BACKLOG // 1024))
            return
        client.out += data
        self.flush(client)

    def flush(self, client: Client) -> None:
        if not client.out or client.closed:
            return
        try:
            n = client.sock.send(client.out)
        except BlockingIOError:
            n = 0
        except OSError:
            self.drop(client)
            return
        del client.out[:n]
        if client.dropping and not client.out:
            self.drop(client)  # its message is out: close
            return
        self.sel.modify(client.sock, selectors.EVENT_READ | (selectors.EVENT_WRITE if client.out else 0), client)

    def send_obj(self, client: Client, obj: dict[str, Any]) -> None:
        self.send(client, json.dumps(obj).encode() + b"\n")

    def broadcast_hub(self, obj: dict[str, Any]) -> None:
        for c in list(self.clients):
            if c.ready:
                self.send_obj(c, obj)

    def tap(self, arrow: str, line: bytes, who: str) -> None:
        text = line.decode("utf-8", "replace")
        for c in list(self.clients):
            if c.ready and c.tap:
                self.send_obj(c, {"hub": "tap", "dir": arrow, "who": who, "line": text})

    def readable(self, client: Client) -> None:
        """What a program sent. Nothing in it may end the hub: a failure here drops that program alone."""
        try:
            self.take(client)
        except Exception as e:  # noqa: BLE001 - a bug met by one program's input must not end the others' board
            import traceback

            log.write(traceback.format_exc().rstrip())
            self.drop(client, "the hub failed on what it sent (%s: %s); reconnect to go on" % (type(e).__name__, e))

    def take(self, client: Client) -> None:
        try:
            data = client.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.drop(client)
            return
        if client.dropping:
            return  # what a dropped program still says goes nowhere
        for line in client.cutter.feed(data):
            if client.closed:
                return
            if not client.ready:
                self.hello(client, line)
            elif line.startswith(b'{"hub": "bye"}'):
                self.bye(client)
            else:
                self.request(client, line.strip())

    def hello(self, client: Client, line: bytes) -> None:
        obj = read_json(line)
        key = obj.get("key") if isinstance(obj, dict) else None
        # compared as bytes: compare_digest raises TypeError for a str that is not ASCII ({"key": "é"}),
        # and a hello is a stranger's input, which may drop that client and nothing else
        if not isinstance(key, str) or not secrets.compare_digest(key.encode("utf-8", "replace"),
                                                                 self.key.encode("utf-8")):
            log.write("pegboard hub: refused %s: a hello without the key: %s" % (client.who(), shown_hello(line)))
            self.drop(client)
            return
        client.ready = True
        client.tap = bool(obj.get("tap"))
        client.name = str(obj.get("name") or client.name)[:80]
        client.pid = obj.get("pid") if isinstance(obj.get("pid"), int) else None
        self.ever_connected = True
        self.send_obj(client, {"hub": "welcome", "port": self.link.connected_to, "pid": os.getpid(),
                               "users": [c.who() for c in self.clients if c.ready]})
        self.announce(self.announced_name)

    def bye(self, client: Client) -> None:
        """A program leaves. If it was the last, the port is freed before it is told so: when its
        command ends, another program (not a pegboard one) can open the port at once."""
        client.ready = False
        if not any(c.ready for c in self.clients):
            self.link.close()
            self.stopping = True
            self.send_obj_anyway(client, {"hub": "released"})
        else:
            self.send_obj_anyway(client, {"hub": "bye"})
        self.announce(self.announced_name)

    def send_obj_anyway(self, client: Client, obj: dict[str, Any]) -> None:
        client.out += json.dumps(obj).encode() + b"\n"
        self.flush(client)

    # -- lines both ways -------------------------------------------------------------------------
    def request(self, client: Client, line: bytes) -> None:
        """A program's line to the board, with an id of the hub's own when it has one to carry;
        answered by the hub itself when the board could not read that id (board_refusal), or
        `busy` when the program has IN_FLIGHT requests on their way already."""
        obj = read_json(line)
        hub_id = "h%x" % (self.ids + 1)
        # not a JSON object (a word typed by hand, noise): the board answers it without an id, in
        # order, and the askers queue for those answers
        out = numbered(obj, hub_id) if isinstance(obj, dict) else line
        refused = board_refusal(line, out, obj)
        if refused is not None:
            self.answer_here(client, line, obj, *refused)
            return
        if client.in_flight >= IN_FLIGHT:
            self.refuse_busy(client, line, obj)
            return
        self.ids += 1
        if isinstance(obj, dict):
            self.pending[hub_id] = (client, obj.get("id"), "id" in obj, time.monotonic())
            while len(self.pending) > PENDING_MAX:
                self.forget(self.pending.popitem(last=False)[1][0])
        else:
            self.unnumbered.append((client, self.ids))
        client.in_flight += 1
        self.tap(">", line, client.who())
        self.writer.put(out + b"\n")

    def refuse_busy(self, client: Client, line: bytes, obj: Any) -> None:
        client.busy += 1
        self.answer_here(client, line, obj, "busy", "this program has %d requests waiting for the board's "
                                                    "answers: wait for one before asking more" % client.in_flight)

    def answer_here(self, client: Client, line: bytes, obj: Any, error: str, message: str) -> None:
        """Answer a program's line in the hub, under its id; the board never hears of it."""
        reply: dict[str, Any] = {"ok": False, "error": error, "hub": True, "message": message}
        if isinstance(obj, dict) and "id" in obj:
            reply = dict({"id": obj["id"]}, **reply)
        self.tap(">", line, client.who())
        out = json.dumps(reply).encode()
        self.tap("<", out, client.who())
        self.send(client, out + b"\n")

    @staticmethod
    def forget(client: Client | None) -> None:
        """One of `client`'s requests is answered, or will not be: it is no longer in flight."""
        if client is not None and client.in_flight > 0:
            client.in_flight -= 1

    def expire(self, now: float) -> None:
        """Requests the board never answered (it restarted, or lost them) stop counting against their
        programs after REPLY_S; a late answer then goes to nobody."""
        while self.pending:
            hub_id, (client, _, _, sent) = next(iter(self.pending.items()))
            if now - sent < REPLY_S:
                return
            del self.pending[hub_id]
            self.forget(client)

    def from_board(self, line: bytes) -> None:
        obj = read_json(line)
        if isinstance(obj, dict) and "event" not in obj and ("id" in obj or "ok" in obj):
            if obj.get("id") is None:
                self.answer_without_id(line, obj)
                return
            asked = self.pending.pop(obj["id"], None) if isinstance(obj["id"], str) else None
            if asked is None:
                return  # a late answer to a request from before this hub, or of a program gone
            self.board_read = max(self.board_read, line_number(obj["id"]))
            self.reply_to(asked, obj)
            return
        self.tap("<", line, "all")
        for c in list(self.clients):
            if c.ready and not c.tap:
                self.send(c, line + b"\n")

    def reply_to(self, asked: tuple[Client, Any, bool, float], obj: dict[str, Any]) -> None:
        asker, their_id, had_id, _ = asked
        self.forget(asker)
        if had_id:
            obj["id"] = their_id
        else:
            obj.pop("id", None)
        out = json.dumps(obj).encode()
        self.tap("<", out, asker.who())
        self.send(asker, out + b"\n")

    def answer_without_id(self, line: bytes, obj: dict[str, Any]) -> None:
        """A reply without an id answers the oldest line the board has not answered yet (it answers
        in order; a request it answered later than one sent after it, a job, has been read): a line
        sent as it came, or a request whose id the board could not read (the hub's checks missed
        why). That line's asker gets it, and has one request fewer in flight, at once."""
        queued = self.unnumbered[0][1] if self.unnumbered else None
        numbered = next((h for h in self.pending if line_number(h) > self.board_read), None)
        if numbered is not None and (queued is None or line_number(numbered) < queued):
            self.board_read = line_number(numbered)
            self.reply_to(self.pending.pop(numbered), obj)
            return
        if queued is None:
            return  # a late answer to a line from before this hub
        waiting, _ = self.unnumbered.popleft()
        self.board_read = max(self.board_read, queued)
        self.forget(waiting)
        if waiting is not None:
            self.tap("<", line, waiting.who())
            self.send(waiting, line + b"\n")

    def board_gone(self, why: str) -> None:
        self.gone = why
        self.broadcast_hub({"hub": "gone", "message": why})
        for c in list(self.clients):
            self.flush(c)
        self.stopping = True

    # -- the loop --------------------------------------------------------------------------------
    def serve(self, name: str) -> None:
        self.announced_name = name
        self.announce(name)
        self.writer.start()
        try:
            while not self.stopping:
                self.watch_port()
                for k, ev in self.sel.select(WAIT_S if self.board_fd is not None else POLL_S):
                    if k.fileobj is self.listener:
                        self.accept()
                        continue
                    if k.data is None:
                        continue  # the port: read below, every pass
                    if ev & selectors.EVENT_READ:
                        self.readable(k.data)
                    if ev & selectors.EVENT_WRITE:
                        self.flush(k.data)
                if self.stopping:
                    break  # the port may be closed already: reading would open it again
                if self.writer.failure is not None:
                    self.board_gone(str(self.writer.failure))
                    break
                try:
                    data = self.link.read()
                except NoBoard as e:
                    self.board_gone(str(e))
                    break
                for line in self.board_lines.feed(data):
                    self.from_board(line.strip())
                now = time.monotonic()
                self.expire(now)
                for c in list(self.clients):
                    if not c.ready and now - c.since > HELLO_S:
                        self.drop(c)  # never said hello, or dropped and not reading its message
                ready = [c for c in self.clients if c.ready]
                if self.ever_connected and not ready:
                    break  # the last program left: free the port
                if not self.ever_connected and now - self.started > FIRST_CLIENT_S:
                    break
        finally:
            self.close()

    def watch_port(self) -> None:
        """Wait on the port's descriptor where there is one (it changes after a reconnect)."""
        fd = self.link.fileno()
        if fd == self.board_fd:
            return
        if self.board_fd is not None:
            try:
                self.sel.unregister(self.board_fd)
            except (KeyError, ValueError, OSError):
                pass
        self.board_fd = None
        if fd is not None:
            try:
                self.sel.register(fd, selectors.EVENT_READ, None)
                self.board_fd = fd
            except (KeyError, ValueError, OSError):
                pass

    def close(self) -> None:
        self.writer.close()
        runtime_file.remove(self.announced)
        deadline = time.monotonic() + 0.5  # what the programs have not got yet, if they read it soon
        while any(c.out for c in self.clients) and time.monotonic() < deadline:
            for c in list(self.clients):
                self.flush(c)
            time.sleep(0.01)
        for c in list(self.clients):
            c.sock.close()
        self.listener.close()
        self.link.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pegboard.link.hub", description=__doc__.split("\n\n")[0])
    p.add_argument("port", help="the board's port: a device path or pyserial URL")
    p.add_argument("--refind", action="store_true",
                   help="after an unplug, look for the board anywhere (it was found, not named)")
    p.add_argument("--log", help="the file its stderr appends to: kept small while it runs (HubLog)")
    args = p.parse_args(argv)
    log.path = args.log
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal that started it may close: others use it
    from pegboard.link.ports import find_board_or_sim, find_data_port, identity_of

    first = [args.port]
    # a board that was found: after an unplug, that same board (serial number, VID:PID) wherever
    # it is plugged in again; a simulator (no identity): any board, else a running sim, as before
    board = identity_of(args.port) if args.refind else None

    def finder() -> str | None:
        if first:
            return first.pop()
        return find_data_port(board) if board else find_board_or_sim()

    link = SerialLink(None if args.refind else args.port, finder=finder)
    try:
        link.open()
    except NoBoard as e:
        print(json.dumps({"error": e.code, "message": str(e)}), flush=True)
        return 1
    hub = Hub(link, secrets.token_hex(16))
    hub.announced_name = args.port
    hub.announce(args.port)
    print(json.dumps({"ready": True, "pid": os.getpid(), "file": str(hub.announced)}), flush=True)
    # nobody reads this process's output from here on: a closed pipe must not end it
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    hub.serve(args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
