"""The host's protocol client and its transport against a scripted board on a pseudo-terminal: a
resync waits for the request under way to have its reply, replies meet the request that waits,
and the transport's tap sees every line both ways."""

import json
import os
import select
import threading
import time

from support import until

from pegboard.link.client import BoardClient
from pegboard.link.serial_link import LineCutter, SerialLink
from pegboard.sim.ptys import raw_pty


class ScriptedBoard(threading.Thread):
    """Answers each request line with `answer(req)`: a list of objects to send (events, replies).
    Records what it received and what it sent, in order, as ("got", req) / ("sent", obj)."""

    def __init__(self, answer):
        super().__init__(daemon=True)
        self.master, self.slave, self.path = raw_pty()
        self.answer = answer
        self.log = []
        self.stopping = threading.Event()

    def send(self, obj):
        os.write(self.master, (json.dumps(obj) + "\n").encode())
        self.log.append(("sent", obj))

    def run(self):
        cut = LineCutter()
        while not self.stopping.is_set():
            r, _, _ = select.select([self.master], [], [], 0.02)
            if not r:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for line in cut.feed(data):
                req = json.loads(line)
                self.log.append(("got", req))
                for obj in self.answer(req):
                    if obj == "pause":
                        # hold the reply back; a request that arrives meanwhile was sent before it
                        r, _, _ = select.select([self.master], [], [], 0.3)
                        if r:
                            self.log.append(("sent before the reply", None))
                        time.sleep(0.3 if r else 0)
                        continue
                    self.send(obj)

    def close(self):
        self.stopping.set()
        self.join(2)
        os.close(self.master)
        os.close(self.slave)


STATE = {"ok": True, "seq": 3, "empty_start": 1, "moves": [[4, 2, 1], [6, 5, 4]], "mode": "play"}


def test_a_gap_during_a_request_resyncs_after_its_reply():
    def answer(req):
        if req["cmd"] == "hint":
            # the events of two moves, the middle one's lost (seq 2 never comes), then a pause
            # before the hint's own reply: a client that resyncs inside the request asks now
            return [{"event": "move", "seq": 1, "move": [4, 2, 1]}, {"event": "move", "seq": 3, "move": [6, 5, 4]},
                    "pause", {"id": req["id"], "ok": True, "move": [1, 2, 4]}]
        if req["cmd"] == "state":
            return [dict(STATE, id=req["id"])]
        return [{"id": req["id"], "ok": False, "error": "unknown_cmd", "message": "?"}]

    board = ScriptedBoard(answer)
    board.start()
    try:
        with BoardClient(board.path) as c:
            assert c.request("hint")["move"] == [1, 2, 4]
            events = c.poll()
            got = [obj["cmd"] for kind, obj in board.log if kind == "got"]
            # the resync asked `state` only after the hint had its reply, not from inside the request
            assert got == ["hint", "state"] and ("sent before the reply", None) not in board.log
            assert [e["event"] for e in events] == ["move", "move", "resync"]
            resync = events[-1]
            assert resync["reason"] == "gap" and resync["missed"] == [[4, 2, 1], [6, 5, 4]]
            assert c.gaps == 1 and c.known is not None and c.known["moves"] == STATE["moves"]
    finally:
        board.close()


def test_a_resync_waits_for_a_board_that_is_still_starting():
    """A state reply from a board that has not read its pegs yet (mode starting: no moves) is no
    resync's answer: the client asks again, and reports the game it then gets."""
    states = [{"ok": True, "seq": 3, "empty_start": None, "moves": [], "mode": "starting"},
              dict(STATE, moves=STATE["moves"] + [[1, 3, 6]], seq=4)]

    def answer(req):
        if req["cmd"] == "hint":  # two moves' events, the middle one's lost: a gap
            return [{"event": "move", "seq": 1, "move": [4, 2, 1]}, {"event": "move", "seq": 3, "move": [6, 5, 4]},
                    {"id": req["id"], "ok": True, "move": [1, 2, 4]}]
        if req["cmd"] == "state":
            return [dict(states.pop(0) if len(states) > 1 else states[0], id=req["id"])]
        return [{"id": req["id"], "ok": False, "error": "unknown_cmd", "message": "?"}]

    board = ScriptedBoard(answer)
    board.start()
    try:
        with BoardClient(board.path) as c:
            c.request("hint")
            events = c.poll()
            assert [obj["cmd"] for kind, obj in board.log if kind == "got"] == ["hint", "state", "state"]
            resync = [e for e in events if e["event"] == "resync"]
            assert len(resync) == 1 and resync[0]["state"]["mode"] == "play"
            assert resync[0]["missed"] == [[4, 2, 1], [6, 5, 4], [1, 3, 6]] and not resync[0]["new_game"]
            assert c.known is not None and c.known["moves"] == states[0]["moves"]
    finally:
        board.close()


def test_a_late_reply_to_a_request_that_gave_up_is_not_taken_for_the_next():
    def answer(req):
        if req["cmd"] == "slow":
            return ["pause", {"id": req["id"], "ok": True, "which": "slow"}]
        return [{"id": req["id"], "ok": True, "which": req["cmd"]}]

    board = ScriptedBoard(answer)
    board.start()
    try:
        with BoardClient(board.path) as c:
            try:
                c.request("slow", timeout=0.1)
                raise AssertionError("the slow request should have timed out")
            except Exception as e:  # noqa: BLE001
                assert "no reply to 'slow' from " in str(e)
            assert c.request("info")["which"] == "info"
    finally:
        board.close()


def test_the_tap_sees_every_line_both_ways():
    board = ScriptedBoard(lambda req: [{"event": "button", "seq": 1}, {"id": req["id"], "ok": True}])
    board.start()
    try:
        seen = []
        link = SerialLink(board.path)
        link.tap = lambda arrow, line: seen.append((arrow, json.loads(line)))
        with BoardClient(link=link.open()) as c:
            c.request("stats")
        assert [(arrow, obj.get("cmd") or obj.get("event") or obj.get("ok")) for arrow, obj in seen] == [
            (">", "stats"), ("<", "button"), ("<", True)]
    finally:
        board.close()


def test_line_cutter_keeps_partial_lines_and_cuts_endless_ones():
    cut = LineCutter(longest=8)
    assert cut.feed(b"ab") == [] and cut.feed(b"c\r\n\n  \nde") == [b"abc"]
    assert cut.feed(b"fghijkl") == [b"defghijkl"]  # past 8 bytes without a line end: shown anyway
    assert cut.feed(b"x\n") == [b"x"]


def test_a_request_the_board_compiles_for_is_waited_for_past_the_everyday_timeout():
    # `stats` is answered by code the board compiles for it: on an emulated chip that takes seconds
    asked = []

    def answer(req):
        if req["cmd"] == "stats":
            asked.append(req)  # answered by hand, late
            return []
        return [{"ok": True, "id": req["id"], **STATE}]

    board = ScriptedBoard(answer)
    board.start()
    try:
        with BoardClient(board.path, timeout=0.5) as client:
            client.request("state")
            got = []
            t = threading.Thread(target=lambda: got.append(client.request("stats")), daemon=True)
            t.start()
            until(lambda: asked, 5, "the stats request at the board")
            t.join(1.5)  # three times what an everyday request waits
            assert t.is_alive() and not got
            board.send({"ok": True, "id": asked[0]["id"], "free_heap": 1})
            t.join(10)
            assert got and got[0]["free_heap"] == 1
    finally:
        board.close()


def test_no_reply_from_a_board_that_spoke_is_slowness_and_from_a_silent_port_a_wrong_port(capsys):
    from pegboard.commands.boardargs import fail
    from pegboard.link.errors import BoardError

    board = ScriptedBoard(lambda req: [{"ok": True, "id": req["id"], **STATE}] if req["cmd"] == "state" else [])
    board.start()
    try:
        with BoardClient(board.path, timeout=0.3) as client:
            try:
                client.request("hint")
            except BoardError as e:
                silent = e
            client.request("state")
            try:
                client.request("hint")
            except BoardError as e:
                spoke = e
    finally:
        board.close()
    assert silent.silent and not spoke.silent
    fail(silent)
    assert "is this the board's data port?" in capsys.readouterr().err
    fail(spoke)
    err = capsys.readouterr().err
    assert "is this the board's data port?" not in err and "busy or slow" in err


def test_the_clients_everyday_requests_are_the_firmwares():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))
    from pegboard.link.client import EVERYDAY
    from pegfw.commands import COMMANDS, EVERYDAY as IN_MEMORY

    assert sorted(EVERYDAY) == sorted(cmd for cmd, module in COMMANDS.items() if module == IN_MEMORY)
