"""The browser page against `pegboard web` on a simulated board, in headless Chromium: a whole game
played by clicks ends with the verdict on the page; a solution file is demonstrated; bad files are
refused with the reason and nothing reaches the board. (The page following the hand within 200 ms
is timed in test_web_timing.py.)"""

from __future__ import annotations

import json
import time

from websupport import Tap, after_the_pages_next_request, browser, board, open_page, wait_page, web  # noqa: F401 - fixtures

from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver


def solution(empty=1):
    g = Board(5)
    return [g.move_of(j) for j in Solver(g).solution(start_mask(g, empty))]


def test_a_whole_game_played_by_clicks_ends_with_the_verdict(browser, board, web):  # noqa: F811
    page = open_page(browser, web.page)
    wait_page(page, "pegboardPage.st.mode === 'play' && pegboardPage.st.pegs.length === 14", what="the game")
    assert page.locator("#hole-1").get_attribute("aria-label") == "hole 1: empty"
    assert "peg" in page.locator("#hole-2").get_attribute("aria-label")
    for k, (f, o, t) in enumerate(solution(), 1):
        page.click("#hole-%d" % f)  # the peg that jumps: lifted, its landings lit
        if k == 1:
            # the lights come a state after the lift: wait for the drawing, not the field
            wait_page(page, "pegboardPage.st.lifted === %d && document.querySelector('#hole-%d')"
                            ".getAttribute('data-role') === 'lifted'" % (f, f), what="the lifted peg drawn")
            assert page.locator("#hole-%d" % t).get_attribute("data-role") == "landing"
            assert page.locator("#hole-%d text.sym" % t).text_content() == "◎"
        page.click("#hole-%d" % t)
        page.click("#hole-%d" % o)
        wait_page(page, "(pegboardPage.st.moves || []).length === %d" % k, what="move %d on the page" % k)
    wait_page(page, "!document.getElementById('banner').hidden", what="the verdict")
    banner = page.inner_text("#banner")
    assert "You won" in banner and "one peg left" in banner and "genius" in banner
    assert page.evaluate("pegboardPage.st.mode") == "over"
    moves = page.locator("#moves li")
    assert moves.count() == 13
    # the moves can be stepped back and forth: the replay board shows the position after each
    page.keyboard.press("[")
    assert "after move 12" in page.inner_text("#replay-caption")
    page.click("#first")
    assert page.inner_text("#replay-caption") == "the start"
    page.keyboard.press("]")
    assert page.inner_text("#replay-caption").startswith("after move 1:")
    wait_page(page, "document.getElementById('stat-wins') && document.getElementById('stat-wins').textContent === '1'",
              what="the stats: one win")
    assert not page.errors


def _upload(page, name, data: bytes):
    page.set_input_files("#file", files=[{"name": name, "mimeType": "application/json", "buffer": data}])


BAD_FILES = [
    ("illegal.json", {"rows": 5, "empty": 1, "moves": [[4, 2, 1], [4, 2, 1]]},
     "illegal.json: move 2 [4, 2, 1]: 4 -> 1 over 2 is not legal here"),
    ("no-jump.json", {"rows": 5, "empty": 1, "moves": [[4, 3, 1]]},
     "no-jump.json: move 1 [4, 3, 1]: 4 -> 1 over 3 is not a jump on this board"),
    ("both.json", {"rows": 5, "empty": 1, "start": [2, 3], "moves": [[4, 2, 1]]},
     "both.json: give the start as empty (one hole) or start (the holes with pegs), one of them"),
    ("six-rows.json", {"rows": 6, "empty": 1, "moves": [[4, 2, 1]]},
     "six-rows.json is for 6 rows (21 holes); this board has 5 rows (15 holes)"),
    ("deep.json", {"rows": 5, "empty": 1, "moves": [[[[[[[[[1]]]]]]]]]}, "deep.json is nested 10 levels deep (at most 8)"),
    ("not-json.json", b"{rows: 5", "not-json.json is not JSON"),
    ("latin1.json", b'{"rows": 5, "empty": 1, "moves": "\xe9"}', "latin1.json is not UTF-8 text"),
    ("huge.json", b" " * (64 * 1024 + 1), "huge.json is over 64 KB"),
]


def test_a_bad_file_is_refused_with_the_reason_and_nothing_is_sent(browser, board, web):  # noqa: F811
    tap = Tap(board.link)
    try:
        page = open_page(browser, web.page)
        for name, content, said in BAD_FILES:
            _upload(page, name, content if isinstance(content, bytes) else json.dumps(content).encode())
            wait_page(page, "document.getElementById('file-msg').textContent.includes(%s)" % json.dumps(name),
                      what="the verdict on %s" % name)
            msg = page.inner_text("#file-msg")
            assert said in msg and "nothing was sent to the board" in msg, (name, msg)
            assert page.locator("#file-msg").get_attribute("class") == "bad"
            assert page.locator("#file-actions").is_hidden()  # nothing to demonstrate
        after_the_pages_next_request(tap, page)
        sent = {o.get("cmd") for o in tap.requests(who="pegboard web")}
        assert sent <= {"state", "info", "stats"}, sent  # no demo, guide or setup reached the board
    finally:
        tap.close()


def test_a_good_file_is_demonstrated_and_the_page_follows_the_demo(browser, board, web):  # noqa: F811
    # the last two moves of a solution: a short demo from a hand-set start
    moves = solution()
    g = Board(5)
    mask = start_mask(g, 1)
    for f, o, t in moves[:-2]:
        mask ^= (1 << f - 1) | (1 << o - 1) | (1 << t - 1)
    start = [h for h in range(1, 16) if mask >> (h - 1) & 1]
    page = open_page(browser, web.page)
    _upload(page, "end.json", json.dumps({"rows": 5, "start": start, "moves": moves[-2:]}).encode())
    wait_page(page, "document.getElementById('file-msg').className === 'good'", what="the file taken")
    assert "2 moves, all legal" in page.inner_text("#file-msg")
    assert page.locator("#moves li").count() == 2
    page.click("#file-demo")
    # the demo lights the jump: the holes say so by symbol as well as colour
    wait_page(page, "pegboardPage.st.mode === 'demo'", what="the demo")
    wait_page(page, "['from','over','to'].every(r => document.querySelector('.hole[data-role=' + r + ']'))",
              what="the lit jump")
    wait_page(page, "pegboardPage.events.some(e => e.event === 'demo_done')", timeout=10, what="the demo's end")
    steps = page.evaluate("pegboardPage.events.filter(e => e.event === 'demo_step').map(e => e.move)")
    assert steps == moves[-2:]
    log = page.inner_text("#log")
    assert "demo done" in log and "the board demonstrates end.json" in log
    assert not page.errors


def test_the_current_move_is_highlighted_with_its_number_clear_of_the_others(browser, board, web):  # noqa: F811
    moves = solution()
    page = open_page(browser, web.page)
    _upload(page, "all.json", json.dumps({"rows": 5, "empty": 1, "moves": moves}).encode())
    wait_page(page, "document.getElementById('file-msg').className === 'good'", what="the file taken")
    page.locator("#moves li").nth(9).click()
    wait_page(page, "document.querySelector('#moves li.current') !== null", what="move 10 current")
    boxes = page.evaluate("""Array.from(document.querySelectorAll('#moves li')).map(li => {
        const r = li.getBoundingClientRect();
        return {x: r.left, y: r.top, r: r.right, b: r.bottom, over: li.scrollWidth - li.clientWidth,
                number: getComputedStyle(li, '::before').content, current: li.className === 'current'}; })""")
    assert [b["current"] for b in boxes].index(True) == 9
    assert all(b["number"] == "counter(move) \".\"" or b["number"].endswith('"."') for b in boxes), boxes[0]
    assert page.evaluate("getComputedStyle(document.getElementById('moves')).listStyleType") == "none"
    for i, a in enumerate(boxes):
        assert a["over"] <= 0, "move %d overflows its box" % (i + 1)  # one line, its number inside it
        assert a["b"] - a["y"] < 2 * (boxes[0]["b"] - boxes[0]["y"]) - 1  # never wrapped onto two lines
        for j, c in enumerate(boxes[:i]):
            apart = a["x"] >= c["r"] or c["x"] >= a["r"] or a["y"] >= c["b"] or c["y"] >= a["b"]
            assert apart, "moves %d and %d overlap" % (j + 1, i + 1)
    assert not page.errors


ROLES_JS = "Array.from(document.querySelectorAll('#board .hole')).map(e => e.getAttribute('data-role'))"


def _roles(page):
    return page.evaluate(ROLES_JS)


def test_every_holes_role_is_the_boards_during_the_celebration_and_each_show(browser, board, web):  # noqa: F811
    """The page draws roles from the board's state, never from its lights: the win's rainbow lights
    every hole, and the page shows the one peg there is; a hint's and a demo's holes are the ones
    the state's `show` names, the others the pegs."""
    page = open_page(browser, web.page)
    wait_page(page, "pegboardPage.st.mode === 'play'", what="the game")
    board.control("set", pegs=[1, 2])
    wait_page(page, "(pegboardPage.st.pegs || []).length === 2", what="two pegs")
    page.keyboard.press("g")  # play from here
    wait_page(page, "pegboardPage.st.mode === 'play' && (pegboardPage.st.start || []).length === 2", what="a game")
    for cmd, hole in (("lift", 1), ("place", 4), ("lift", 2)):
        board.control(cmd, hole=hole)
    wait_page(page, "pegboardPage.st.mode === 'over'", what="the win")
    wait_page(page, "(pegboardPage.st.show || {}).kind === 'over'", what="the celebration")
    for _ in range(10):  # through the rainbow: every drawing shows the one peg
        roles = _roles(page)
        assert [h for h, r in enumerate(roles, 1) if r == "peg"] == [4] and set(roles) == {"peg", "empty"}, roles
        assert "peg" in page.locator("#hole-4").get_attribute("aria-label")
        assert "empty" in page.locator("#hole-1").get_attribute("aria-label")
        time.sleep(0.1)
    # a new game, its hint and a demonstration: the holes the show names, the rest the pegs
    board.control("fill", empty=1)
    wait_page(page, "pegboardPage.st.mode === 'play' && (pegboardPage.st.pegs || []).length === 14", what="a game")
    page.keyboard.press("h")
    wait_page(page, "(pegboardPage.st.show || {}).kind === 'hint' && document.querySelector('.hole[data-role=from]')",
              what="the hint drawn")
    st = page.evaluate("pegboardPage.st")
    roles = _roles(page)
    f, o, t = st["show"]["move"]
    assert (roles[f - 1], roles[o - 1], roles[t - 1]) == ("from", "over", "to")
    assert all(r == ("peg" if h in st["pegs"] else "empty") for h, r in enumerate(roles, 1) if h not in (f, o, t))
    page.keyboard.press("d")
    wait_page(page, "(pegboardPage.st.show || {}).kind === 'demo'", what="the demo")
    for _ in range(5):
        st, roles = page.evaluate("[pegboardPage.st, %s]" % ROLES_JS)
        show = st.get("show") or {}
        if show.get("kind") == "demo":
            move = show.get("move") or []
            for h, r in enumerate(roles, 1):
                want = ("from", "over", "to")[move.index(h)] if h in move else (
                    "demo" if h in show["pegs"] else "empty")
                assert r == want, (h, r, show)
        time.sleep(0.3)
    assert not page.errors


def test_the_pages_v_says_where_a_lost_game_went_wrong(browser, board, web):  # noqa: F811
    import random

    from test_fw_review import lost_game

    start, jumps, k = lost_game(random.Random(4), empty=1)
    g = Board(5)
    board.control("fill", empty=1)
    board.control("wait_idle")
    page = open_page(browser, web.page)
    for j in jumps:
        for cmd, hole in (("lift", g.jump_from[j]), ("place", g.jump_to[j]), ("lift", g.jump_over[j])):
            board.control(cmd, hole=hole + 1)
        board.control("wait_idle")
    wait_page(page, "pegboardPage.st.mode === 'over'", what="the lost game")
    wait_page(page, "document.getElementById('log').textContent.includes('shows where the win was lost')",
              what="the page says how to review it")
    page.keyboard.press("v")
    wait_page(page, "document.getElementById('log').textContent.includes('lost the win')", what="the review")
    f, o, t = g.move_of(jumps[k - 1])
    assert "move %d of the game, %d → %d over %d, lost the win" % (k, f, t, o) in page.inner_text("#log")
    wait_page(page, "pegboardPage.st.show && pegboardPage.st.show.kind === 'review'", what="its lights")
    assert not page.errors
