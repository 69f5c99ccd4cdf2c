"""The board's hub under load (issue "guard"): eight programs on one simulated board (`pegboard sim`
in its own process), one of them flooding it with requests as fast as the hub takes them, the
seven others asking `state` one at a time, as the mirror and the page do, while a hand lifts and
places pegs. Figures: requests per second through the hub (answered by the board, and refused
`busy` by the hub), the well-behaved programs' worst reply time, sensor events they lost, and
programs dropped (none may be)."""

from __future__ import annotations

import json
import os
import socket
import tempfile
import threading
import time
from typing import Any

from bench.link import SimProcess
from bench.util import figure

SECONDS = 6.0
POLITE = 7          # programs that wait for each reply
FLOOD_BATCH = 500   # the flooder's requests sent at once, again each time it has read their replies
CHANGES_PER_S = 20  # the hand's sensor changes during the load


class Program(threading.Thread):
    """One program on the hub, by its socket, as HubLink speaks to it."""

    def __init__(self, hub: dict[str, Any], name: str, flood: bool) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(tuple(hub["address"]), timeout=30)
        self.sock.sendall(json.dumps({"key": hub["key"], "name": name}).encode() + b"\n")
        self.flood = flood
        self.buf = b""
        self.stop = threading.Event()
        self.replies = self.busy = self.events = 0
        self.worst_s = 0.0
        self.dropped: str | None = None
        self.line()  # the hub's welcome

    def line(self) -> dict[str, Any]:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the hub closed the connection")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\n", 1)
        obj = json.loads(raw)
        if obj.get("hub") in ("dropped", "gone"):
            self.dropped = str(obj.get("message"))
            raise ConnectionError(self.dropped)
        if obj.get("event") in ("lift", "place"):
            self.events += 1
        return obj

    def reply(self) -> dict[str, Any]:
        while True:
            obj = self.line()
            if "id" in obj:
                if obj.get("ok"):
                    self.replies += 1
                elif obj.get("error") == "busy":
                    self.busy += 1
                return obj

    def run(self) -> None:
        try:
            n = 0
            while not self.stop.is_set():
                if self.flood:
                    self.sock.sendall(b"".join(b'{"cmd":"info","id":%d}\n' % (n + k) for k in range(FLOOD_BATCH)))
                    for _ in range(FLOOD_BATCH):
                        self.reply()
                    n += FLOOD_BATCH
                else:
                    t = time.perf_counter()
                    self.sock.sendall(b'{"cmd":"state","id":%d}\n' % n)
                    self.reply()
                    self.worst_s = max(self.worst_s, time.perf_counter() - t)
                    n += 1
        except (ConnectionError, OSError) as e:
            self.dropped = self.dropped or str(e)

    def drain_events(self, seconds: float) -> None:
        """Read what is left (events after the load) for `seconds`."""
        self.sock.settimeout(0.1)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.line()
            except (socket.timeout, ConnectionError, OSError):
                continue


def run() -> dict[str, Any]:
    runtime = tempfile.mkdtemp(prefix="pegboard-bench-hub-")
    old = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = runtime  # this bench's hub, in a runtime folder of its own
    from pegboard.link.hub_link import HubLink, hub_for

    link = os.path.join(runtime, "board")
    sim = SimProcess("--link", link)
    first = None
    programs: list[Program] = []
    try:
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        first = HubLink(link, name="bench").open()  # starts the board's hub, as any program does
        hub = hub_for(link)
        assert hub is not None
        programs = [Program(hub, "polite %d" % k, False) for k in range(POLITE)] + [Program(hub, "flood", True)]
        t0 = time.perf_counter()
        for p in programs:
            p.start()
        changes = 0
        while time.perf_counter() - t0 < SECONDS:  # a hand at the board meanwhile: lift and put back holes 2..15
            sim.control("lift" if (changes // 14) % 2 == 0 else "place", hole=2 + changes % 14)
            changes += 1
            time.sleep(max(0.0, t0 + changes / CHANGES_PER_S - time.perf_counter()))
        for p in programs:
            p.stop.set()
        for p in programs:
            p.join(30)
        elapsed = time.perf_counter() - t0
        sim.control("wait_idle")
        for p in programs[:POLITE]:
            p.drain_events(0.5)
        polite = programs[:POLITE]
        flood = programs[POLITE]
        answered = sum(p.replies for p in programs)
        lost = max(changes - p.events for p in polite)
        dropped = sum(1 for p in programs if p.dropped)
        return {
            "requests_per_s": figure(answered / elapsed, "req/s", None,
                                     what="requests the board answered through its hub, 8 programs, one flooding"),
            "busy_per_s": figure(flood.busy / elapsed, "req/s", None,
                                 what="the flooder's requests the hub refused busy (past 32 on their way)"),
            "others_worst_reply_ms": figure(max(p.worst_s for p in polite) * 1e3, "ms", None,
                                            what="the 7 other programs' worst state round trip during the flood"),
            "others_events_lost": figure(lost, "events", 0,
                                         what="of %d sensor changes, the most any other program missed" % changes),
            "programs_dropped": figure(dropped, "programs", 0),
        }
    finally:
        for p in programs:
            p.sock.close()
        if first is not None:
            first.close()
        sim.close()
        if old is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = old
