"""Protocol edges (docs/protocol.md): one reply per request line whatever its fields, null is the
same as absent for every argument, `step` must be true, and a request made while something runs
either answers busy (leaving it running) or ends it with its done event: every pair."""

import json

import pytest
from fakehw import make_app, run

from pegcore.geometry import Board, start_mask

B = Board(5)
MOVES = [[4, 2, 1], [6, 5, 4]]
RUNNING = {  # what runs -> the request that starts it
    "nothing": None,
    "hint": {"cmd": "hint"},
    "demo": {"cmd": "demo"},
    "guide": {"cmd": "guide", "moves": MOVES},
    "watch": {"cmd": "watch"},
    "watch_step": {"cmd": "watch", "step": True},
    "selftest": {"cmd": "selftest", "seconds": 30},
}
REQUESTS = [{"cmd": "hint"}, {"cmd": "demo"}, {"cmd": "guide", "moves": MOVES}, {"cmd": "watch"},
            {"cmd": "watch", "step": True}, {"cmd": "selftest"}, {"cmd": "stop"}, {"cmd": "state"},
            {"cmd": "info"}, {"cmd": "solve"}, {"cmd": "stats"}, {"cmd": "brightness", "value": 50},
            {"cmd": "theme", "name": "wooden"}]
DONE = {"demo": "demo_done", "watch": "watch_done", "watch_step": "watch_done", "selftest": "selftest_done",
        "guide": "guide_off"}


def lines(hw):
    return [json.loads(x) for x in hw.serial.lines()]


def send(app, hw, req, ms=20):
    hw.serial.rx += (json.dumps(req) + "\n").encode()
    run(app, hw, ms)
    return lines(hw)


def running(app):
    return app.shows.kind or ("guide" if app.guide is not None else None)


def alive(app, what):
    if what == "guide":
        return app.guide is not None
    return app.shows.kind == {"watch_step": "watch", "nothing": None}.get(what, what)


def game():
    hw, app = make_app()
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 200)
    hw.serial.lines()
    return hw, app


@pytest.mark.parametrize("what", list(RUNNING))
def test_every_request_while_something_runs_is_busy_or_ends_it_with_its_done_event(what):
    for req in REQUESTS:
        hw, app = game()
        if RUNNING[what]:
            got = send(app, hw, dict(RUNNING[what], id=1))
            assert [r for r in got if r.get("id") == 1][0]["ok"] is True
        got = send(app, hw, dict(req, id=2))
        replies = [r for r in got if "event" not in r]
        assert len(replies) == 1 and replies[0]["id"] == 2, (what, req, got)
        reply = replies[0]
        if not reply["ok"]:
            assert reply["error"] == "busy" and alive(app, what), (what, req, reply)
        elif what in DONE and not alive(app, what):
            assert [e for e in got if e.get("event") == DONE[what]], (what, req, got)
        if busy_expected(what, req):
            assert not reply["ok"] and reply["error"] == "busy", (what, req, reply)
        else:
            assert reply["ok"], (what, req, reply)


def busy_expected(what, req):
    """The documented rule: demo, guide, watch and selftest start only when none of them runs
    (a running watch takes step: true, and goes on a step at a time); hint waits for demo, watch
    and selftest (a guide may take hints)."""
    shows = ("demo", "guide", "watch", "watch_step", "selftest")
    cmd = req["cmd"]
    if cmd == "watch" and req.get("step") and what in ("watch", "watch_step"):
        return False
    if cmd in ("demo", "guide", "selftest", "watch"):
        return what in shows
    if cmd == "hint":
        return what in ("demo", "watch", "watch_step", "selftest")
    return False


@pytest.mark.parametrize("line", [
    {"cmd": "x" * 252}, {"cmd": "y" * 400}, {"cmd": "stat" + "e" * 300}, {"cmd": ""}, {"cmd": "ÿ"},
    {"cmd": "state" * 60}, {"cmd": "Info"}, {"cmd": "cmd_state"}, {"cmd": "__init__"},
    {"cmd": "watch", "step": 1}, {"cmd": "watch", "step": "yes"}, {"cmd": "watch", "step": []},
    {"cmd": "watch", "step": False}, {"cmd": "selftest", "seconds": "5"}, {"cmd": "demo", "empty": [1]},
    {"cmd": "guide", "moves": None}, {"cmd": "guide", "moves": {"a": 1}}, {"cmd": "brightness", "value": 1.5},
    {"cmd": "theme", "name": 7}, {"cmd": "solve", "finish": "1"},
])
def test_odd_fields_get_exactly_one_error_reply_and_change_nothing(line):
    hw, app = game()
    before = send(app, hw, {"cmd": "state", "id": 0})[-1]
    got = send(app, hw, dict(line, id=9))
    replies = [r for r in got if "event" not in r]
    assert len(replies) == 1 and replies[0]["id"] == 9 and replies[0]["ok"] is False
    assert replies[0]["error"] in ("unknown_cmd", "bad_args")
    after = send(app, hw, {"cmd": "state", "id": 0})[-1]
    assert (after["mode"], after["pegs"], after["brightness"]) == (before["mode"], before["pegs"], before["brightness"])
    assert running(app) is None and app.errors == 0


@pytest.mark.parametrize("req,field,default", [
    ({"cmd": "selftest", "seconds": None}, "seconds", 10), ({"cmd": "watch", "speed": None}, "speed", 150),
    ({"cmd": "watch", "step": None}, "speed", 150), ({"cmd": "brightness", "value": None}, "value", 40),
    ({"cmd": "theme", "name": None}, "name", "plain"), ({"cmd": "demo", "empty": None, "moves": None}, "moves", None),
    ({"cmd": "solve", "finish": None}, "moves", None),
])
def test_null_is_the_same_as_absent(req, field, default):
    hw, app = game()
    reply = [r for r in send(app, hw, dict(req, id=3)) if r.get("id") == 3][0]
    assert reply["ok"] is True, reply
    if default is not None:
        assert reply[field] == default


def test_watch_step_must_be_true():
    hw, app = game()
    assert [r for r in send(app, hw, {"id": 1, "cmd": "watch", "step": True}) if r.get("id") == 1][0]["speed"] == 0
    assert [r for r in send(app, hw, {"id": 2, "cmd": "watch", "step": True}) if r.get("id") == 2][0]["step"] >= 1
    bad = [r for r in send(app, hw, {"id": 3, "cmd": "watch", "step": 1}) if r.get("id") == 3][0]
    assert bad["error"] == "bad_args"


def test_selftest_runs_its_seconds_then_says_done():
    hw, app = game()
    assert [r for r in send(app, hw, {"id": 1, "cmd": "selftest", "seconds": 3}) if r.get("id") == 1][0]["ok"]
    run(app, hw, 2500)
    assert running(app) == "selftest"  # the chase is over, the sensor readout goes on
    lines(hw)
    run(app, hw, 600)
    assert [e for e in lines(hw) if e.get("event") == "selftest_done"] == [
        {"event": "selftest_done", "seq": app.link.seq, "stopped": False}]


# the host tool's own request lines, and lines a byte away from them: the short way through
# parse_request (pegfw.protocol._as_sent, which skips the JSON scan) must answer each as the long
# way does
AS_SENT = [b'{"id": 7, "cmd": "hint"}', b'{"id": 0, "cmd": "state"}', b'{"id": 123456789012, "cmd": "a_b"}',
           b'{"id":"h1f","cmd":"hint"}', b'{"id":"0","cmd":"stats"}']
NEAR = [b'{"id": 07, "cmd": "hint"}', b'{"id": -7, "cmd": "hint"}', b'{"id": 7, "cmd": "hi"nt"}',
        b'{"id": 7, "cmd": "hint", "x": 1}', b'{"id": , "cmd": "hint"}', b'{"id": 7, "cmd": ""}',
        b'{"id":"H1","cmd":"hint"}', b'{"id":"h 1","cmd":"hint"}', b'{"id":"h1","cmd":"hint"', b'{"id": 7 "cmd": "hint"}',
        b'{"id": 7, "cmd": "hint"}}', b'{"id": 7, "cmd": "' + b"x" * 21 + b'"}', b'{"id":"h1","cmd":"hint"} x',
        b'{"id": 1.5, "cmd": "hint"}', b'{"id": 7, "cmd": "h\\u0069nt"}', b'{"id":"h1", "cmd":"hint"}']


def _parse(line, short):
    from pegfw import protocol

    saved = protocol._as_sent
    if not short:
        protocol._as_sent = lambda line: None
    try:
        return protocol.parse_request(line)
    except protocol.ProtocolError as e:
        return ("refused", e.code, e.message, e.rid)
    finally:
        protocol._as_sent = saved


@pytest.mark.parametrize("line", AS_SENT + NEAR)
def test_the_host_tools_own_lines_are_read_as_the_full_json_reading_reads_them(line):
    assert _parse(line, True) == _parse(line, False)


def test_the_host_tools_own_lines_take_the_short_way():
    from pegfw import protocol

    assert [protocol._as_sent(line) is not None for line in AS_SENT] == [True] * len(AS_SENT)
    assert [protocol._as_sent(line) for line in NEAR] == [None] * len(NEAR)
    assert protocol._as_sent(b'{"id": 7, "cmd": "hint"}') == (7, "hint")
    assert protocol._as_sent(b'{"id":"h1f","cmd":"hint"}') == ("h1f", "hint")


def test_the_host_tools_lines_are_the_ones_the_short_way_knows():
    """The link writes {"id": N, "cmd": C} as json.dumps spaces it; the hub numbers a program's
    request (a page's puts its cmd first) with its own id, put first, compact: if either changed,
    hints would still be answered, only slower (bench: firmware.request_to_hint_lights_p99)."""
    import json as _json

    from pegboard.link.hub import numbered
    from pegfw import protocol

    assert protocol._as_sent(_json.dumps({"id": 41, "cmd": "hint"}).encode()) == (41, "hint")
    assert protocol._as_sent(numbered({"cmd": "hint", "id": 5}, "h%x" % 300)) == ("h12c", "hint")
    assert protocol._as_sent(numbered({"cmd": "hint"}, "h1")) == ("h1", "hint")
