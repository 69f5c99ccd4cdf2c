"""A program's way to a shared board: `attach(port)` finds the board's hub (pegboard.link.hub) in
the user's runtime folder, or starts one, and returns a `HubLink`: the same lines-and-hooks
interface as `SerialLink`, so `BoardClient` runs on either.

The hub is a process of its own, started in a new session: the program that started it may end
(or be stopped with Ctrl-C) while others still use the board. It ends when the last one leaves."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from pegboard.link import runtime_file
from pegboard.link.errors import NoBoard
from pegboard.link.reopen import reopen
from pegboard.link.serial_link import LineCutter

CONNECT_S = 3.0   # for the hub's welcome
START_S = 10.0    # for a hub that was just started to open the port and say so
RACE_S = 3.0      # another program may be starting this board's hub at the same moment
HUB_LOG_MAX = int(os.environ.get("PEGBOARD_HUB_LOG_MAX", 256 * 1024))  # hub.log's bytes, the hub's running too
_started: list[subprocess.Popen[bytes]] = []  # hubs this process started: reaped once they end


def _reap() -> None:
    """A hub this process started and that ended stays a zombie (its pid still "alive") until
    waited for: wait for those, so their runtime files are seen to be stale."""
    for proc in list(_started):
        if proc.poll() is not None:
            _started.remove(proc)


def _same_board(hub: dict[str, Any], port: str) -> bool:
    real = os.path.realpath(port) if os.path.exists(port) else port
    names = {hub.get("data"), hub.get("real"), hub.get("open")}
    if hub.get("open") and os.path.exists(str(hub["open"])):
        names.add(os.path.realpath(str(hub["open"])))
    return port in names or real in names


def hubs() -> list[dict[str, Any]]:
    """The hubs running now (runtime files), newest first: "data" the port as named, "open" the
    path open now, "users" the programs using it."""
    return runtime_file.running("hub")


def hub_for(port: str) -> dict[str, Any] | None:
    for hub in hubs():
        if _same_board(hub, port):
            return hub
    return None


def _start_hub(port: str, refind: bool) -> dict[str, Any]:
    """Start a hub for `port`; its first line: {"ready": ...} or {"error", "message"}."""
    log_path = runtime_file.runtime_dir() / "hub.log"
    cmd = [sys.executable, "-m", "pegboard.link.hub", port, "--log", str(log_path)] + (["--refind"] if refind else [])
    try:
        if log_path.stat().st_size > HUB_LOG_MAX:
            log_path.unlink()
    except OSError:
        pass
    # no descriptor of ours but these goes with it (close_fds is the default)
    kw: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE}
    if sys.platform == "win32":  # its own process group, no console: Ctrl-C in this window must not end it
        kw["creationflags"] = 0x00000200 | 0x00000008  # CREATE_NEW_PROCESS_GROUP | DETACHED_PROCESS
    else:
        kw["start_new_session"] = True
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(cmd, stderr=log, **kw)
    _started.append(proc)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    proc.stdout.close()
    try:
        said = json.loads(line)
    except ValueError:
        said = None
    if not isinstance(said, dict):
        proc.wait(timeout=5)
        return {"error": "no_board", "message": "the hub for %s did not start (see %s)" % (port, log_path)}
    if "error" in said:
        proc.wait(timeout=5)
    return said


class HubLink:
    """A board through its hub. `port`: the board's port as the user named it (None when it was
    found: `target` is what was found then). Hooks as SerialLink's: tap(arrow, line), on_lost(),
    on_back()."""

    def __init__(self, target: str, port: str | None = None, name: str = "pegboard", tap: bool = False,
                 reconnect: float = 5.0) -> None:
        self.port = port
        self.target = target
        self.refind = port is None
        self.name = name
        self.want_tap = tap
        self.reconnect_for = reconnect
        self.connected_to: str | None = None
        self.hub_pid: int | None = None
        self.users: list[str] = []
        self.reconnects = 0
        self.tap: Callable[[str, bytes], None] | None = None
        self.tap_from = ""
        self.on_lost: Callable[[], None] | None = None
        self.on_back: Callable[[], None] | None = None
        self._sock: socket.socket | None = None
        self._cutter = LineCutter()
        self._lines: list[bytes] = []

    @property
    def is_open(self) -> bool:
        return self._sock is not None

    # -- attaching -------------------------------------------------------------------------------
    def open(self) -> "HubLink":
        deadline = time.monotonic() + RACE_S
        while True:
            hub = hub_for(self.target)
            if hub is not None and self._connect(hub):
                return self
            if hub is not None:
                time.sleep(0.05)  # a hub that is ending, or whose file is stale: the next look decides
            else:
                said = _start_hub(self.target, self.refind)
                if "error" in said:
                    if said["error"] != "busy_port" or time.monotonic() > deadline:
                        raise NoBoard(str(said.get("message")), str(said["error"]))
                    time.sleep(0.1)  # another program's hub may hold it already: look again
            if time.monotonic() > deadline + START_S:
                raise NoBoard("cannot reach the hub sharing %s (see %s)" % (
                    self.target, runtime_file.runtime_dir() / "hub.log"), "no_board")

    def _connect(self, hub: dict[str, Any]) -> bool:
        addr = hub.get("address")
        if not (isinstance(addr, list) and len(addr) == 2):
            return False
        try:
            sock = socket.create_connection((str(addr[0]), int(addr[1])), timeout=CONNECT_S)
        except OSError:
            _reap()
            if not runtime_file.alive(hub.get("pid")):
                runtime_file.remove(Path(str(hub.get("file"))))
            return False
        try:
            sock.sendall(json.dumps({"key": hub.get("key"), "name": self.name, "pid": os.getpid(),
                                     "tap": self.want_tap}).encode() + b"\n")
            cutter = LineCutter()
            welcome = None
            deadline = time.monotonic() + CONNECT_S
            while welcome is None and time.monotonic() < deadline:
                data = sock.recv(65536)
                if not data:
                    break
                for line in cutter.feed(data):
                    if welcome is None:
                        welcome = json.loads(line)
                    else:
                        self._lines.append(line.strip())
        except (OSError, ValueError):
            sock.close()
            return False
        if not isinstance(welcome, dict) or welcome.get("hub") != "welcome":
            sock.close()
            return False
        self._cutter = cutter
        self._sock = sock
        self.connected_to = welcome.get("port")
        self.hub_pid = hub.get("pid")
        self.users = list(welcome.get("users") or [])
        return True

    def close(self) -> None:
        # taken first: a reader thread that finds the hub gone closes too, at the same moment
        sock, self._sock = self._sock, None
        if sock is not None:
            self._say_bye(sock)
            try:
                sock.close()
            except OSError:
                pass
        self.connected_to = None
        self._lines.clear()

    @staticmethod
    def _say_bye(sock) -> None:
        """Tell the hub this program leaves, and wait (briefly) for its answer: when this is the
        last program, the hub frees the port first, so the port is free when this command ends."""
        try:
            sock.settimeout(2.0)
            sock.sendall(b'{"hub": "bye"}\n')
            rest = b""
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                data = sock.recv(65536)
                if not data:
                    return
                rest = (rest + data)[-4096:]
                if b'{"hub": "released"}' in rest or b'{"hub": "bye"}' in rest:
                    return
        except OSError:
            return

    def _hub_ended(self) -> None:
        """The hub went away without a word (killed): attach again, to it or a new one."""
        reopen(self, "the way to %s went away" % self.target, 0.1)

    # -- lines -----------------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self._sock is None:
            self.open()
        assert self._sock is not None
        try:
            self._sock.sendall(data)
            return
        except OSError:
            self._hub_ended()
        assert self._sock is not None
        try:
            self._sock.sendall(data)
        except OSError as e:
            self.close()
            raise NoBoard("cannot write to %s: %s" % (self.target, e), "disconnected") from None

    def _receive(self, timeout: float) -> None:
        if self._sock is None:
            self.open()
        assert self._sock is not None
        self._sock.settimeout(timeout if timeout > 0 else 0.0)
        try:
            data = self._sock.recv(65536)
        except (BlockingIOError, socket.timeout):
            return
        except OSError:
            data = b""
        if not data:
            self._hub_ended()
            return
        self._lines.extend(line.strip() for line in self._cutter.feed(data))

    def _hub_line(self, line: bytes) -> bool:
        """A line of the hub's own: act on it (True), or a board's line (False)."""
        if not line.startswith(b'{"hub": '):
            return False
        try:
            obj = json.loads(line)
        except ValueError:
            return False
        what = obj.get("hub")
        if what == "tap":
            self.tap_from = str(obj.get("who"))  # who sent a request ("all": the board's line to every program)
            if self.tap:
                self.tap(str(obj.get("dir")), str(obj.get("line")).encode())
        elif what == "lost":
            if self.on_lost:
                self.on_lost()
        elif what == "back":
            self.connected_to = obj.get("port") or self.connected_to
            self.reconnects += 1
            if self.on_back:
                self.on_back()
        elif what == "gone":
            self.close()
            raise NoBoard(str(obj.get("message")), "disconnected")
        elif what == "dropped":
            self.close()
            raise NoBoard("the board's hub dropped this program: %s" % obj.get("message"), "dropped")
        return True

    def read_line(self, timeout: float) -> bytes | None:
        """The board's next line, or None when `timeout` seconds pass without one."""
        deadline = time.monotonic() + timeout
        while True:
            while self._lines:
                line = self._lines.pop(0)
                if not self._hub_line(line):
                    return line
            left = deadline - time.monotonic()
            if left <= 0:
                if timeout == 0:
                    self._receive(0)
                    if self._lines:
                        continue
                return None
            self._receive(min(left, 0.05))

    def read(self, wait: bool = False) -> bytes:
        line = self.read_line(0.05 if wait else 0)
        return line + b"\n" if line is not None else b""
