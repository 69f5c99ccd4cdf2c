"""The live mirror's latency: a whole game played by hand on the simulated board (its control port),
and for each move the time from the hand pulling the jumped peg to the terminal UI showing the
move (the hole's label redrawn and the move in the log), with no key pressed. Headless Textual."""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from bench.util import figure
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver


WAIT_S = 5.0  # a move not shown this long is reported as such (a figure over budget), not a crash


async def _game() -> tuple[list[float], list[int]]:
    from pegboard.link.client import BoardClient
    from pegboard.sim.simulator import Simulator
    from pegboard.tui.app import BoardApp

    g = Geometry(5)
    jumps = Solver(g).solution(start_mask(g, 1))
    times: list[float] = []
    missed: list[int] = []  # moves the mirror did not show within WAIT_S
    with Simulator() as sim:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        app = BoardApp(BoardClient(sim.data_path))  # a mirror: the hand is not the app's
        async with app.run_test(size=(80, 24)) as pilot:
            while app.state.get("mode") != "play":
                await pilot.pause(0.02)
            for k, j in enumerate(jumps, 1):
                src, over, dst = g.move_of(j)
                sim.control("lift", hole=src)
                sim.control("place", hole=dst)
                sim.control("wait_idle")
                t = time.perf_counter()
                sim.control("lift", hole=over)
                logged = "%d → %d over %d" % (src, dst, over)
                while not (str(app.query_one("#hole-%d" % over).label).startswith("○")
                           and logged in "\n".join(str(x.text) for x in app.query_one("#log").lines)):
                    if time.perf_counter() - t > WAIT_S:
                        missed.append(k)
                        break
                    await pilot.pause(0.005)
                times.append(time.perf_counter() - t)
            await pilot.press("q")
    return times, missed


def run() -> dict[str, Any]:
    times, missed = asyncio.run(_game())
    return {
        "move_to_screen_median": figure(statistics.median(times), "s", 0.5, moves=len(times),
                                        note="hand's last lift -> hole redrawn and move logged, no key pressed"),
        # a move never shown counts as the whole wait: over budget, and named
        "move_to_screen_worst": figure(max(times), "s", 0.5, not_shown=missed),
    }
