"""Faults in the page's bridge to the board a player or a spectator would meet, held without a
browser or a board (tests/mutants.py found them surviving): each reply back to the page that asked
under its own id, every event to every page, one `state` for many askers, the board unplugged and
back, a board that is not there, and the caps. The bridge runs its own thread, against a stand-in for
its hub link that records what the board was sent and hands back what the test says the board said."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import pytest

from pegboard.link.errors import NoBoard
from pegboard.web import bridge as web_bridge
from pegboard.web.bridge import Bridge

WAIT_S = 10  # a deadline, not a pace: each wait ends as soon as its message is there


class Link:
    def __init__(self, connected_to: str | None = "/dev/ttyACM0", target: str = "auto") -> None:
        self.connected_to = connected_to
        self.target = target
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.written: queue.Queue[dict[str, Any]] = queue.Queue()
        self.closed = threading.Event()
        self.on_lost: Any = None
        self.on_back: Any = None

    def write(self, data: bytes) -> None:
        self.written.put(json.loads(data))

    def read_line(self, timeout: float) -> bytes | None:
        try:
            return self.lines.get(timeout=timeout) if timeout else self.lines.get_nowait()
        except queue.Empty:
            return None

    def close(self) -> None:
        self.closed.set()

    def says(self, obj: dict[str, Any]) -> None:
        self.lines.put(json.dumps(obj).encode())


class Rig:
    def __init__(self, link: Link | None = None, attach: Any = None) -> None:
        self.link = link
        self.out: queue.Queue[tuple[Any, dict[str, Any]]] = queue.Queue()
        self.bridge = Bridge(attach or (lambda: self.link), lambda v, t: self.out.put((v, json.loads(t))), link=link)
        self.bridge.start()

    def sent(self) -> dict[str, Any]:
        """The next line the board was sent."""
        assert self.link is not None
        return self.link.written.get(timeout=WAIT_S)

    def got(self) -> tuple[Any, dict[str, Any]]:
        """The next line a page (or every page: None) was given."""
        return self.out.get(timeout=WAIT_S)

    def nothing_more_sent(self) -> bool:
        """No line sent to the board before a marker request, sent now, reaches it."""
        self.bridge.submit("marker", {"cmd": "info"})
        return self.sent()["cmd"] == "info"

    def close(self) -> None:
        self.bridge.stop()
        self.bridge.join(WAIT_S)


@pytest.fixture
def rig():
    r = Rig(Link())
    yield r
    r.close()


def test_a_reply_goes_back_to_the_page_that_asked_under_its_own_id(rig):
    rig.bridge.submit("A", {"id": 7, "cmd": "hint"})
    out = rig.sent()
    assert out["cmd"] == "hint" and isinstance(out["id"], str)
    rig.link.says({"id": out["id"], "ok": True, "holes": [4]})
    assert rig.got() == ("A", {"id": 7, "ok": True, "holes": [4]})
    rig.bridge.submit("B", {"cmd": "stats"})  # no id of its own: its reply has none
    rig.link.says({"id": rig.sent()["id"], "ok": True})
    assert rig.got() == ("B", {"ok": True})


def test_an_event_goes_to_every_page_and_a_reply_to_nobody_here_to_none(rig):
    rig.link.says({"id": "w999", "ok": True})  # a reply to a request from before a reattach
    rig.link.says({"event": "moved", "id": 3})
    assert rig.got() == (None, {"event": "moved", "id": 3})


def test_many_pages_asking_state_cost_the_board_one_request(rig, monkeypatch):
    monkeypatch.setattr(web_bridge, "STATE_FRESH_S", 3600.0)  # the reply stays fresh for the test
    rig.bridge.submit("A", {"id": 1, "cmd": "state"})
    rig.bridge.submit("B", {"id": 2, "cmd": "state"})
    asked = rig.sent()
    assert asked["cmd"] == "state"
    rig.link.says({"id": asked["id"], "ok": True, "pegs": [1]})
    assert sorted([rig.got(), rig.got()], key=lambda g: g[0]) == [("A", {"id": 1, "ok": True, "pegs": [1]}),
                                                                 ("B", {"id": 2, "ok": True, "pegs": [1]})]
    rig.bridge.submit("C", {"id": 3, "cmd": "state"})  # fresh, no event since: answered from it
    assert rig.got() == ("C", {"id": 3, "ok": True, "pegs": [1]})
    assert rig.nothing_more_sent()


def test_an_event_while_a_state_is_on_its_way_asks_again_when_it_lands(rig):
    rig.bridge.submit("A", {"id": 1, "cmd": "state"})
    first = rig.sent()
    rig.link.says({"event": "moved"})
    assert rig.got() == (None, {"event": "moved"})
    rig.link.says({"id": first["id"], "ok": True})
    assert rig.got()[0] == "A"
    assert rig.sent()["cmd"] == "state"  # the state that shows the move


def test_a_page_that_went_away_gets_nothing_and_the_others_their_share(rig):
    rig.bridge.submit("A", {"id": 1, "cmd": "state"})
    rig.bridge.submit("B", {"id": 2, "cmd": "state"})
    asked = rig.sent()
    rig.bridge.forget("A")
    rig.bridge.submit("B", {"id": 3, "cmd": "hint"})  # after the forget, in the bridge's order
    hint = rig.sent()
    rig.link.says({"id": asked["id"], "ok": True})
    rig.link.says({"id": hint["id"], "ok": True})
    assert [rig.got(), rig.got()] == [("B", {"id": 2, "ok": True}), ("B", {"id": 3, "ok": True})]


def test_unplugged_a_request_is_answered_at_once_and_back_the_board_is_asked_again(rig):
    rig.bridge.submit("A", {"id": 1, "cmd": "hint"})
    rig.sent()
    rig.link.on_lost()
    assert rig.got() == (None, {"web": "lost"})
    rig.bridge.submit("A", {"id": 2, "cmd": "hint"})
    gone = rig.got()
    assert gone[0] == "A" and gone[1]["id"] == 2 and gone[1]["ok"] is False and gone[1]["error"] == "disconnected"
    rig.link.connected_to = "/dev/ttyACM1"  # back on another port
    rig.link.on_back()
    # the request on its way when the board went: answered, its answer never coming
    lost = rig.got()
    assert lost[0] == "A" and lost[1]["id"] == 1 and lost[1]["ok"] is False and lost[1]["error"] == "disconnected"
    assert rig.got() == (None, {"web": "back", "port": "/dev/ttyACM1"})
    rig.bridge.submit("A", {"id": 3, "cmd": "hint"})
    assert rig.sent()["cmd"] == "hint"


def test_the_port_is_the_links_own_name_for_it():
    r = Rig(Link(connected_to=None, target="/dev/ttyUSB3"))
    try:
        assert r.bridge.port == "/dev/ttyUSB3"
        assert r.bridge.daemon  # never holds `pegboard web` up as it exits
    finally:
        r.close()
    assert r.link is not None and r.link.closed.is_set()  # stopped: it left the hub


def test_with_no_board_a_request_is_answered_that_it_is_not_there():
    def attach() -> Any:
        raise NoBoard("no board")

    r = Rig(None, attach=attach)
    try:
        r.bridge.submit("A", {"id": 5, "cmd": "hint"})
        viewer, reply = r.got()
        assert viewer == "A" and reply["id"] == 5 and reply["ok"] is False and "not there" in reply["message"]
    finally:
        r.close()


def test_a_request_over_the_boards_line_limit_is_refused_here(rig):
    rig.bridge.submit("A", {"id": 1, "cmd": "solve", "pad": "x" * web_bridge.BOARD_LINE_MAX})
    viewer, reply = rig.got()
    assert viewer == "A" and reply["ok"] is False and reply["error"] == "line_too_long"
    assert rig.nothing_more_sent()


def test_past_the_pending_cap_the_oldest_request_is_forgotten(rig, monkeypatch):
    monkeypatch.setattr(web_bridge, "PENDING_MAX", 2)
    for k in range(3):
        rig.bridge.submit("A", {"id": k, "cmd": "solve"})
    ids = [rig.sent()["id"] for _ in range(3)]
    rig.link.says({"id": ids[0], "ok": True})  # forgotten: answered to nobody
    rig.link.says({"id": ids[2], "ok": True})
    assert rig.got() == ("A", {"id": 2, "ok": True})


def test_a_board_gone_for_good_is_said_and_new_pages_hear_it_is_not_there():
    class Failing(Link):
        def read_line(self, timeout: float) -> bytes | None:
            raise NoBoard("the board was unplugged and did not come back")

    def attach() -> Any:
        raise NoBoard("no board")

    r = Rig(Failing(), attach=attach)
    try:
        viewer, said = r.got()
        assert viewer is None and said["web"] == "gone" and "did not come back" in said["message"]
        assert r.bridge.board_up is False  # a page's hello now says there is no board
    finally:
        r.close()
