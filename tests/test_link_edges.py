"""The link's small judgements, where a slip misleads a user without failing a round trip: what a
resync says was taken back (newest first), the hub refusing exactly the JSON depth the board
refuses, a board known by its USB identity (VID as well), a path that cannot be resolved naming no
board, the runtime folder when XDG_RUNTIME_DIR names none, what counts as a running process, the
words of a board that did not answer, the hub's own answer to a line that is JSON but no object, a
link reopened until its board comes back (or its time is up), a writer that never opens the port, a
program that stops reading never stalling the hub."""

from __future__ import annotations

import json
import os
import selectors
import socket
import sys
import threading
from pathlib import Path

import pytest
from test_guard_hub import BoardStandIn

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))  # last: firmware/code.py must not shadow the stdlib's code

from pegboard.commands.boardargs import fail  # noqa: E402
from pegboard.link import ports, runtime_file  # noqa: E402
from pegboard.link.client import resync_event  # noqa: E402
from pegboard.link.errors import BoardError, NoBoard  # noqa: E402
from pegboard.link.hub import BACKLOG, BOARD_DEPTH_MAX, Client, Hub, shape_refusal  # noqa: E402
from pegboard.link.reopen import reopen  # noqa: E402
from pegboard.link.serial_link import SerialLink  # noqa: E402
from pegfw.protocol import ProtocolError, parse_request  # noqa: E402


def test_a_resync_says_what_was_missed_and_what_was_taken_back_newest_first():
    old = {"seq": 40, "empty_start": 1, "moves": [[4, 2, 1], [6, 5, 4], [1, 3, 6]], "mode": "play"}
    st = {"seq": 45, "empty_start": 1, "moves": [[4, 2, 1], [7, 4, 2]]}
    e = resync_event("gap", old, st)
    assert e["missed"] == [[7, 4, 2]] and e["undone"] == [[1, 3, 6], [6, 5, 4]] and not e["new_game"]
    assert not e["rebooted"]
    e = resync_event("reconnect", old, {"seq": 3, "empty_start": 5, "moves": [[14, 9, 5]]})
    assert e["new_game"] and e["rebooted"] and e["missed"] == [[14, 9, 5]]
    e = resync_event("reconnect", old, {"seq": 41, "empty_start": 1, "moves": old["moves"]})
    assert e["missed"] == e["undone"] == [] and not e["new_game"]


def nested(depth: int) -> dict:
    obj: dict = {"cmd": "state", "id": 1}
    inner: list = []
    obj["x"] = inner
    for _ in range(depth - 2):
        inner.append([])
        inner = inner[0]
    return obj


def test_the_hub_refuses_exactly_the_depth_the_board_refuses():
    for depth in (BOARD_DEPTH_MAX - 1, BOARD_DEPTH_MAX, BOARD_DEPTH_MAX + 1):
        obj = nested(depth)
        try:
            parse_request(json.dumps(obj).encode())
            board_refuses = False
        except ProtocolError:
            board_refuses = True
        assert (shape_refusal(obj) is not None) == board_refuses == (depth > BOARD_DEPTH_MAX), depth


def candidate(**kw) -> ports.Candidate:
    c = dict(device="/dev/ttyACM1", description="CircuitPython CDC2 data", serial_number="E66138", data_port=True,
             vid=0x239A, pid=0x80F4)
    c.update(kw)
    return ports.Candidate(**c)  # type: ignore[arg-type]


def test_a_board_is_known_by_its_vid_pid_and_serial_number():
    me = ports.BoardIdentity("E66138", 0x239A, 0x80F4)
    assert me.matches(candidate())
    assert not me.matches(candidate(vid=0x2E8A))
    assert not me.matches(candidate(pid=0x0003))
    assert not me.matches(candidate(serial_number="FFFF"))
    assert ports.BoardIdentity(None, 0x239A, 0x80F4).matches(candidate(serial_number="FFFF"))


def test_a_path_that_cannot_be_resolved_names_no_board(monkeypatch):
    monkeypatch.setattr(ports, "candidates", lambda: [candidate()])
    assert ports.identity_of("/dev/ttyACM1") == ports.BoardIdentity("E66138", 0x239A, 0x80F4)
    assert ports.identity_of("/dev/tty\0ACM1") is None  # realpath refuses it: no board is that


def test_the_runtime_folder_when_xdg_runtime_dir_names_no_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(runtime_file.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "gone"))
    d = runtime_file.runtime_dir()
    assert d == tmp_path / ("pegboard-%d" % os.getuid()) and not (tmp_path / "gone").exists()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert runtime_file.runtime_dir() == tmp_path / "pegboard"


def test_only_a_real_process_number_counts_as_running():
    assert runtime_file.alive(os.getpid())
    for pid in (0, -1, None, "123", True, 1.5):
        assert not runtime_file.alive(pid), pid


def test_a_board_that_did_not_answer_is_told_to_try_again_unless_nothing_ever_came(capsys):
    assert fail(BoardError("no answer to state within 4 s")) == 1
    assert "try again" in capsys.readouterr().err
    fail(BoardError("no answer to state within 4 s", silent=True))
    assert "is this the board's data port?" in capsys.readouterr().err


def test_a_long_json_string_is_answered_by_the_hub_without_an_id_and_the_hub_serves_on():
    hub = Hub(BoardStandIn(), "key")  # type: ignore[arg-type]
    ours, theirs = socket.socketpair()
    c = Client(ours, 0)
    c.ready = True
    hub.clients.append(c)
    hub.sel.register(c.sock, selectors.EVENT_READ, c)
    try:
        hub.request(c, b'"' + b"id" * 300 + b'"')  # JSON, but a string: no id to answer under
        got = [json.loads(x) for x in theirs.recv(65536).splitlines()]
        assert [(r["ok"], r["error"], "id" in r) for r in got] == [(False, "line_too_long", False)], got
    finally:
        hub.listener.close()
        ours.close()
        theirs.close()


class ComesBack:
    """A link whose port opens at its `tries`th attempt (NoBoard before), as a board coming back."""

    def __init__(self, tries: int, reconnect_for: float) -> None:
        self.tries, self.opened, self.reconnects, self.reconnect_for, self.said = tries, 0, 0, reconnect_for, []
        self.on_lost = lambda: self.said.append("lost")
        self.on_back = lambda: self.said.append("back")

    def close(self) -> None:
        self.said.append("closed")

    def open(self) -> None:
        self.opened += 1
        if self.opened < self.tries:
            raise NoBoard("not yet", "no_board")


def test_a_link_is_reopened_until_its_board_comes_back_or_its_time_is_up():
    link = ComesBack(3, 30.0)
    reopen(link, "the board went away", 0.0)
    assert (link.opened, link.reconnects, link.said) == (3, 1, ["closed", "lost", "back"])
    gone = ComesBack(10 ** 9, 0.0)
    with pytest.raises(NoBoard, match="did not come back") as e:
        reopen(gone, "the board went away", 0.0)
    assert e.value.code == "disconnected" and gone.reconnects == 0 and "back" not in gone.said


def test_a_writer_beside_a_reader_never_opens_the_port_itself():
    link = SerialLink("loop://")
    with pytest.raises(NoBoard) as e:
        link.write(b'{"cmd": "state"}\n', reconnect=False)  # closed: said at once, never opened here
    assert e.value.code == "disconnected" and not link.is_open
    link.write(b'{"cmd": "state"}\n')  # the link's own write opens it
    try:
        assert link.is_open and link.read_line(2.0) == b'{"cmd": "state"}'
    finally:
        link.close()


def test_a_program_that_stops_reading_never_stalls_the_hub_and_the_port_is_waited_on():
    class StandIn(BoardStandIn):
        def fileno(self) -> int:
            return theirs_fd

    pair = socket.socketpair()
    theirs_fd = pair[0].fileno()
    hub = Hub(StandIn(), "key")  # type: ignore[arg-type]
    program = socket.socket()
    program.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and it never reads
    try:
        hub.watch_port()
        assert hub.board_fd == theirs_fd  # the hub wakes on the board's lines, not on a timer
        program.connect(tuple(hub.address))
        hub.accept()
        (client,) = hub.clients
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # the kernel holds little of it
        sent = threading.Event()

        def flood() -> None:
            line = b'{"event": "moved"}\n'
            hub.send(client, line * ((BACKLOG - 1) // len(line)))  # all the backlog a program may leave
            sent.set()

        threading.Thread(target=flood, daemon=True).start()
        assert sent.wait(60), "the hub blocked on a program that does not read"
        assert client.out and not client.closed  # kept for it, not yet dropped
    finally:
        hub.listener.close()
        program.close()
        for end in pair:
            end.close()
