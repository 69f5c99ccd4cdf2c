"""The control port: the virtual hand and the lab bench (docs/simulator.md lists every command).
One JSON object a line in, one reply a line out; this module checks each command's arguments and
calls the simulator's public parts to do it."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Callable

from pegboard.sim.errors import SimError
from pegboard.sim.ptys import close_fds, raw_pty

if TYPE_CHECKING:
    from pegboard.sim.simulator import Simulator

Handler = Callable[[dict[str, Any], Any], "dict[str, Any] | None"]


class ControlServer:
    def __init__(self, sim: "Simulator") -> None:
        self.sim = sim
        self.master, self._slave, self.path = raw_pty()
        self._buf = b""
        self.commands: dict[str, Handler] = {
            "lift": self.lift, "place": self.place, "fill": self.fill, "clear": self.clear, "set": self.set,
            "press": self.press, "bounce": self.bounce, "power_cycle": self.power_cycle, "hang": self.hang,
            "unplug": self.unplug, "replug": self.replug, "close_port": self.close_port,
            "open_port": self.open_port, "pixels": self.pixels, "tones": self.tones, "sensors": self.sensors,
            "status": self.status, "wait_idle": self.wait_idle,
        }

    def close(self) -> None:
        close_fds(self.master, self._slave)

    # -- lines -------------------------------------------------------------------------------
    def read(self) -> None:
        """Take what the hand sent; answer each complete line."""
        try:
            data = os.read(self.master, 4096)
        except OSError:
            return
        self._buf += data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            line = line.strip()
            if line:
                self._line(line)

    def _write(self, obj: dict[str, Any]) -> None:
        try:
            os.write(self.master, (json.dumps(obj) + "\n").encode())
        except OSError:
            pass  # nobody reads the control port: the reply is dropped, as a bench would

    def reply(self, rid: Any, fields: dict[str, Any]) -> None:
        obj: dict[str, Any] = {"id": rid, "ok": True} if rid is not None else {"ok": True}
        obj.update(fields)
        self._write(obj)

    def error(self, rid: Any, code: str, message: str) -> None:
        obj: dict[str, Any] = {"id": rid} if rid is not None else {}
        obj.update({"ok": False, "error": code, "message": message})
        self._write(obj)

    def _line(self, line: bytes) -> None:
        try:
            req = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            word = line.decode("utf-8", "replace").strip()
            req = {"cmd": word} if word.isidentifier() else None  # a bare word typed by hand
        if not isinstance(req, dict):
            self.error(None, "bad_json", "send a JSON object per line")
            return
        rid = req.get("id")
        cmd = req.get("cmd")
        handler = self.commands.get(cmd) if isinstance(cmd, str) else None
        if handler is None:
            self.error(rid, "unknown_cmd", "unknown control command %r" % (cmd,))
            return
        try:
            fields = handler(req, rid)
        except SimError as e:
            self.error(rid, "bad_args", str(e))
            return
        if fields is not None:  # None: answered later (wait_idle)
            self.reply(rid, fields)

    # -- arguments ---------------------------------------------------------------------------
    def _hole(self, req: dict[str, Any], key: str = "hole") -> int:
        h = req.get(key)
        if isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= self.sim.holes:
            raise SimError("%s must be a hole 1..%d" % (key, self.sim.holes))
        return h

    @staticmethod
    def _ms(req: dict[str, Any], default: int, top: int) -> int:
        ms = req.get("ms", default)
        if isinstance(ms, bool) or not isinstance(ms, int) or not 1 <= ms <= top:
            raise SimError("ms must be 1..%d" % top)
        return ms

    def _pegs(self, mask: int) -> dict[str, Any]:
        self.sim.set_pegs(mask)
        return {"pegs": self.sim.peg_list()}

    # -- the commands ------------------------------------------------------------------------
    def lift(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req)
        if not self.sim.pegs >> (h - 1) & 1:
            raise SimError("hole %d has no peg to lift" % h)
        return self._pegs(self.sim.pegs & ~(1 << (h - 1)))

    def place(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req)
        if self.sim.pegs >> (h - 1) & 1:
            raise SimError("hole %d already holds a peg" % h)
        return self._pegs(self.sim.pegs | 1 << (h - 1))

    def fill(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req, "empty")
        return self._pegs(((1 << self.sim.holes) - 1) & ~(1 << (h - 1)))

    def clear(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return self._pegs(0)

    def set(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        pegs = req.get("pegs")
        if not isinstance(pegs, list):
            raise SimError("pegs must be a list of holes")
        mask = 0
        for h in pegs:
            mask |= 1 << (self._hole({"hole": h}) - 1)
        return self._pegs(mask)

    def press(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        ms = self._ms(req, 100, 60000)
        self.sim.set_button(True, hold_ms=ms)  # the fakes let go after `ms` of their own clock
        self.sim.timers.after(ms / 1000, lambda: self.sim.set_button(False))
        return {"ms": ms}

    def bounce(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req)
        ms = self._ms(req, 5, 200)
        # chatter every millisecond, ending toggled: a bouncy lift or place
        flips = ms + 1 + ms % 2
        for k in range(flips):
            self.sim.timers.after(k / 1000, lambda: self.sim.set_pegs(self.sim.pegs ^ 1 << (h - 1)))
        return {"hole": h, "ms": ms}

    def power_cycle(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self.sim.power_cycle()
        return {"resets": self.sim.resets}

    def hang(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self.sim.to_firmware({"t": "hang"})
        return {"hung": True, "watchdog_ms": self.sim.watchdog.timeout_ms}

    def unplug(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self.sim.data.unplug()
        return {"connected": False}

    def replug(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self.sim.data.replug()
        return {"connected": True, "data": self.sim.data_path}

    def close_port(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self.sim.data.close_port()
        return {"port_open": False}

    def open_port(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self.sim.data.open_port()
        return {"port_open": self.sim.data.port_open}

    def pixels(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return self.sim.leds.reading()

    def tones(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return self.sim.piezo.reading()

    def sensors(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return {"pegs": self.sim.peg_list(), "button": bool(self.sim.button)}

    def status(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        s = self.sim
        return {"runtime": s.runtime, "running": s.running, "resets": s.resets,
                "watchdog_resets": s.watchdog_resets, "connected": s.connected, "data": s.data_path,
                "watchdog_ms": s.watchdog.timeout_ms, "console": list(s.console)[-20:],
                "chip_time": s.chip_time, "longest_pass_ms": s.longest_pass_ms,
                "flash_ms": s.flash_ms,
                "chip_watchdog_resets": s.chip_watchdog_resets}

    def wait_idle(self, req: dict[str, Any], rid: Any) -> None:
        if not self.sim.running:
            raise SimError("the firmware is not running")
        self.sim.idle_waits.start(rid)
        return None
