"""The simulator's virtual hand: a client of its control port (docs/simulator.md), used by the
Simulator's own `control()`, the terminal UI and anything else that moves simulated pegs."""

from __future__ import annotations

import json
import os
import select
import threading
import time
from typing import Any


class HandError(Exception):
    """The control port refused a command, or did not answer."""


class Hand:
    """Sends one JSON control command at a time and returns its reply. Thread-safe."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._buf = b""
        self._lock = threading.Lock()

    def __call__(self, cmd: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
        with self._lock:
            if self._fd is None:
                try:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
                except OSError as e:
                    raise HandError("cannot open the control port %s: %s" % (self.path, e.strerror)) from None
                import tty  # POSIX only, as the simulator's pseudo-terminals are

                tty.setraw(self._fd)
                self._buf = b""
            req = {"cmd": cmd}
            req.update(args)
            os.write(self._fd, (json.dumps(req) + "\n").encode())
            deadline = time.monotonic() + timeout
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise HandError("no reply to %s" % cmd)
                r, _, _ = select.select([self._fd], [], [], left)
                if r:
                    self._buf += os.read(self._fd, 4096)
            line, self._buf = self._buf.split(b"\n", 1)
        reply = json.loads(line)
        if not reply.get("ok"):
            raise HandError(reply.get("message", "control command failed"))
        return reply

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                try:
                    os.close(self._fd)
                except OSError:
                    pass
                self._fd = None
