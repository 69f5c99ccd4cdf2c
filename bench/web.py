"""The browser page's latency: a simulated board, `pegboard web` on it (its own process, through the
board's hub, as a user runs it) and the page in headless Chromium (the system's, driven by
Playwright). Whole games are played by the simulated hand (its control port); for each move, the
time from the hand pulling the jumped peg (the move complete on the board) to the page drawing the
new move (the page's own clock, Date.now(), when it rendered the state with one move more: the same
PC's wall clock as the bench's). Without Chromium or Playwright the figures say so and are skipped."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.util import figure
from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver

BUDGET_MS = 200
GAMES = 3  # 13 moves each: N = 39


def _chromium() -> str | None:
    import shutil

    given = os.environ.get("PEGBOARD_CHROMIUM")
    if given:
        return given if os.path.exists(given) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def _skipped(why: str) -> dict[str, Any]:
    fig = {"value": None, "unit": "ms", "budget": BUDGET_MS, "ok": True, "skipped": why}
    return {"page_follows_hand_median": fig, "page_follows_hand_worst": dict(fig)}


def _measure(chromium: str) -> list[float]:
    from playwright.sync_api import sync_playwright

    from pegboard.link import runtime_file
    from pegboard.sim.simulator import Simulator

    g = Board(5)
    jumps = [g.move_of(j) for j in Solver(g).solution(start_mask(g, 1))]
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pegboard-bench-web-") as tmp:
        os.environ["XDG_RUNTIME_DIR"] = tmp  # this bench's board and hub only
        link = str(Path(tmp) / "board")
        with Simulator(link=link) as sim:
            announced = runtime_file.write(link, sim.control_path)
            web = subprocess.Popen([sys.executable, "-m", "pegboard", "web", "--port", link, "--web-port", "0"],
                                   stdout=subprocess.PIPE, text=True, env=dict(os.environ))
            try:
                assert web.stdout is not None
                url = web.stdout.readline().split()[1]
                with sync_playwright() as p:
                    browser = p.chromium.launch(executable_path=chromium, headless=True,
                                                args=["--disable-gpu", "--no-sandbox"])
                    page = browser.new_page()
                    page.goto(url)
                    for _ in range(GAMES):
                        sim.control("fill", empty=1)
                        sim.control("wait_idle")
                        page.wait_for_function("pegboardPage.st.mode === 'play' && "
                                               "!(pegboardPage.st.moves || []).length", timeout=15000)
                        for k, (src, over, dst) in enumerate(jumps, 1):
                            sim.control("lift", hole=src)
                            sim.control("place", hole=dst)
                            sim.control("wait_idle")
                            shown_before = page.evaluate("pegboardPage.shown.length")
                            t0 = time.time()
                            sim.control("lift", hole=over)
                            page.wait_for_function("pegboardPage.shown.slice(%d).some(s => s.moves === %d)"
                                                   % (shown_before, k), timeout=5000, polling=5)
                            at = page.evaluate("pegboardPage.shown.slice(%d).filter(s => s.moves === %d)[0].at"
                                               % (shown_before, k))
                            times.append(at / 1000 - t0)
                    browser.close()
            finally:
                web.terminate()
                web.wait(10)
                runtime_file.remove(announced)
    return times


def run() -> dict[str, Any]:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return _skipped("playwright is not installed (the dev extras)")
    chromium = _chromium()
    if chromium is None:
        return _skipped("no Chromium on this machine (Debian: apt-get install chromium)")
    if sys.platform == "win32":
        return _skipped("the simulated board needs pseudo-terminals")
    old = os.environ.get("XDG_RUNTIME_DIR")
    try:
        times = _measure(chromium)
    finally:
        if old is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = old
    ms = [t * 1000 for t in times]
    how = ("the simulated hand pulls the jumped peg -> the page (pegboard web, headless Chromium) draws the move; "
           "%d hand moves, %d games" % (len(ms), GAMES))
    return {
        "page_follows_hand_median": figure(round(statistics.median(ms), 1), "ms", BUDGET_MS, moves=len(ms), note=how),
        "page_follows_hand_worst": figure(round(max(ms), 1), "ms", BUDGET_MS, moves=len(ms)),
    }
