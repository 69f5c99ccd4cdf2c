"""The transport under the protocol client: a serial port (device path or pyserial URL) as bytes
and lines. It opens the port (exclusively, so two programs never interleave requests), reconnects
after the cable is pulled, and lets the port's flow control pace the writes (a full board makes
`write` wait, up to WRITE_TIMEOUT). It knows nothing of JSON: `pegboard.link.client` does."""

from __future__ import annotations

import time
from collections import deque
from typing import Callable, cast

import serial

from pegboard.link.errors import NoBoard
from pegboard.link.ports import BoardIdentity, find_data_port, identity_of
from pegboard.link.reopen import reopen

try:  # POSIX: a vanished tty can fail with termios.error; Windows has no termios (nor that failure)
    from termios import error as _TermiosError

    LINK_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, _TermiosError)
except ImportError:
    LINK_ERRORS = (serial.SerialException, OSError)
READ_WAIT = 0.05     # a blocking read waits this long for a first byte, so callers can keep deadlines
WRITE_TIMEOUT = 2.0  # a board whose receive buffer stays full this long counts as gone
TAP_LINE_MAX = 4096  # a tapped "line" that never ends is shown in pieces of this size
# URLs that are not a device file: there is nothing to lock
UNLOCKABLE = ("socket://", "loop://", "rfc2217://", "spy://")


class LineCutter:
    """Cuts a byte stream into lines (without their line ends); blank lines are dropped."""

    def __init__(self, longest: int | None = None) -> None:
        self.longest = longest
        self.rest = b""

    def feed(self, data: bytes) -> list[bytes]:
        self.rest += data
        lines = []
        while b"\n" in self.rest:
            line, self.rest = self.rest.split(b"\n", 1)
            line = line.rstrip(b"\r")
            if line.strip():
                lines.append(line)
        if self.longest is not None and len(self.rest) > self.longest:
            lines.append(self.rest)
            self.rest = b""
        return lines


class SerialLink:
    """A board's serial port. `port`: a device path or pyserial URL; None asks `finder` at every
    (re)connect, so a board that comes back on another device path is found again. With the
    default finder, that is the board first found (`identity`: its serial number and VID:PID),
    not whichever board is plugged in then.

    Hooks, all optional, called from whichever thread reads or writes:
      tap(arrow, line)  every line that passes: ">" to the board, "<" from it (raw bytes)
      on_lost()         the port failed; reconnecting for up to `reconnect` seconds starts
      on_back()         it is open again (a fresh port: whatever was in flight is gone)
    """

    def __init__(self, port: str | None = None, reconnect: float = 5.0,
                 finder: Callable[[], str | None] = find_data_port) -> None:
        self.port = port
        self.reconnect_for = reconnect
        self.finder = finder
        self.identity: BoardIdentity | None = None  # the board the default finder found first
        self.connected_to: str | None = None  # the path or URL open now
        self.reconnects = 0
        self.tap: Callable[[str, bytes], None] | None = None
        self.on_lost: Callable[[], None] | None = None
        self.on_back: Callable[[], None] | None = None
        self._ser: serial.Serial | None = None
        self._incoming = LineCutter()
        self._lines: deque[bytes] = deque()  # cut from what arrived, not yet read
        self._tap_out = LineCutter(TAP_LINE_MAX)
        self._tap_in = LineCutter(TAP_LINE_MAX)
        self._cut = False  # a write timed out part-way through a line

    @property
    def is_open(self) -> bool:
        return self._ser is not None

    # -- opening and closing -----------------------------------------------------------------
    def open(self) -> "SerialLink":
        port = self.port if self.port is not None else self._find()
        if not port:
            raise NoBoard("no board found: plug it in, or give --port (a device path or pyserial URL)", "no_board")
        try:
            # every pyserial port class has in_waiting; the stubs give serial_for_url SerialBase's type
            ser = cast(serial.Serial, serial.serial_for_url(port, baudrate=115200, timeout=READ_WAIT,
                                                            write_timeout=WRITE_TIMEOUT, do_not_open=True))
            if hasattr(ser, "exclusive") and not str(port).startswith(UNLOCKABLE):
                ser.exclusive = True
            ser.open()
        except LINK_ERRORS as e:
            from pegboard.link.port_errors import explain

            raise NoBoard(*explain(port, str(e))) from None
        except ValueError as e:
            raise NoBoard("bad port %r: %s" % (port, e), "bad_port") from None
        self._ser = ser
        self.connected_to = port
        if self.port is None and self.finder is find_data_port and self.identity is None:
            self.identity = identity_of(port)
        self._incoming = LineCutter()  # a line cut off by a pulled cable is lost; whole ones are kept
        try:
            ser.reset_input_buffer()  # bytes written while nobody listened are stale
        except LINK_ERRORS:
            pass
        return self

    def _find(self) -> str | None:
        """The port to open when none was named: the default finder looks for the board it found
        first (by identity, wherever it is plugged in now); any other finder is asked as it is."""
        if self.finder is find_data_port:
            return find_data_port(self.identity)
        return self.finder()

    def close(self) -> None:
        if self._ser is not None:
            try:
                self._ser.close()
            except LINK_ERRORS:
                pass
        self._ser = None
        self.connected_to = None

    def fileno(self) -> int | None:
        """The open port's file descriptor, to wait on with select (a device on POSIX), else None
        (Windows, most pyserial URLs): then the caller polls."""
        try:
            return self._ser.fileno() if self._ser is not None else None
        except Exception:  # noqa: BLE001 - pyserial's classes raise several kinds for "no descriptor"
            return None

    def _port(self) -> serial.Serial:
        if self._ser is None:
            self.open()
        assert self._ser is not None
        return self._ser

    def _reconnect(self) -> None:
        """The port failed: wait for the board to come back (raise NoBoard if it does not)."""
        reopen(self, "the board went away", 0.05)

    # -- bytes -------------------------------------------------------------------------------
    def write(self, data: bytes, reconnect: bool = True) -> None:
        """Send `data`; after a pulled cable, reconnect and send it once more. Raises NoBoard if
        the board does not come back or that fails too. `reconnect=False` (a writer thread beside
        a reader that reconnects): a failed or closed port raises NoBoard "disconnected" at once."""
        if self.tap:
            for line in self._tap_out.feed(data):
                self.tap(">", line)
        if self._cut:  # the last write stopped mid-line: end that piece, so it is not glued to this one
            data = b"\n" + data
            self._cut = False
        try:
            if not reconnect:
                ser = self._ser
                if ser is None:
                    raise NoBoard("the port is closed", "disconnected")
                ser.write(data)
                return
            self._port().write(data)
            return
        except serial.SerialTimeoutException:
            # the board took nothing for WRITE_TIMEOUT: not a pulled cable (that fails at once), so no
            # reconnect and no resend; part of the line may have gone
            self._cut = True
            raise NoBoard("%s took nothing for %.0f s: the board is not reading its port (is its firmware "
                          "running? the REPL or a long search may hold it)" % (self.connected_to, WRITE_TIMEOUT),
                          "write_timeout") from None
        except LINK_ERRORS as e:
            if not reconnect:
                raise NoBoard("cannot write to %s: %s" % (self.connected_to, e), "disconnected") from None
            self._reconnect()
        try:
            self._port().write(data)
        except LINK_ERRORS as e:
            where = self.connected_to
            self.close()
            raise NoBoard("cannot write to %s: %s" % (where, e), "disconnected") from None

    def read(self, wait: bool = False) -> bytes:
        """What has arrived; with `wait`, block up to READ_WAIT for a first byte. A failed port
        is reconnected (nothing is returned for that call)."""
        try:
            ser = self._port()
            n = ser.in_waiting
            data = ser.read(n or 1) if (n or wait) else b""
        except LINK_ERRORS:
            self._reconnect()
            return b""
        if data and self.tap:
            for line in self._tap_in.feed(data):
                self.tap("<", line)
        return data

    def read_line(self, timeout: float) -> bytes | None:
        """The next non-blank line (stripped), or None when `timeout` seconds pass without one
        (0: only what has arrived already)."""
        deadline = time.monotonic() + timeout
        while not self._lines:
            data = self.read(wait=timeout > 0)
            if data:
                self._lines.extend(line.strip() for line in self._incoming.feed(data))
            elif time.monotonic() >= deadline:
                return None
        return self._lines.popleft()
