"""Link figures with the simulated board in its own process (`pegboard sim`), as a host sees it:
protocol round trip and commands per second through the BoardClient, sensor events per second
from the control port without loss, reconnect after replug, and the highest LED current of any
frame in a scripted game and a demo."""

from __future__ import annotations

import json
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from typing import Any

from bench.util import figure
from pegboard.link.client import BoardClient
from pegcore.geometry import Board as Geometry, start_mask
from pegcore.solver import Solver


class SimProcess:
    """`pegboard sim` in a subprocess, with a tiny client for its control port."""

    def __init__(self, *args: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "pegboard", "sim", *args], stdout=subprocess.PIPE, text=True)
        assert self.p.stdout is not None
        self.data = self.p.stdout.readline().split(": ", 1)[1].strip()
        control = self.p.stdout.readline().split(": ", 1)[1].strip()
        self.fd = os.open(control, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.buf = b""

    def control(self, cmd: str, **args: Any) -> dict[str, Any]:
        req = {"cmd": cmd}
        req.update(args)
        os.write(self.fd, (json.dumps(req) + "\n").encode())
        while b"\n" not in self.buf:
            r, _, _ = select.select([self.fd], [], [], 10)
            if not r:
                raise RuntimeError("no reply from the simulator's control port to %s" % cmd)
            self.buf += os.read(self.fd, 4096)
        line, self.buf = self.buf.split(b"\n", 1)
        reply = json.loads(line)
        if not reply.get("ok"):
            raise RuntimeError(reply.get("message"))
        return reply

    def close(self) -> None:
        os.close(self.fd)
        self.p.send_signal(signal.SIGTERM)
        self.p.wait(10)


def _events(sim: SimProcess, board: BoardClient, seconds: float = 3.0) -> tuple[float, int, int]:
    sim.control("fill", empty=1)
    sim.control("wait_idle")
    board.poll(0.3)
    n = int(seconds * 100) // 28 * 28
    t = time.perf_counter()
    # 100 sensor changes a second across the board: lift holes 2..15 one by one, then put them
    # back (each sensor changes every 140 ms: slower than keypad's 20 ms scan, as hands are)
    for k in range(n):
        sim.control("lift" if (k // 14) % 2 == 0 else "place", hole=2 + k % 14)
        time.sleep(max(0.0, t + (k + 1) / 100 - time.perf_counter()))
    rate = n / (time.perf_counter() - t)
    sim.control("wait_idle")
    got = [e for e in board.poll(0.5) if e.get("event") in ("lift", "place")]
    return rate, n, len(got)


def _tree_cpu_s(pid: int) -> float:
    """CPU seconds used so far by process `pid` and its descendants (Linux /proc)."""
    stats = {}
    for path in os.listdir("/proc"):
        if path.isdigit():
            try:
                with open("/proc/%s/stat" % path) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(path)] = (int(fields[1]), int(fields[11]) + int(fields[12]))  # ppid, utime + stime
    tree, total = {pid}, 0
    for _ in range(4):  # pegboard sim -> the firmware's process (and anything under it)
        tree |= {p for p, (ppid, _) in stats.items() if ppid in tree}
    total = sum(stats[p][1] for p in tree if p in stats)
    return total / os.sysconf("SC_CLK_TCK")


def _idle_cpu_percent(sim: SimProcess, seconds: float = 2.0) -> float:
    time.sleep(0.3)  # longer than the simulated board's quiet time before it waits instead of spinning
    a = _tree_cpu_s(sim.p.pid)
    time.sleep(seconds)
    return (_tree_cpu_s(sim.p.pid) - a) / seconds * 100


def _round_trips(board: BoardClient, cmd: str, n: int) -> list[float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        board.request(cmd)
        times.append(time.perf_counter() - t)
    return times


def run() -> dict[str, Any]:
    out: dict[str, Any] = {}
    link = os.path.join(tempfile.mkdtemp(prefix="pegboard-bench-"), "board")
    sim = SimProcess("--link", link)
    try:
        board = BoardClient(link, reconnect=5).open()  # the stable link, as udev gives a real board
        board.request("state")
        times = _round_trips(board, "state", 1000)
        out["round_trip_median"] = figure(statistics.median(times) * 1e3, "ms", 2,
                                          command="state (the everyday request: the mirror's)")
        out["round_trip_p99"] = figure(sorted(times)[int(len(times) * 0.99)] * 1e3, "ms", None)
        rare = _round_trips(board, "info", 200)
        out["round_trip_rare_request"] = figure(statistics.median(rare) * 1e3, "ms", None, command="info",
                                                note="the rarer requests compile their module for the answer "
                                                     "(CPython here; see firmware.code_load_on_demand_worst)")
        t = time.perf_counter()
        n = 0
        while time.perf_counter() - t < 2.0:
            board.request("state")
            n += 1
        out["commands_per_second"] = figure(n / (time.perf_counter() - t), "commands/s", 1000, lower_is_better=False,
                                            command="state (the largest reply), one at a time")
        rate, sent, got = _events(sim, board)
        out["sensor_events_per_second"] = figure(rate, "events/s", 100 * 0.98, lower_is_better=False, sent=sent,
                                                 received=got)
        out["sensor_events_lost"] = figure(sent - got, "events", 0)
        g = Geometry(5)
        board.request("roles", name="motion")  # the roles' patterns and the piezo's tunes running too
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        for j in Solver(g).solution(start_mask(g, 1)):
            f, o, t2 = g.move_of(j)
            for cmd, h in (("lift", f), ("place", t2), ("lift", o)):
                sim.control(cmd, hole=h)
            sim.control("wait_idle")
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        board.request("brightness", value=100)
        board.request("demo")
        board.wait_for("demo_done", timeout=30)
        px = sim.control("pixels")
        out["max_frame_current"] = figure(px["max_ma"], "mA", 400, frames=px["frames"],
                                          note="a game by hand, then a demo at 100 % brightness; roles in motion, "
                                                     "the piezo sounding", tones=len(sim.control("tones")["tones"]))
        sim.control("unplug")
        sim.control("replug")
        t = time.perf_counter()
        board.request("info")
        out["reconnect_after_replug"] = figure(time.perf_counter() - t, "s", 2)
        board.close()
        out["idle_simulator_cpu"] = figure(_idle_cpu_percent(sim), "% of a core", 25,
                                           note="`pegboard sim` and its firmware process, nobody touching "
                                                "the board: a quiet simulated board waits instead of spinning")
    finally:
        sim.close()
    return out
