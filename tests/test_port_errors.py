"""A port that will not open, or a board that takes nothing, says what to do, on each system."""

import os
import sys

import pytest

from pegboard.link import port_errors, serial_link
from pegboard.link.errors import NoBoard
from pegboard.link.serial_link import SerialLink

# pyserial's own words for each case (serialposix.py, serialwin32.py: "could not open port ...")
LINUX_BUSY = "[Errno 11] Could not exclusively lock port /dev/ttyACM1: [Errno 11] Resource temporarily unavailable"
LINUX_DENIED = "[Errno 13] could not open port /dev/ttyACM1: [Errno 13] Permission denied: '/dev/ttyACM1'"
MAC_BUSY = "[Errno 16] could not open port /dev/cu.usbmodem1103: [Errno 16] Resource busy: '/dev/cu.usbmodem1103'"
WIN_BUSY = "could not open port 'COM4': PermissionError(13, 'Access is denied.', None, 5)"
WIN_GONE = "could not open port 'COM9': FileNotFoundError(2, 'The system cannot find the file specified.', None, 2)"


@pytest.mark.parametrize("text, platform, code, words", [
    (LINUX_BUSY, "linux", "busy_port", "fuser -v"),
    (MAC_BUSY, "darwin", "busy_port", "lsof"),
    (WIN_BUSY, "win32", "busy_port", "one program at a time"),
    (LINUX_DENIED, "linux", "permission", "usermod -aG"),
    (WIN_GONE, "win32", "no_board", "pegboard ports"),
])
def test_each_systems_open_failure_says_what_to_do(text, platform, code, words):
    port = "COM4" if platform == "win32" else "/dev/nonexistent-port"
    message, got = port_errors.explain(port, text, platform)
    assert got == code and words in message and port in message


def test_permission_denied_names_both_groups_and_logging_in_again():
    message, _ = port_errors.explain("/dev/ttyACM1", LINUX_DENIED, "linux")
    assert "dialout" in message and "uucp on Arch" in message and "log out and in again" in message


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_busy_port_names_the_program_holding_it():
    from pegboard.sim.ptys import close_fds, raw_pty

    master, slave, path = raw_pty()  # this process holds it; another process asks who does
    try:
        import subprocess

        out = subprocess.run([sys.executable, "-c", "from pegboard.link.port_errors import holders; "
                              "print(holders(%r))" % path], capture_output=True, text=True, timeout=30).stdout
        assert "(pid %d)" % os.getpid() in out
        message, code = port_errors.explain(path, LINUX_BUSY.replace("/dev/ttyACM1", path), "linux")
        assert code == "busy_port"
    finally:
        close_fds(master, slave)


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal stands for the port")
def test_a_write_timeout_is_not_a_pulled_cable_and_the_next_line_starts_clean(monkeypatch):
    from pegboard.sim.ptys import close_fds, raw_pty

    monkeypatch.setattr(serial_link, "WRITE_TIMEOUT", 0.3)
    master, slave, path = raw_pty()  # nobody reads the other end: its buffer fills
    link = SerialLink(path).open()
    try:
        with pytest.raises(NoBoard) as e:
            for _ in range(1000):
                link.write(b"x" * 4096)
        assert e.value.code == "write_timeout" and "took nothing" in str(e.value)
        assert link.reconnects == 0, "no reconnect"
        got = b""
        while True:  # the board reads at last
            try:
                chunk = os.read(master, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            got += chunk
        link.write(b'{"cmd": "state"}\n')
        after = b""
        while not after.endswith(b"\n"):
            try:
                after += os.read(master, 65536)
            except BlockingIOError:
                continue
        assert after == b'\n{"cmd": "state"}\n', "the cut line is ended before the next one"
    finally:
        link.close()
        close_fds(master, slave)
