"""A program's side of the hub (HubLink), against a stand-in hub of the test's own (a socket pair or
a listening socket): a line the hub already sent is read by a poll that does not wait; the hub's
"back" names the port and counts a reconnect; a hub whose welcome is not JSON, or a hub that is gone
(its runtime file then removed only when its process is), is no hub; a program leaving stops reading
once the hub has answered its bye; hubs this process started are waited for once they end."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

from pegboard.link import hub_link
from pegboard.link.hub_link import HubLink


def linked() -> tuple[HubLink, socket.socket]:
    link = HubLink("/dev/ttyACM9", "/dev/ttyACM9")
    ours, theirs = socket.socketpair()
    link._sock = ours
    return link, theirs


def test_a_poll_that_does_not_wait_reads_what_the_hub_already_sent():
    link, hub = linked()
    try:
        assert link.is_open
        hub.sendall(b'{"event": "moved", "seq": 4}\n')
        assert link.read_line(0) == b'{"event": "moved", "seq": 4}'
        assert link.read_line(0) is None
    finally:
        hub.close()
        link._sock.close()  # type: ignore[union-attr]
    assert not HubLink("/dev/ttyACM9").is_open


def test_the_hubs_back_names_the_port_and_counts_a_reconnect():
    link, hub = linked()
    backs = []
    link.on_back = lambda: backs.append(link.connected_to)
    try:
        link.connected_to = "/dev/ttyACM9"
        hub.sendall(b'{"hub": "back", "port": "/dev/ttyACM3"}\n{"ok": true, "id": 1}\n')
        assert link.read_line(1.0) == b'{"ok": true, "id": 1}'
        assert (link.connected_to, link.reconnects, backs) == ("/dev/ttyACM3", 1, ["/dev/ttyACM3"])
    finally:
        hub.close()
        link._sock.close()  # type: ignore[union-attr]


def stand_in_hub(answer: bytes) -> tuple[socket.socket, threading.Thread]:
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)  # the hello
            conn.sendall(answer)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return server, t


def test_a_hub_whose_welcome_is_not_json_is_no_hub(tmp_path):
    server, t = stand_in_hub(b"HTTP/1.1 400 Bad Request\n")
    try:
        hub = {"address": list(server.getsockname()), "key": "k", "pid": os.getpid(), "file": str(tmp_path / "h.json")}
        link = HubLink("/dev/ttyACM9")
        assert link._connect(hub) is False and not link.is_open
    finally:
        t.join(10)
        server.close()


def test_a_gone_hubs_runtime_file_is_removed_only_when_its_process_has_ended(tmp_path):
    closed = socket.create_server(("127.0.0.1", 0))
    address = list(closed.getsockname())
    closed.close()  # nothing listens there now
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    for pid, kept in ((int(done.stdout), False), (os.getpid(), True)):
        f = tmp_path / ("hub-%d.json" % pid)
        f.write_text(json.dumps({"pid": pid}))
        assert HubLink("/dev/ttyACM9")._connect({"address": address, "key": "k", "pid": pid, "file": str(f)}) is False
        assert f.exists() == kept, pid


class ByeSocket:
    """What _say_bye needs of a socket: the hub answers the bye at once, then says no more."""

    def __init__(self, answer: bytes) -> None:
        self.answer, self.sent = [answer], b""

    def settimeout(self, _t: float) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def recv(self, _n: int) -> bytes:
        assert self.answer, "read on after the hub had answered the bye"
        return self.answer.pop(0)


def test_a_program_leaving_stops_reading_once_the_hub_answered_its_bye():
    for answer in (b'{"hub": "released"}\n', b'{"hub": "bye"}\n'):
        s = ByeSocket(answer)
        HubLink._say_bye(s)
        assert s.sent == b'{"hub": "bye"}\n' and not s.answer


def test_hubs_this_process_started_are_waited_for_once_they_end(monkeypatch):
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    running = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    monkeypatch.setattr(hub_link, "_started", [ended, running])
    try:
        hub_link._reap()
        assert hub_link._started == [running]
    finally:
        running.communicate(b"")
