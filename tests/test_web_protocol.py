"""The page's JavaScript modules on their own, in the browser: the protocol module both transports use
(framing, ids, events and resync after a gap, a restart or a reconnect) and the solution-file
checks, which must say what the PC's checks say (host/pegboard/solve/solution_file.py)."""

from __future__ import annotations

import json
import re

import pytest
from websupport import browser  # noqa: F401 - fixture

from pegboard.solve.solution_file import SolutionError, check_solution
from pegboard.web.page import STATIC, single_file


@pytest.fixture(scope="module")
def js(browser):  # noqa: F811
    page = browser.new_page()
    page.set_content("<!doctype html><title>t</title>")
    for name in ("protocol.js", "solution.js"):
        page.add_script_tag(path=str(STATIC / name))
    page.evaluate("""() => {
      window.make = () => {
        const sent = [], events = [];
        const p = new PegProtocol.BoardProtocol(line => sent.push(JSON.parse(line)), {onEvent: e => events.push(e)});
        p.opened();
        return {p, sent, events};
      };
      window.tick = () => new Promise(r => setTimeout(r, 5));
    }""")
    yield page
    page.close()


def test_framing_takes_lines_in_any_chunks_and_skips_what_is_not_an_object(js):
    got = js.evaluate("""() => {
      const {p, events} = make();
      p.receive('{"event":"lift","seq":1,"hole":4}\\r\\n\\n  \\n{"ev');
      p.receive('ent":"place","seq":2,"hole":1}\\nnot json\\n[1, 2]\\n"text"\\n');
      p.receive("x".repeat(PegProtocol.LINE_MAX + 10));      // an overlong line, cut off ...
      p.receive('still the long line {"event":"bad"}\\n');   // ... up to its newline
      p.receive('{"event":"move","seq":3,"move":[4,2,1],"pegs_left":13}\\n');
      return events.map(e => e.event);
    }""")
    assert got == ["lift", "place", "move"]


def test_ids_are_new_at_every_opening_and_a_reply_meets_only_its_request(js):
    got = js.evaluate("""async () => {
      const {p, sent} = make();
      const out = {};
      const a = p.request("state"), b = p.request("hint");
      out.ids = sent.map(r => r.id);
      out.token = p.token;
      p.receive(JSON.stringify({id: "other-1", ok: true, pegs: []}) + "\\n");   // not ours: ignored
      p.receive(JSON.stringify({id: sent[1].id, ok: false, error: "busy", message: "a demo runs"}) + "\\n");
      p.receive(JSON.stringify({id: sent[0].id, ok: true, seq: 4, moves: [], mode: "play"}) + "\\n");
      out.a = (await a).mode;
      out.b = await b.then(() => "answered", e => [e.code, e.message]);
      const old = p.token;
      p.opened();                                    // the port opened again: new ids
      out.newToken = p.token !== old;
      const c = p.request("info");
      p.receive(JSON.stringify({id: old + "-1", ok: true}) + "\\n");           // a late reply of before
      p.receive(JSON.stringify({id: sent[2].id, ok: true, rows: 5}) + "\\n");
      out.c = (await c).rows;
      out.third = sent[2].id;
      out.late = await p.request("state", null, 30).then(() => "answered", e => e.code);
      return out;
    }""")
    token = got["token"]
    assert len(token) == 8 and got["ids"] == [token + "-1", token + "-2"]
    assert got["a"] == "play" and got["b"] == ["busy", "a demo runs"]
    assert got["newToken"] and got["third"].endswith("-1") and not got["third"].startswith(token)
    assert got["c"] == 5 and got["late"] == "no_reply"


def test_a_gap_in_seq_makes_a_resync_that_names_the_moves_missed(js):
    got = js.evaluate("""async () => {
      const {p, sent, events} = make();
      const st = p.request("state");
      p.receive(JSON.stringify({id: sent[0].id, ok: true, seq: 10, empty_start: 1, moves: [[4, 2, 1]], mode: "play"}) + "\\n");
      await st;
      p.receive('{"event":"move","seq":11,"move":[6,5,4],"pegs_left":12}\\n');
      p.receive('{"event":"move","seq":14,"move":[1,3,6],"pegs_left":10}\\n');   // 12 and 13 lost
      await tick();
      const ask = sent[sent.length - 1];
      p.receive(JSON.stringify({id: ask.id, ok: true, seq: 14, empty_start: 1, mode: "play",
                                moves: [[4, 2, 1], [6, 5, 4], [7, 4, 2], [1, 2, 4], [1, 3, 6]]}) + "\\n");
      await tick();
      return {asked: ask.cmd, events: events, gaps: p.gaps};
    }""")
    assert got["asked"] == "state" and got["gaps"] == 1
    resync = got["events"][-1]
    assert resync["event"] == "resync" and resync["reason"] == "gap"
    assert resync["missed"] == [[7, 4, 2], [1, 2, 4], [1, 3, 6]] and resync["undone"] == []
    assert not resync["new_game"] and not resync["rebooted"]


def test_a_restart_and_a_reconnect_each_make_a_resync(js):
    got = js.evaluate("""async () => {
      const {p, sent, events} = make();
      const st = p.request("state");
      p.receive(JSON.stringify({id: sent[0].id, ok: true, seq: 20, empty_start: 1, moves: [[4, 2, 1], [6, 5, 4]], mode: "play"}) + "\\n");
      await st;
      p.receive('{"event":"button","seq":21,"pressed":true}\\n');
      p.receive('{"event":"new_game","seq":1,"empty":5,"start":[1]}\\n');          // seq back to 1
      await tick();
      let ask = sent[sent.length - 1];
      p.receive(JSON.stringify({id: ask.id, ok: true, seq: 1, empty_start: 5, moves: [], mode: "play"}) + "\\n");
      await tick();
      const rebooted = events.filter(e => e.event === "rebooted").length;
      const first = events.filter(e => e.event === "resync").pop();
      // the port goes: a request waiting is answered "disconnected"; back: a resync is due
      const waiting = p.request("hint");
      p.lost("unplugged");
      const lost = await waiting.then(() => "answered", e => e.code);
      const refused = await p.request("hint").then(() => "answered", e => e.code);
      p.back("/dev/ttyACM0");
      await tick();
      ask = sent[sent.length - 1];
      p.receive(JSON.stringify({id: ask.id, ok: true, seq: 5, empty_start: 5, moves: [[14, 9, 5]], mode: "play"}) + "\\n");
      await tick();
      return {rebooted, first, lost, refused, asked: ask.cmd, names: events.map(e => e.event),
              second: events.filter(e => e.event === "resync").pop()};
    }""")
    assert got["rebooted"] == 1
    assert got["first"]["reason"] == "rebooted" and got["first"]["new_game"]
    assert got["lost"] == "disconnected" and got["refused"] == "disconnected"
    assert got["asked"] == "state" and "lost" in got["names"] and "reconnected" in got["names"]
    second = got["second"]
    assert second["reason"] == "reconnect" and second["missed"] == [[14, 9, 5]] and not second["new_game"]


CASES = [
    {"rows": 5, "empty": 4, "moves": [[1, 2, 4], [6, 5, 4]]},
    {"rows": 5, "start": list(range(2, 16)), "moves": [[4, 2, 1]]},
    {"start": [1, 2, 4], "moves": [[1, 2, 4]]},
    [],
    {"rows": 3, "empty": 1, "moves": [[4, 2, 1]]},
    {"rows": 5, "moves": [[4, 2, 1]]},
    {"rows": 5, "empty": 0, "moves": [[4, 2, 1]]},
    {"rows": 5, "empty": 16, "moves": [[4, 2, 1]]},
    {"rows": 5, "start": [], "moves": [[4, 2, 1]]},
    {"rows": 5, "start": [1, 1], "moves": [[4, 2, 1]]},
    {"rows": 5, "start": [0], "moves": [[4, 2, 1]]},
    {"rows": 5, "empty": 1, "moves": []},
    {"rows": 5, "empty": 1, "moves": "4 2 1"},
    {"rows": 5, "empty": 1, "moves": [[4, 2]]},
    {"rows": 5, "empty": 1, "moves": [[4, 2, 16]]},
    {"rows": 5, "empty": 1, "moves": [[4, 3, 1]]},
    {"rows": 5, "empty": 1, "moves": [[4, 2, 1], [4, 2, 1]]},
    {"rows": 6, "empty": 1, "moves": [[4, 2, 1], [11, 7, 4]]},
    {"rows": 5, "empty": None, "start": None, "moves": [[4, 2, 1]]},
]


@pytest.mark.parametrize("sol", CASES, ids=[json.dumps(c)[:40] for c in CASES])
def test_the_page_checks_a_solution_as_the_pc_does(js, sol):
    try:
        want = {"ok": check_solution(sol, "f.json")}
    except SolutionError as e:
        want = {"error": str(e)}
    got = js.evaluate("""(sol) => {
      try { return {ok: PegSolution.checkSolution(sol, "f.json")}; } catch (e) { return {error: e.message}; }
    }""", sol)
    assert got == want


def test_the_file_checks_before_parsing_say_what_the_pc_says(js, tmp_path):
    from pegboard.solve.solution_file import load_solution

    files = {"deep.json": b'{"moves": [[[[[[[[[1]]]]]]]]]}', "bin.json": b'\xff\xfe{"rows": 5}',
             "big.json": b" " * (64 * 1024 + 1), "fine.json": b'{"empty": 1, "moves": [[4, 2, 1]]}'}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        try:
            load_solution(str(tmp_path / name))
            want = "ok"
        except SolutionError as e:
            want = str(e).replace(str(tmp_path / name), name)
        got = js.evaluate("""([bytes, name]) => {
          try { PegSolution.loadSolution(new Uint8Array(bytes), name, 5); return "ok"; } catch (e) { return e.message; }
        }""", [list(data), name])
        assert got == want, name


def test_the_page_on_the_drive_is_one_file_that_needs_nothing_else():
    html = single_file()
    assert "<script src=" not in html and 'rel="stylesheet"' not in html
    assert "PegProtocol" in html and "navigator.serial" in html and ":root {" in html
    # no CDN, no fetch from anywhere: it works offline (the SVG namespace is a name, not a fetch)
    assert not re.search(r"""(src|href)=["']?(https?:)?//|url\(|@import|fetch\(""", html)


