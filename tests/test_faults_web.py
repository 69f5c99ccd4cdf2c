"""Faults in `pegboard web`'s server a spectator or a player would meet, held without a browser
(tests/mutants.py found them surviving: the page's own tests need Chromium): who may connect and
ask what, the caps, the hello, the hand's moves, and which names the server answers to. The server
runs in a thread of its own here, in front of a stand-in for its bridge that answers every request."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pegboard.web import server as web_server
from pegboard.web.server import WebServer

TOKEN = "s3cret-token"


class Bridge:
    """Answers each request at once with {"ok": true, "asked": cmd}; `held` commands never."""

    board_up = True
    port = "/dev/ttyACM7"

    def __init__(self, srv: WebServer, held: tuple[str, ...] = ()) -> None:
        self.srv = srv
        self.held = held
        self.asked: list[dict[str, Any]] = []
        self.forgotten = threading.Event()

    def submit(self, viewer: Any, obj: dict[str, Any]) -> None:
        self.asked.append(obj)
        if obj.get("cmd") not in self.held:
            self.srv.deliver(viewer, json.dumps({"id": obj.get("id"), "ok": True, "asked": obj.get("cmd")}))

    def forget(self, viewer: Any) -> None:
        self.forgotten.set()


class Served:
    def __init__(self, host: str, hand: Any = None, held: tuple[str, ...] = ()) -> None:
        self.srv = WebServer(TOKEN, hand=hand, spectators=host != "127.0.0.1")
        self.bridge = Bridge(self.srv, held)
        self.srv.bridge = self.bridge
        ready = threading.Event()
        self.port = 0

        def up(port: int) -> None:
            self.port = port
            ready.set()

        self.thread = threading.Thread(target=lambda: asyncio.run(self.srv.serve(host, 0, up)), daemon=True)
        self.thread.start()
        assert ready.wait(20), "the server did not start"

    def page(self, token: str | None = TOKEN, hello: Any = None) -> Any:
        """A WebSocket as the page opens it, its hello sent; the server's hello read."""
        ws = connect("ws://127.0.0.1:%d/ws" % self.port, origin="http://127.0.0.1:%d" % self.port,  # type: ignore[arg-type]
                     open_timeout=10).__enter__()  # closed by the test (ws.close())
        ws.send(json.dumps({"web": "hello", "token": token}) if hello is None else hello)
        return ws

    def get(self, host: str, path: str = "/") -> int:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        c.putrequest("GET", path, skip_host=True)
        c.putheader("Host", host)
        c.endheaders()
        status = c.getresponse().status
        c.close()
        return status

    def close(self) -> None:
        self.srv.stop()
        self.thread.join(10)


@pytest.fixture
def local():
    s = Served("127.0.0.1", hand=lambda cmd, **a: {"pegs": [1, 2]} if cmd != "lift" else _refuse())
    yield s
    s.close()


@pytest.fixture
def lan():
    s = Served("0.0.0.0", hand=lambda cmd, **a: {"pegs": [1, 2]})
    yield s
    s.close()


def _refuse() -> dict[str, Any]:
    raise RuntimeError("no peg in hole 4 to lift")


def replies(ws: Any, n: int) -> list[dict[str, Any]]:
    return [json.loads(ws.recv(timeout=10)) for _ in range(n)]


def test_the_server_answers_only_its_own_names_and_any_ip_on_the_lan(local, lan):
    p = local.port
    assert local.get("127.0.0.1:%d" % p) == 200 and local.get("localhost:%d" % p) == 200
    assert local.get("192.168.1.5:%d" % p) == 403  # bound to loopback: no other address is its
    assert local.get("evil.example:%d" % p) == 403
    q = lan.port
    assert lan.get("192.168.1.5:%d" % q) == 200  # on the LAN: the address a spectator's browser used
    assert lan.get("192.168.1.5:%d" % (q + 1)) == 403  # not its port
    assert lan.get("evil.example:%d" % q) == 403  # a name never: DNS rebinding
    assert lan.get(":%d" % q) == 403


def test_a_host_left_empty_names_no_empty_host():
    srv = WebServer(TOKEN)
    srv.allow("", 8431)
    assert srv.host_allowed("127.0.0.1:8431") and srv.host_allowed("10.0.0.2:8431")
    assert not srv.host_allowed(":8431")


def test_the_hello_says_whether_the_board_is_simulated(local):
    ws = local.page()
    hello = replies(ws, 1)[0]
    assert hello == {"web": "hello", "control": True, "sim": True, "board": True, "port": "/dev/ttyACM7"}
    ws.close()
    real = Served("127.0.0.1")
    try:
        ws = real.page()
        assert replies(ws, 1)[0]["sim"] is False
        ws.close()
    finally:
        real.close()


def test_a_hello_over_the_size_limit_is_no_hello_though_it_holds_the_token(local):
    ws = local.page(hello=json.dumps({"web": "hello", "token": TOKEN, "pad": "x" * web_server.MESSAGE_MAX}))
    with pytest.raises(ConnectionClosed) as e:
        ws.recv(timeout=10)
    assert e.value.rcvd is not None and e.value.rcvd.code == web_server.REFUSED


def test_a_spectator_may_ask_what_changes_nothing_and_never_learns_the_port(lan):
    ws = lan.page(token="wrong")
    hello = replies(ws, 1)[0]
    assert hello["control"] is False and "port" not in hello
    ws.send(json.dumps({"id": 1, "cmd": "state"}))
    ws.send(json.dumps({"id": 2, "cmd": "reset"}))
    got = sorted(replies(ws, 2), key=lambda r: r["id"])  # the refusal is the server's own: it may come first
    assert got[0] == {"id": 1, "ok": True, "asked": "state"}
    assert got[1]["id"] == 2 and got[1]["ok"] is False and got[1]["error"] == "read_only"
    assert [a["cmd"] for a in lan.bridge.asked] == ["state"]  # the board never heard the reset
    ws.send(json.dumps({"id": 3, "hand": "lift", "hole": 4}))
    moved = replies(ws, 1)[0]
    assert moved["ok"] is False and "only watches" in moved["message"]
    lan.srv.deliver(None, json.dumps({"web": "back", "port": "/dev/ttyACM7"}))
    assert replies(ws, 1)[0] == {"web": "back"}
    ws.close()


def test_a_player_may_ask_anything_and_a_long_message_is_ignored(local):
    ws = local.page()
    replies(ws, 1)
    ws.send(json.dumps({"id": 1, "cmd": "x" * web_server.MESSAGE_MAX}))  # over the limit: not read
    ws.send(json.dumps({"id": 2, "cmd": "reset"}))
    assert replies(ws, 1)[0] == {"id": 2, "ok": True, "asked": "reset"}
    assert [a["cmd"] for a in local.bridge.asked] == ["reset"]
    ws.close()


def test_requests_past_those_in_flight_are_answered_busy_with_their_id(monkeypatch):
    monkeypatch.setattr(web_server, "IN_FLIGHT", 2)
    s = Served("127.0.0.1", held=("solve",))
    try:
        ws = s.page()
        replies(ws, 1)
        for k in range(3):
            ws.send(json.dumps({"id": k, "cmd": "solve"}))
        busy = replies(ws, 1)[0]
        assert busy["id"] == 2 and busy["ok"] is False and busy["error"] == "busy"
        assert len(s.bridge.asked) == 2
        ws.close()
    finally:
        s.close()


def test_the_hands_moves_on_a_simulated_board(local):
    ws = local.page()
    replies(ws, 1)
    ws.send(json.dumps({"id": 1, "hand": "place", "hole": 4}))
    ws.send(json.dumps({"id": 2, "hand": "lift", "hole": 4}))
    ws.send(json.dumps({"id": 3, "hand": "teleport"}))
    got = replies(ws, 3)
    assert got[0] == {"web": "hand", "id": 1, "ok": True, "pegs": [1, 2]}
    assert got[1] == {"web": "hand", "id": 2, "ok": False, "message": "no peg in hole 4 to lift"}
    assert got[2]["ok"] is False and "no such move" in got[2]["message"]
    ws.close()
    real = Served("127.0.0.1")
    try:
        ws = real.page()
        replies(ws, 1)
        ws.send(json.dumps({"id": 1, "hand": "place", "hole": 4}))
        out = replies(ws, 1)[0]
        assert out["ok"] is False and "move the real pegs" in out["message"]
        ws.close()
    finally:
        real.close()


def test_a_reply_reaches_its_asker_alone_and_an_event_every_page(local):
    a, b = local.page(), local.page()
    replies(a, 1)
    replies(b, 1)
    a.send(json.dumps({"id": 9, "cmd": "state"}))
    assert replies(a, 1)[0]["id"] == 9
    local.srv.deliver(None, json.dumps({"event": "moved"}))
    assert replies(b, 1)[0] == {"event": "moved"}  # b never saw a's reply: the event is next
    assert replies(a, 1)[0] == {"event": "moved"}
    a.close()
    b.close()


class _Ws:
    async def close(self, *a: Any) -> None:
        self.closed_with = a


def test_a_page_that_leaves_the_backlog_untaken_is_closed_at_the_backlog(monkeypatch):
    monkeypatch.setattr(web_server, "BACKLOG", 5)

    async def fill() -> tuple[bool, int, bool]:
        srv = WebServer(TOKEN)
        v = web_server.Viewer(_Ws(), True, 1, "127.0.0.1")  # type: ignore[arg-type]
        srv.viewers.add(v)
        for _ in range(5):
            srv._deliver(None, "{}")
        before = v.closed
        srv._deliver(None, "{}")
        return before, v.queue.qsize(), v.closed

    before, kept, closed = asyncio.run(fill())
    assert not before and closed and kept == 5


def test_the_caps_hold_at_their_numbers(monkeypatch):
    monkeypatch.setattr(web_server, "VIEWERS_MAX", 4)
    monkeypatch.setattr(web_server, "PER_ADDRESS_MAX", 3)
    srv = WebServer(TOKEN)

    def add(address: str, control: bool = True) -> None:
        srv.viewers.add(web_server.Viewer(None, control, 0, address))  # type: ignore[arg-type]

    add("10.0.0.1")
    add("10.0.0.1")
    assert not srv.full("10.0.0.1") and srv.room_for("10.0.0.1", True)
    add("10.0.0.1")
    assert srv.full("10.0.0.1") and not srv.room_for("10.0.0.1", True)  # its address's share taken
    assert not srv.full("10.0.0.2")
    add("10.0.0.2")
    assert srv.full("10.0.0.3") and not srv.room_for("10.0.0.3", True)  # every place taken


def test_a_newer_silent_websocket_closes_the_oldest_of_its_address(monkeypatch):
    monkeypatch.setattr(web_server, "GREETING_PER_ADDRESS", 2)
    monkeypatch.setattr(web_server, "GREETING_MAX", 10)

    async def greet() -> tuple[list[str], list[str]]:
        srv = WebServer(TOKEN)
        socks = {name: _Ws() for name in ("a1", "a2", "b1")}
        srv.greeting = [("10.0.0.1", socks["a1"]), ("10.0.0.2", socks["b1"])]  # type: ignore[list-item]
        srv.make_room_to_greet("10.0.0.1")  # one of its address waits: room for the second
        none_closed = [n for n, w in socks.items() if hasattr(w, "closed_with")]
        srv.greeting.insert(1, ("10.0.0.1", socks["a2"]))  # type: ignore[arg-type]
        srv.make_room_to_greet("10.0.0.1")  # two of its address wait: the oldest of them goes
        await asyncio.sleep(0)
        return none_closed, [n for n, w in socks.items() if hasattr(w, "closed_with")]

    none_closed, closed = asyncio.run(greet())
    assert none_closed == [] and closed == ["a1"]


def test_past_the_greeting_cap_the_oldest_silent_websocket_of_any_address_goes(monkeypatch):
    monkeypatch.setattr(web_server, "GREETING_PER_ADDRESS", 10)
    monkeypatch.setattr(web_server, "GREETING_MAX", 2)

    async def greet() -> list[int]:
        srv = WebServer(TOKEN)
        socks = [_Ws(), _Ws()]
        srv.greeting = [("10.0.0.1", socks[0]), ("10.0.0.2", socks[1])]  # type: ignore[list-item]
        srv.make_room_to_greet("10.0.0.3")
        await asyncio.sleep(0)
        return [k for k, w in enumerate(socks) if hasattr(w, "closed_with")]

    assert asyncio.run(greet()) == [0]
