"""BoardClient against a scripted board link (no port, no simulator): a view told after a gap only
the moves it missed, because it followed the ones it saw; a port where nothing ever came back said
as maybe not the board's, one that answered before as busy; a line that looks like the hub's but
is not JSON passed on as the board's; a hub link closed says bye once, and closing twice is fine; a
port the user named is never swapped for another board's."""

from __future__ import annotations

import json
import socket

import pytest

from pegboard.link import serial_link
from pegboard.link.client import BoardClient
from pegboard.link.errors import BoardError
from pegboard.link.hub_link import HubLink
from pegboard.link.serial_link import SerialLink


class ScriptedLink:
    """A board link whose board answers `state` with `states` in turn and sends `events` first."""

    def __init__(self, lines: list[dict], states: list[dict]) -> None:
        self.lines = [json.dumps(x).encode() for x in lines]
        self.states = list(states)
        self.is_open, self.connected_to, self.port, self.reconnects = True, "scripted", "scripted", 0
        self.on_back = self.on_lost = None
        self.asked: list[dict] = []

    def open(self) -> "ScriptedLink":
        self.is_open = True
        return self

    def close(self) -> None:
        self.is_open = False

    def write(self, data: bytes) -> None:
        req = json.loads(data)
        self.asked.append(req)
        if req["cmd"] == "state" and self.states:
            self.lines.append(json.dumps(dict(self.states.pop(0), id=req["id"], ok=True)).encode())

    def read_line(self, timeout: float) -> bytes | None:
        return self.lines.pop(0) if self.lines else None


def test_after_a_gap_a_view_is_told_only_the_moves_it_missed():
    first = {"seq": 1, "empty_start": 1, "moves": [], "mode": "play"}
    seen = [{"event": "move", "seq": 2, "move": [4, 2, 1]}, {"event": "move", "seq": 3, "move": [6, 5, 4]},
            {"event": "move", "seq": 5, "move": [1, 3, 6]}]  # seq 4 never came: a gap
    after = {"seq": 5, "empty_start": 1, "moves": [[4, 2, 1], [6, 5, 4], [13, 9, 4], [1, 3, 6]], "mode": "play"}
    link = ScriptedLink([], [first, after])
    client = BoardClient(link=link)  # type: ignore[arg-type]
    client.request("state")
    link.lines += [json.dumps(e).encode() for e in seen]
    resync = [e for e in client.poll() if e.get("event") == "resync"]
    assert len(resync) == 1 and resync[0]["missed"] == [[13, 9, 4], [1, 3, 6]] and resync[0]["undone"] == [], resync


def test_silence_is_said_as_maybe_another_port_unless_the_board_answered_before():
    link = ScriptedLink([], [{"seq": 1, "empty_start": 1, "moves": [], "mode": "play"}])
    client = BoardClient(link=link)  # type: ignore[arg-type]
    with pytest.raises(BoardError) as e:
        client.request("info", timeout=0.05)
    assert e.value.silent
    client.request("state")
    with pytest.raises(BoardError) as e:
        client.request("info", timeout=0.05)
    assert not e.value.silent


def test_a_line_that_looks_like_the_hubs_but_is_not_json_is_the_boards():
    link = HubLink("/dev/ttyACM9", "/dev/ttyACM9")
    ours, theirs = socket.socketpair()
    link._sock = ours
    try:
        theirs.sendall(b'{"hub": not json\n')
        assert link.read_line(1.0) == b'{"hub": not json'
    finally:
        ours.close()
        theirs.close()


def test_a_hub_link_closed_says_bye_once_and_a_second_close_is_nothing():
    link = HubLink("/dev/ttyACM9", "/dev/ttyACM9")
    ours, theirs = socket.socketpair()
    link._sock = ours
    try:
        theirs.sendall(b'{"hub": "released"}\n')  # the hub's answer, waiting for the bye
        link.close()
        assert theirs.recv(4096) == b'{"hub": "bye"}\n' and not link.is_open
        link.close()
        assert theirs.recv(4096) == b""  # closed: nothing more said
    finally:
        theirs.close()


def test_a_port_the_user_named_is_never_swapped_for_another_boards(monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(serial_link, "identity_of", lambda port: asked.append(port))
    link = SerialLink("loop://")
    link.open()
    try:
        assert link.identity is None and asked == []
    finally:
        link.close()
