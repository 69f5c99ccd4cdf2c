"""Many browsers on one `pegboard web`: two at once see the same events and each gets its own replies;
with --host a page without the token only watches: its requests are refused before the board hears
of them; a page that goes away costs the board nothing. (Twenty at once: test_web_timing.py.)"""

from __future__ import annotations


from websupport import (Tap, WebProcess, after_the_pages_next_request, browser, board, open_page, replies_received, wait_page,  # noqa: F401
                        web)


def _seqs(page):
    return page.evaluate("pegboardPage.events.filter(e => typeof e.seq === 'number').map(e => e.seq)")


def _ask(page, cmd):
    """(the id the page's request went under, its reply): the request made through the page's own
    protocol module, its id read in the same turn of the page's event loop."""
    got = page.evaluate("cmd => { const p = pegboardPage.proto; const r = p.request(cmd); const id = p.token + '-' + "
                        "p.counter; return r.then(reply => ({id: id, reply: reply})); }", cmd)
    return got["id"], got["reply"]


def test_two_browsers_see_the_same_events_and_each_its_own_replies(browser, board, web):  # noqa: F811
    a = open_page(browser, web.page)
    b = open_page(browser, web.page, width=390, height=844)  # a phone beside a laptop
    for p in (a, b):
        wait_page(p, "pegboardPage.st.mode === 'play'", what="the game")
    a.click("#hole-4")
    a.click("#hole-1")
    a.click("#hole-2")
    for p in (a, b):
        wait_page(p, "(pegboardPage.st.moves || []).length === 1", what="the move on both pages")
    b.keyboard.press("h")  # the phone asks for a hint: both pages see it, only b gets the reply
    for p in (a, b):
        wait_page(p, "pegboardPage.events.some(e => e.event === 'hint')", what="the hint on both pages")
    hint_seq = a.evaluate("pegboardPage.events.filter(e => e.event === 'hint')[0].seq")
    assert hint_seq == b.evaluate("pegboardPage.events.filter(e => e.event === 'hint')[0].seq")
    assert [s for s in _seqs(a) if s <= hint_seq][-5:] == [s for s in _seqs(b) if s <= hint_seq][-5:]
    # the same request from each page is answered to the page that asked alone: each reply, under
    # the asker's own id, reaches that page once and never the other (what their sockets received)
    b_id, got = _ask(b, "stats")
    a_id, _ = _ask(a, "stats")
    assert got["games"] >= 1 and a_id != b_id
    _ask(b, "info")  # b's socket is in order: a reply wrongly sent to b would have come before this one
    _ask(a, "info")
    for asker, other, rid in ((a, b, a_id), (b, a, b_id)):
        assert [r["id"] for r in replies_received(asker)].count(rid) == 1
        assert rid not in [r["id"] for r in replies_received(other)], rid
    assert not a.errors and not b.errors
    # a page that goes away leaves the board and the other page as they were
    a.context.close()
    b.keyboard.press("s")
    b.click("#hole-7")
    wait_page(b, "pegboardPage.st.lifted === 7", what="b still plays")


def test_with_host_a_viewer_without_the_token_cannot_send_a_request(browser, board):  # noqa: F811
    w = WebProcess(board.link, "--host", "127.0.0.2")
    tap = Tap(board.link)
    try:
        assert w.view is not None and "token" not in w.view and w.view.startswith("http://127.0.0.2:")
        viewer = open_page(browser, w.view)
        player = open_page(browser, w.page)
        assert viewer.evaluate("pegboardPage.control") is False and player.evaluate("pegboardPage.control") is True
        assert viewer.locator("button[data-act=hint]").is_disabled()
        assert "watching" in viewer.inner_text("#howto")
        # nothing to press: no greyed controls, and the board takes the room they took
        assert not viewer.locator("#controls").is_visible() and not viewer.locator("#upload").is_visible()
        assert player.locator("#controls").is_visible()
        width = "document.querySelector('#board .board-svg').getBoundingClientRect().width"
        assert viewer.evaluate(width) > 1.2 * player.evaluate(width)
        wait_page(viewer, "document.getElementById('log').textContent.length > 0", what="the log's first line")
        first = viewer.inner_text("#log").splitlines()[0]
        assert first.startswith("connected to the simulated board through pegboard web"), first
        # straight through the protocol module, past the page's own checks: refused by the server
        err = viewer.evaluate("pegboardPage.proto.request('hint').then(() => 'answered', e => e.code)")
        assert err == "read_only"
        err = viewer.evaluate("pegboardPage.proto.request('demo').then(() => 'answered', e => e.code)")
        assert err == "read_only"
        refused = viewer.evaluate("pegboardPage.transport.hand('lift', {hole: 2}).then(() => 'moved', e => e.message)")
        assert "only watches" in refused
        assert viewer.evaluate("pegboardPage.proto.request('state').then(r => r.mode)") == "play"  # reads are fine
        after_the_pages_next_request(tap, viewer)
        assert not tap.requests("hint") and not tap.requests("demo")  # never reached the board
        assert board.control("sensors")["pegs"] == list(range(2, 16))  # and no peg moved
        # the player's page plays; the viewer sees it
        player.keyboard.press("h")
        wait_page(viewer, "pegboardPage.events.some(e => e.event === 'hint')", what="the player's hint on the viewer")
        assert len(tap.requests("hint")) == 1
    finally:
        tap.close()
        w.stop()
