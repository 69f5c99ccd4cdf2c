"""The simulated data port is a faithful USB CDC port: a bounded receive buffer whose flow control
makes the host's writes wait, on both runtimes; pipelined bursts are answered in full, and odd
request lines (names of 252+ characters, odd types) get one reply each on the MicroPython VM too."""

import json
import threading
import time

import pytest
import serial
from support import runtimes

from pegboard.sim.simulator import Simulator


@pytest.fixture(params=runtimes("chip"))
def sim(request):
    with Simulator(runtime=request.param) as s:
        yield s


def burst(sim, lines, timeout=60):
    """Write `lines` as fast as the port takes them (a writer thread, as a pipelining host would)
    and read every reply; returns (replies, seconds the writes spent waiting). `timeout`: the
    longest wait for the next reply (the board's pace sets how long the whole burst takes: a
    busy machine slows the emulated chips)."""
    s = serial.Serial(sim.data_path, timeout=0.5, write_timeout=timeout)
    waited = [0.0]

    def writer():
        data = b"".join(line + b"\n" for line in lines)
        t = time.monotonic()
        for k in range(0, len(data), 4096):
            s.write(data[k:k + 4096])
        waited[0] = time.monotonic() - t

    w = threading.Thread(target=writer)
    w.start()
    replies = []
    buf = b""
    deadline = time.monotonic() + timeout
    while len(replies) < len(lines) and time.monotonic() < deadline:
        buf += s.read(s.in_waiting or 1)
        while b"\n" in buf:
            raw, buf = buf.split(b"\n", 1)
            obj = json.loads(raw)
            if "event" not in obj:
                replies.append(obj)
                deadline = time.monotonic() + timeout  # it is still answering
    w.join(timeout)
    s.close()
    return replies, waited[0]


def test_a_pipelined_burst_is_answered_in_full_and_the_host_waits(sim):
    sim.control("fill", empty=1)
    sim.control("wait_idle")
    # thumb answers at the chip's own speed (tens of ms a request): fewer lines, more time
    n = 2000 if sim.runtime in ("micropython", "chip") else 1000
    lines = [json.dumps({"id": k, "cmd": ("stats", "state", "info", "nope")[k % 4]}).encode() for k in range(n)]
    replies, waited = burst(sim, lines, timeout=60)
    assert len(replies) == n, "%d of %d replies came (then none for 60 s)" % (len(replies), n)
    assert [r["id"] for r in replies] == list(range(n))
    assert all(r["ok"] == (k % 4 != 3) for k, r in enumerate(replies))
    assert waited > 0.05  # the port was full now and then: the host's writes waited
    status = sim.control("status")
    assert status["running"] and status["resets"] == 0  # on the chip runtime: no pass too long either


def test_odd_lines_each_get_one_reply(sim):
    lines = [json.dumps({"id": k, "cmd": c}).encode() for k, c in enumerate(
        ["x" * 252, "y" * 300, "state" * 80, "", None, 7, [], {"a": 1}, "Info", "cmd_state"])]
    lines += [json.dumps({"id": 100 + k, "cmd": "watch", "step": v}).encode() for k, v in enumerate([1, "yes", [], False])]
    replies, _ = burst(sim, lines, timeout=30)
    assert len(replies) == len(lines) and all(r["ok"] is False for r in replies)
    assert sim.control("status")["resets"] == 0


def test_a_burst_of_rare_requests_does_not_hold_the_loop():
    # each stats compiles its module on the chip (bench: longest_loop_pass_compiling): many in one pass would keep
    # the watchdog unfed for seconds and reset the board. On the thumb runtime, whose chip time is the emulated
    # chip's cycles (chipvm's is its PC time times an assumed factor, which a loaded machine stretches)
    with Simulator(runtime="thumb") as sim:
        lines = [b'{"cmd":"stats"}'] * 30
        replies, _ = burst(sim, lines, timeout=300)
        assert len(replies) == 30 and all(r["ok"] for r in replies)
        st = sim.control("status")
        assert st["chip_watchdog_resets"] == 0 and st["resets"] == 0, st["console"][-3:]
