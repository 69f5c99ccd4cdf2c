"""Link figures over the simulated board's pty: protocol round trip, commands per second,
sensor events per second without loss, reconnect after replug, and the highest LED current of
any frame in a scripted game and demo."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import serial

from bench.util import figure
from pegboard.client import Board
from pegboard.sim import Simulator
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver


def _round_trips(path: str, n: int = 500) -> list[float]:
    s = serial.Serial(path, timeout=2)
    times = []
    for i in range(n):
        t = time.perf_counter()
        s.write(b'{"id":%d,"cmd":"info"}\n' % i)
        line = s.readline()
        times.append(time.perf_counter() - t)
        assert json.loads(line)["id"] == i
    s.close()
    return times


def _throughput(path: str, n: int = 2000, window: int = 8) -> float:
    s = serial.Serial(path, timeout=2)
    t = time.perf_counter()
    sent = got = 0
    while got < n:
        while sent < n and sent - got < window:
            s.write(b'{"id":%d,"cmd":"info"}\n' % sent)
            sent += 1
        if s.readline():
            got += 1
    rate = n / (time.perf_counter() - t)
    s.close()
    return rate


def _events(sim: Simulator, board: Board, seconds: float = 3.0) -> tuple[float, int, int]:
    sim.control("fill", empty=1)
    sim.control("wait_idle")
    board.poll(0.3)
    n = int(seconds * 100) // 28 * 28
    t = time.perf_counter()
    # 100 sensor changes a second across the board: lift holes 2..15 one by one, then put them
    # back (each sensor changes every 140 ms: slower than keypad's 20 ms scan, as hands are)
    for k in range(n):
        hole = 2 + k % 14
        sim.control("lift" if (k // 14) % 2 == 0 else "place", hole=hole)
        time.sleep(max(0.0, t + (k + 1) / 100 - time.perf_counter()))
    sim.control("wait_idle")
    got = [e for e in board.poll(0.5) if e.get("event") in ("lift", "place")]
    return n / (time.perf_counter() - t), n, len(got)


def run() -> dict[str, Any]:
    out: dict[str, Any] = {}
    with Simulator() as sim:
        times = _round_trips(sim.data_path)
        out["round_trip_median"] = figure(statistics.median(times) * 1e3, "ms", 2)
        out["round_trip_p99"] = figure(sorted(times)[int(len(times) * 0.99)] * 1e3, "ms", None)
        out["commands_per_second"] = figure(_throughput(sim.data_path), "commands/s", 1000, lower_is_better=False,
                                            note="8 requests in flight")
        board = Board(sim.data_path).open()
        rate, sent, got = _events(sim, board)
        out["sensor_events_per_second"] = figure(rate, "events/s", 100, lower_is_better=False, sent=sent,
                                                 received=got, lost=sent - got)
        out["sensor_events_lost"] = figure(sent - got, "events", 0)
        # a scripted game by hand and a demo: the highest estimated current of any frame
        g = Geometry(5)
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        for j in Solver(g).solution(start_mask(g, 1)):
            f, o, t = g.move_of(j)
            for cmd, h in (("lift", f), ("place", t), ("lift", o)):
                sim.control(cmd, hole=h)
            sim.control("wait_idle")
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        board.request("brightness", value=100)
        board.request("demo")
        board.wait_for("demo_done", timeout=30)
        out["max_frame_current"] = figure(sim.control("pixels")["max_ma"], "mA", 400, frames=sim.frames)
        board.close()
    with Simulator(link="/tmp/pegboard-bench-link") as sim:
        board = Board("/tmp/pegboard-bench-link", reconnect=5).open()
        board.request("info")
        sim.control("unplug")
        sim.control("replug")
        t = time.perf_counter()
        board.request("info")
        out["reconnect_after_replug"] = figure(time.perf_counter() - t, "s", 2)
        board.close()
    return out
