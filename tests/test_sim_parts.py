"""The simulator's parts on their own, without a firmware process: the wait_idle handshake, the
timers, the data port's buffers and cable, the LED chain's decoding."""

import os
import time

from pegboard.sim.data_port import RX_FIFO, DataPort
from pegboard.sim.event_loop import Timers
from pegboard.sim.idle_wait import DEADLINE_S, SCAN_S, SETTLE_S, IdleWaits
from pegboard.sim.led_chain import MA_PER_CHANNEL, LedChain

LATER = 3600.0  # a "now" past every timer set in these tests


def test_timers_run_when_due_in_time_order():
    t = Timers()
    ran = []
    t.after(0.2, lambda: ran.append("b"))
    t.after(0.1, lambda: ran.append("a"))
    t.after(0.2, lambda: ran.append("c"))  # same time as "b": set after it, runs after it
    t.run_due(time.monotonic() - 1)
    assert ran == []
    t.run_due(time.monotonic() + LATER)
    assert ran == ["a", "b", "c"]
    t.run_due(time.monotonic() + LATER)
    assert ran == ["a", "b", "c"]  # each runs once


def _waits():
    timers = Timers()
    log = []
    waits = IdleWaits(timers, lambda n: log.append(("ping", n)), lambda rid, f: log.append(("reply", rid, f)),
                      lambda rid, code, msg: log.append(("error", rid, code)))
    return timers, waits, log


def test_wait_idle_answers_after_two_pongs_a_settle_time_apart():
    timers, waits, log = _waits()
    t0 = time.monotonic()
    waits.start("r1")
    timers.run_due(t0 + SCAN_S - 0.01)
    assert log == []  # the keypad has not scanned the latest pins yet
    timers.run_due(t0 + SCAN_S + 0.01)
    assert log == [("ping", 1)]
    waits.pong(1)
    assert ("reply", "r1", {"idle": True}) not in log  # idle once is not enough: the settle time
    timers.run_due(time.monotonic() + SETTLE_S + 0.01)
    assert log[-1] == ("ping", 2)
    waits.pong(2)
    assert log[-1] == ("reply", "r1", {"idle": True})


def test_wait_idle_times_out_and_forgets_pings_at_a_power_cycle():
    timers, waits, log = _waits()
    waits.start("r1")
    waits.expire(time.monotonic() + DEADLINE_S + 1)
    assert log == [("error", "r1", "timeout")]
    waits.start("r2")
    timers.run_due(time.monotonic() + LATER)
    waits.forget()
    waits.pong(2)  # the old firmware's answer, after the reset
    timers.run_due(time.monotonic() + LATER)  # a wait still under way would ping again now
    waits.expire(time.monotonic() + DEADLINE_S + 1)
    # r1's ping still goes out (its timer was set); no pong answers a forgotten wait, none times out
    assert log == [("error", "r1", "timeout"), ("ping", 1), ("ping", 2)]


def test_a_timeout_tells_the_firmwares_last_console_line():
    errors = []
    lines = []
    waits = IdleWaits(Timers(), lambda n: None, lambda rid, f: None, lambda rid, code, msg: errors.append(msg),
                      last_words=lambda: lines[-1] if lines else None)
    waits.start("r1")
    waits.expire(time.monotonic() + DEADLINE_S + 1)
    lines.append("pegboard: cannot start: MemoryError('memory allocation failed')")
    waits.start("r2")
    waits.expire(time.monotonic() + DEADLINE_S + 1)
    assert errors == ["the firmware did not go idle", "the firmware did not go idle (its console's last line: "
                      "pegboard: cannot start: MemoryError('memory allocation failed'))"]


def test_data_port_flow_control_and_cable(tmp_path):
    sent = []
    link = str(tmp_path / "board")
    port = DataPort(link, sent.append)
    try:
        assert os.path.realpath(link) == os.path.realpath(port.path)
        # the host does not read: past the CDC buffer the firmware is told its writes are full
        for _ in range(400):
            port.from_firmware(b"x" * 256)
            if {"t": "txfull", "v": True} in sent:
                break
        assert {"t": "txfull", "v": True} in sent
        host = os.open(port.path, os.O_RDWR | os.O_NOCTTY)
        os.set_blocking(host, False)
        try:
            deadline = time.monotonic() + 10
            while sent[-1] != {"t": "txfull", "v": False} and time.monotonic() < deadline:
                try:  # the host reads: room again
                    os.read(host, 65536)
                except BlockingIOError:
                    pass
                port.drain()
            assert sent[-1] == {"t": "txfull", "v": False}
            # host -> firmware: never more than the firmware's receive buffer takes
            os.write(host, b"y" * (RX_FIFO + 100))
            while port.rx_room > 0 and time.monotonic() < deadline:
                port.from_host()
            rx = [m for m in sent if m["t"] == "rx"]
            assert sum(len(m["d"]) // 2 for m in rx) == RX_FIFO and port.readable_fd() is None
            port.from_host()
            assert sum(len(m["d"]) // 2 for m in sent if m["t"] == "rx") == RX_FIFO  # the rest waits
            port.firmware_read(10)
            assert port.rx_room == 10 and port.readable_fd() == port.master
        finally:
            os.close(host)
        port.unplug()
        assert not port.connected and not os.path.lexists(link) and sent[-1] == {"t": "link", "up": False}
        port.replug()
        assert port.connected and sent[-1] == {"t": "link", "up": True}
        assert os.path.realpath(link) == os.path.realpath(port.path) and port.rx_room == RX_FIFO
    finally:
        port.close()


def test_led_chain_reads_the_byte_order_and_the_current():
    leds = LedChain(3, "GRB")
    leds.show(bytes([10, 200, 0, 0, 0, 255, 255, 255, 255]))
    got = leds.reading()
    assert got["pixels"] == [[200, 10, 0], [0, 0, 255], [255, 255, 255]]
    assert got["ma"] == (10 + 200 + 255 + 255 * 3) * MA_PER_CHANNEL // 255 and got["frames"] == 1
    leds.show(bytes(9))
    assert leds.reading()["ma"] == 0 and leds.reading()["max_ma"] == got["ma"]
