"""Issue "guard2", findings 2, 3 and 5: what a program or a page may send the board's hub and
`pegboard web` never locks the others out nor grows the hub's log without end.
- A request the board would answer without an id (JSON nested deeper than 8 levels, a line over 512
  bytes as the hub sends it) is answered by the hub with the asker's id, and a reply that comes
  without one all the same frees the slot of the line it answers: nobody's requests stay `busy`.
- A WebSocket that has not said hello holds no page's place, and on `--host` spectators, one
  address's or all, never take the places players need.
- The hub's log stays under its cap while the hub runs, and shows a stranger's hello cut short.
Each test is an attack that worked before its fix."""

import json
import selectors
import socket
import sys

import pytest
from support import until
from test_guard import attach, hello, ws_join
from websupport import board, web  # noqa: F401  (fixtures: a simulated board, `pegboard web` on it)

from pegboard.link import runtime_file
from pegboard.link.hub_link import HubLink, hub_for

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX runtime folders and the simulated board")

DEEP = [[[[[[[[1]]]]]]]]  # 8 levels: in a request's object, 9 (the board takes 8)


@pytest.fixture
def hub(sim, runtime_env):
    """The hub of the simulated board, held open by a program of the test's own."""
    link = HubLink(sim.data_path, sim.data_path).open()
    try:
        yield until(lambda: hub_for(sim.data_path), 20, "the hub")
    finally:
        link.close()


def answers_until(s, last):
    """The replies `s` receives, by id, until the one to request `last` has come."""
    got, buf = {}, b""
    while last not in got:
        chunk = s.recv(1 << 20)
        assert chunk, "the hub closed the connection: %r" % got
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for obj in map(json.loads, lines):
            if "id" in obj:
                got[obj["id"]] = obj
    return got


def compact(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def test_requests_the_board_cannot_read_an_id_from_are_answered_by_the_hub_with_theirs(hub):
    with attach(hub, "flood") as s, attach(hub, "player") as player:
        s.sendall(b"".join(compact({"cmd": "state", "id": i, "deep": DEEP}) + b"\n" for i in range(40)))
        # 510 bytes, as the hub sends them too (2 a character): 1,530 with each \u00e9 spelled out
        wide = compact({"cmd": "state", "id": "wide", "x": ""})
        s.sendall(compact({"cmd": "state", "id": "wide", "x": "\u00e9" * ((510 - len(wide)) // 2)}) + b"\n")
        # 512 bytes as sent, over 512 with the hub's id in place of "z"
        short = compact({"cmd": "state", "id": "z", "x": ""})
        s.sendall(compact({"cmd": "state", "id": "z", "x": "a" * (512 - len(short))}) + b"\n")
        s.sendall(b'{"cmd": "state", "id": "after"}\n')
        got = answers_until(s, "after")
        player.sendall(b'{"cmd": "state", "id": "mine"}\n')
        theirs = answers_until(player, "mine")
    assert [got[i]["error"] for i in range(40)] == ["bad_json"] * 40, got
    assert got["wide"]["ok"], got["wide"]  # the board read it: as long as it came
    assert got["z"]["error"] == "line_too_long" and got["z"]["hub"], got["z"]
    assert got["after"]["ok"] and theirs["mine"]["ok"], (got["after"], theirs["mine"])  # not busy


class BoardStandIn:
    """What the Hub needs of a board link to be built (nothing is written: its writer never starts)."""
    connected_to = "stand-in"
    on_lost = on_back = None


def test_a_reply_without_an_id_frees_the_slot_of_the_line_it_answers_and_nobody_elses():
    from pegboard.link.hub import Client, Hub

    hub = Hub(BoardStandIn(), "key")  # type: ignore[arg-type]
    pairs = [socket.socketpair() for _ in range(2)]
    a, b = (Client(ours, n) for n, (ours, _) in enumerate(pairs))
    for c in (a, b):
        c.ready = True
        hub.clients.append(c)
        hub.sel.register(c.sock, selectors.EVENT_READ, c)
    try:
        hub.request(b, b'{"cmd": "info", "id": "b1"}')
        hub.from_board(b'{"id": "h1", "ok": true}')  # b's answered: the board read that far
        # a line the hub passes and the board cannot read (its id unread), then a word typed by hand
        hub.request(a, b'{"cmd": "state", "id": "mine"}')
        hub.request(b, b"info")
        assert (a.in_flight, b.in_flight) == (1, 1)
        hub.from_board(b'{"ok": false, "error": "internal", "message": "the board could not read this line"}')
        hub.from_board(b'{"ok": true, "version": 1}')
        assert (a.in_flight, b.in_flight) == (0, 0)
        a_got = pairs[0][1].recv(65536).splitlines()
        b_got = pairs[1][1].recv(65536).splitlines()
        assert [json.loads(x).get("id") for x in a_got] == ["mine"], a_got
        assert [json.loads(x).get("version") for x in b_got] == [None, 1], b_got  # b1's, then its word's
    finally:
        hub.listener.close()
        for ends in pairs:
            for end in ends:
                end.close()


def test_the_hubs_log_stays_under_its_cap_and_shows_a_hello_cut_short(sim, runtime_env, monkeypatch):
    monkeypatch.setenv("PEGBOARD_HUB_LOG_MAX", "16384")
    link = HubLink(sim.data_path, sim.data_path).open()
    try:
        hub = until(lambda: hub_for(sim.data_path), 20, "the hub")
        for _ in range(150):  # 1,100 `[`: Python's parser recursed too deep, a traceback each
            assert hello(hub, b"[" * 1100 + b"\n") == b""
        assert hub_for(sim.data_path)["pid"] == hub["pid"]  # the same hub serves on
    finally:
        link.close()
    log = runtime_file.runtime_dir() / "hub.log"
    before = log.with_name("hub.log.1")
    assert log.stat().st_size <= 16384 + 1024 and before.stat().st_size <= 16384 + 1024
    text = before.read_text() + log.read_text()
    assert "[" * 200 + "... (cut: 1100 characters in all)" in text, text[-2000:]
    assert "[" * 201 not in text and "Traceback" not in text


# -- pegboard web ----------------------------------------------------------------------------------

def spectator(w, source):
    """A spectator's page (no token) on `w`, from the loopback address `source`."""
    from websockets.sync.client import connect
    from urllib.parse import urlsplit

    u = urlsplit(w.base)
    sock = socket.create_connection((u.hostname, u.port), timeout=10, source_address=(source, 0))
    ws = connect(w.base.replace("http://", "ws://") + "ws", sock=sock, open_timeout=10, close_timeout=2).__enter__()
    ws.send(json.dumps({"web": "hello"}))
    return ws


def first_of(ws):
    """The first message of a page's WebSocket, or None when the server closed it instead."""
    from websockets.exceptions import ConnectionClosed

    try:
        return json.loads(ws.recv(timeout=10))
    except ConnectionClosed:
        return None


def page_answer(ws, rid):
    while True:
        obj = json.loads(ws.recv(timeout=20))
        if obj.get("id") == rid:
            return obj


def test_websockets_that_never_say_hello_hold_no_players_place(web):  # noqa: F811
    from websockets.sync.client import connect

    from pegboard.web import server

    silent = [connect(web.base.replace("http://", "ws://") + "ws", open_timeout=10, close_timeout=2).__enter__()
              for _ in range(server.PER_ADDRESS_MAX)]
    players = []
    try:
        for _ in range(10):
            ws, first = ws_join(web, web.token)
            players.append(ws)
            assert first["web"] == "hello" and first["control"], first
        # the silent ones past the few that may wait for their hello were closed as the players came
        until(lambda: sum(ws.close_code is None for ws in silent) <= server.GREETING_PER_ADDRESS, 10,
              "the silent WebSockets to be closed")
        for ws in players:
            ws.send(json.dumps({"cmd": "state", "id": 1}))
            assert page_answer(ws, 1)["ok"]
    finally:
        for ws in silent + players:
            ws.close()


def test_on_a_network_spectators_never_take_the_players_places(board):  # noqa: F811
    from websupport import WebProcess

    from pegboard.web import server

    w = WebProcess(board.link, "--host", "127.0.0.2")
    pages = []
    try:
        admitted = {}
        for n in range(8):  # eight addresses, 9 spectators from each: 72 for the 64 places
            source = "127.0.1.%d" % (n + 1)
            for _ in range(9):
                pages.append(spectator(w, source))
                if first_of(pages[-1]) is not None:
                    admitted[source] = admitted.get(source, 0) + 1
        ws, first = ws_join(w, w.token)
        pages.append(ws)
        assert first["control"], first  # a player still gets in
        assert max(admitted.values()) == server.SPECTATORS_PER_ADDRESS, admitted
        assert sum(admitted.values()) == server.SPECTATORS_MAX, admitted
    finally:
        for ws in pages:
            ws.close()
        w.stop()


def test_a_spectators_requests_the_board_cannot_read_leave_the_player_served(board):  # noqa: F811
    from websupport import WebProcess

    w = WebProcess(board.link, "--host", "127.0.0.2")
    pages = []
    try:
        for n in range(4):  # four pages of 8 requests each: the 32 the hub lets the server have on their way
            pages.append(spectator(w, "127.0.2.%d" % (n + 1)))
            assert first_of(pages[-1]) is not None
        for ws in pages:
            for i in range(8):
                ws.send(json.dumps({"cmd": "state", "id": i, "deep": DEEP}))
        for ws in pages:
            assert page_answer(ws, 7)["error"] == "bad_json"
        player, first = ws_join(w, w.token)
        pages.append(player)
        for cmd in ("hint", "state"):
            player.send(json.dumps({"cmd": cmd, "id": cmd}))
            answer = page_answer(player, cmd)
            assert answer.get("error") != "busy", answer
    finally:
        for ws in pages:
            ws.close()
        w.stop()
