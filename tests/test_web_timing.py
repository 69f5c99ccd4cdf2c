"""Timing and load, in one file so that the twenty browsers never run beside the timing (`make test`
runs a file's tests one after another in one process): the page follows moves made by the simulated hand
within 200 ms, measured from the hand's move to the page drawing it; twenty browsers follow a whole
demo with no event lost while the board's loop stays within its budget (the server shares one
`state` among the pages that ask together)."""

from __future__ import annotations

import statistics
import time

import pytest
from websupport import Tap, WebProcess, announced_board, browser, board, open_page, wait_page, web  # noqa: F401 - fixtures

from test_web_page import solution

FOLLOW_BUDGET_MS = 200
LOOP_PASS_BUDGET_MS = 100  # the firmware's budget for a loop pass (README, "Measured figures")


def test_the_page_follows_moves_made_by_the_hand_within_200_ms(browser, board, web):  # noqa: F811
    page = open_page(browser, web.page)
    wait_page(page, "pegboardPage.st.mode === 'play'", what="the game")
    latencies = []
    for k, (f, o, t) in enumerate(solution(), 1):
        board.control("lift", hole=f)
        board.control("place", hole=t)
        board.control("wait_idle")
        t0 = time.time()
        board.control("lift", hole=o)  # the jump is complete: the board sends `move`
        wait_page(page, "pegboardPage.shown.some(s => s.moves === %d)" % k, timeout=5, what="move %d" % k)
        shown = page.evaluate("pegboardPage.shown.filter(s => s.moves === %d)[0].at" % k)
        latencies.append(shown / 1000 - t0)
    wait_page(page, "!document.getElementById('banner').hidden", what="the verdict")
    assert "You won" in page.inner_text("#banner")
    worst = max(latencies) * 1000
    print("page follows the hand: median %.0f ms, worst %.0f ms over %d moves"
          % (statistics.median(latencies) * 1000, worst, len(latencies)))
    # the median holds the budget here; a single late move on a machine busy with the rest of the
    # suite is not the page's doing, so the worst is held to the budget by `make bench` (bench/web.py,
    # a quiet run), and here only to a bound that a page that missed events would break
    assert statistics.median(latencies) * 1000 <= FOLLOW_BUDGET_MS, latencies
    assert worst <= 5 * FOLLOW_BUDGET_MS, latencies


@pytest.fixture
def thumb_board(tmp_path):
    """The simulated board on thumbvm: the firmware on an emulated Cortex-M0+, each loop pass timed
    in the chip's own cycles (the PC's load does not change them), as the README's figures are."""
    yield from announced_board(tmp_path, "thumb")


def test_twenty_browsers_follow_a_demo_with_no_event_lost(browser, thumb_board):  # noqa: F811
    sim = thumb_board
    w = WebProcess(sim.link)
    tap = Tap(sim.link)
    try:
        pages = [open_page(browser, w.page, width=640, height=480) for _ in range(20)]
        for p in pages:
            wait_page(p, "pegboardPage.st.mode === 'play'", timeout=20, what="the game")
        # a demo started and stopped with one page watching: its code's first compile is the longest
        # pass a demo's start has (README: "the same, a pass that compiles a rare request's code")
        pages[0].evaluate("pegboardPage.proto.request('demo')")
        wait_page(pages[0], "pegboardPage.events.some(e => e.event === 'demo_step')", timeout=20, what="a demo step")
        pages[0].evaluate("pegboardPage.proto.request('stop')")
        wait_page(pages[0], "pegboardPage.events.some(e => e.event === 'demo_done')", timeout=20, what="the stop")
        time.sleep(0.5)
        longest_before = sim.longest_pass_ms
        before = len(tap.requests("state", who="pegboard web"))
        states_before = sum(p.evaluate("pegboardPage.states") for p in pages)
        count_before = [p.evaluate("pegboardPage.events.length") for p in pages]
        pages[-1].keyboard.press("d")  # a whole demo with twenty pages watching: 13 moves, 1.2 s each
        for p in pages:
            wait_page(p, "pegboardPage.events.filter(e => e.event === 'demo_done').length === 2", timeout=60,
                      what="the demo's end")
        for n, p in enumerate(pages):
            events = p.evaluate("pegboardPage.events.slice(%d)" % count_before[n])
            seqs = [e["seq"] for e in events if isinstance(e.get("seq"), int)]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), (n, seqs)  # no gap: nothing lost
            assert [e["step"] for e in events if e["event"] == "demo_step"] == list(range(1, 14)), n
            assert not [e for e in events if e["event"] in ("resync", "lost")], n
            assert not p.errors
        asked = sum(p.evaluate("pegboardPage.states") for p in pages) - states_before
        reached = len(tap.requests("state", who="pegboard web")) - before
        print("20 pages drew %d states; %d state requests reached the board; longest loop pass %d ms "
              "(chip time; %d ms before the twenty watched)" % (asked, reached, sim.longest_pass_ms, longest_before))
        assert reached * 4 < asked  # the pages share the board's replies
        # no loop pass while they watched went past the budget (or the demo start's own compile pass):
        # the simulator hears of each new longest pass, in the emulated chip's cycles
        assert sim.longest_pass_ms <= max(longest_before, LOOP_PASS_BUDGET_MS)
        assert sim.control("status")["chip_watchdog_resets"] == 0
    finally:
        tap.close()
        w.stop()


