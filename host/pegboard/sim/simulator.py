"""The simulated board, as a program uses it: `Simulator` puts the parts together and keeps the
hardware the firmware cannot see itself (pegs in holes, the hint button, NVM that survives power
cycles). The parts, one job each:
  firmware_child.py  the firmware's process and the wire to it
  data_port.py       the USB serial port (a pty with the CDC's buffers) and its cable
  control_server.py  the control port: the virtual hand and the lab bench
  event_loop.py      the thread that waits on all of them; timers and the watchdog
  idle_wait.py       the wait_idle handshake
  led_chain.py       the NeoPixel chain as colours and current"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from pegcore.geometry import MAX_ROWS, MIN_ROWS

from pegboard.deploy import circuitpython as cp_versions
from pegboard.sim import firmware_child, kept_flash
from pegboard.sim.control_server import ControlServer
from pegboard.sim.data_port import DataPort
from pegboard.sim.errors import SimError
from pegboard.sim.event_loop import EventLoop, Handlers, Timers, Watchdog
from pegboard.sim.firmware_child import DEFAULT_HEAP, RUNTIMES, FirmwareChild, lib_dir
from pegboard.sim.idle_wait import DEADLINE_S, IdleWaits
from pegboard.sim.led_chain import LedChain
from pegboard.sim.piezo import PiezoLog
from pegboard.sim.settings import raw_settings, read_settings

__all__ = ["Simulator", "SimError"]

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_FIRMWARE = ROOT / "firmware"


def _board_id_of(folder: Path) -> str | None:
    """The board a CIRCUITPY drive came from: boot_out.txt's "Board ID:" line, if there is one."""
    from pegboard.deploy.bootout import drive_info  # read as deploy reads it: a regular file, never a FIFO

    return drive_info(folder).board_id


def _rp2040_node() -> tuple[str, Path]:
    """Node and rp2040js for the rp2040 runtime (installed on first use), or SimError saying what to install."""
    from pegboard.sim.rp2040 import node

    try:
        return node.install()
    except node.InstallFailed as e:
        raise SimError(str(e)) from None  # the tools are here: a fault, not something to install
    except node.Unavailable as e:
        raise SimError(str(e), missing=True) from None


# x the watchdog's timeout: the PC's clock as a backstop behind thumbvm's emulated watchdog, far
# enough out that the emulated one fires first even on a busy machine (thumbvm runs the chip's
# cycles a few times slower than real time, ten and more times slower with other work beside it)
PC_BACKSTOP = 30
# wait_idle's deadline on the emulated chips, which run slower than real time when busy (the rp2040
# runtime at as little as an eighth; thumbvm's boot on a loaded two-core machine took over 10 s)
IDLE_DEADLINE_S = {"rp2040": 120.0, "thumb": 60.0}


class Simulator:
    """A simulated board. Use as a context manager; `data_path` is the serial port to open,
    `control_path` the virtual hand, `control(cmd, **args)` a shortcut to it."""

    def __init__(self, firmware: str | Path = DEFAULT_FIRMWARE, settings: str | Path | None = None,
                 runtime: str = "cpython", heap: str | None = None, link: str | None = None,
                 board: str | None = None, console: bool = False, chip_time: bool | None = None,
                 shift_wiring: list[tuple[int, str]] | None = None,
                 circuitpython: str = cp_versions.NEWEST_TESTED, uf2: str | Path | None = None,
                 flash: str | Path | None = None) -> None:
        """`runtime`: "cpython", "micropython" (the unix VM), "chip" (chipvm: MicroPython's core
        set up as a CircuitPython board is; see pegboard.sim.chipvm) or "thumb" (the same core built
        for a Cortex-M0+ and run in an emulator that counts its cycles; pegboard.sim.thumbvm).
        `chip_time` (default: on for those two) holds each loop pass to the RP2040's watchdog in chip
        time (thumb: the emulated cycles at 125 MHz; chip: CHIP_FACTOR x its CPU time, an assumed
        ratio), so a pass too long for the chip resets the simulated board.
        `circuitpython`: the CircuitPython version the board runs, one the firmware supports
        (pegboard.deploy.circuitpython): the chip runtimes read settings.toml as that version does (its
        os.getenv, and supervisor.get_setting from 10.2.0); CPython and the unix VM have the PC's
        os.getenv whatever the version (docs/simulator.md, "CircuitPython versions").
        "rp2040": CircuitPython's own RP2040 binary, `uf2` (else $PEGBOARD_UF2), in an emulated RP2040
        (rp2040js, pegboard.sim.rp2040): the firmware reads its files from the emulated drive, the version is
        the UF2's, and the harness keeps the watchdog in emulated time (docs/chip-runtime.md, "The rp2040
        runtime")."""
        if runtime not in RUNTIMES:
            raise SimError("runtime must be one of: " + ", ".join(RUNTIMES))
        if cp_versions.refusal(circuitpython) is not None:
            raise SimError("--circuitpython %s: the simulator models the versions the firmware supports, %s"
                           % (circuitpython, cp_versions.supported_range()))
        self.circuitpython = circuitpython
        self.rp2040: Any = None  # pegboard.sim.rp2040.board.Rp2040Board on the rp2040 runtime
        self.firmware = Path(firmware).resolve()
        if not (self.firmware / "code.py").exists():
            raise SimError("%s has no code.py: not a firmware folder" % self.firmware)
        if list(self.firmware.glob("peg*/*.mpy")):
            raise SimError("%s holds CircuitPython .mpy modules, which only the chip runs: to simulate a drive, "
                           "deploy it with --py" % self.firmware)
        self.settings_path = Path(settings) if settings else self.firmware / "settings.toml"
        self.runtime = runtime
        self.settings, self.raw_settings = self._read_settings()
        self.heap = heap or DEFAULT_HEAP.get(runtime, "256K")
        if runtime == "rp2040":
            if chip_time:
                raise SimError("the rp2040 runtime keeps its own time (the emulated chip's): chip time is for chip "
                               "and thumb")
            chip_time = False
            self._node, self._node_path = _rp2040_node()
        chip = runtime in firmware_child.CHIP_RUNTIMES
        self.chip_time = chip if chip_time is None else chip_time
        if self.chip_time and not chip:
            raise SimError("chip time needs the chip or thumb runtime (their CPU clock)")
        self.chip_vm = (firmware_child.chip_vm() if runtime == "chip" else
                        firmware_child.thumb_vm() if runtime == "thumb" else None)
        self.longest_pass_ms = 0       # chip time: the longest loop pass, as an RP2040 would take it
        self.flash_ms = 0              # chip time: all NVM writes so far (page programs, erases)
        self.chip_watchdog_resets = 0  # chip time: passes the RP2040's watchdog would not survive
        self.link_path = link
        self.board_id = board or _board_id_of(self.firmware) or (
            "adafruit_feather_rp2040" if "feather" in str(self.settings_path) else "raspberry_pi_pico")
        self.shift_wiring = shift_wiring  # 74HC165 chain: (chip, input) per hole; None: as documented
        self.console_echo = console
        rows = self._rows()
        self.holes = rows * (rows + 1) // 2
        self.pegs = 0    # bit i: a peg in hole i+1, as the sensors read it
        self.button = 0
        # the NVM: erased, or kept in a file between runs (`flash`: pegboard.sim.kept_flash)
        self.flash_file = Path(flash) if flash else None
        self._flash_claim = kept_flash.Claim(self.flash_file) if self.flash_file else None  # FlashError: in use
        try:
            self.nvm = kept_flash.load(self.flash_file) if self.flash_file else bytearray(b"\xff" * kept_flash.SIZE)
        except BaseException:
            if self._flash_claim is not None:
                self._flash_claim.release()
            raise
        self.console: deque[str] = deque(maxlen=300)
        # rp2040 runtime: the harness's messages with the emulated chip's time of each ("ns"), newest last,
        # and the console lines with theirs: what the bench's figures are read from
        self.timeline: deque[dict[str, Any]] = deque(maxlen=5000)
        self.resets = 0
        self.watchdog_resets = 0
        self.child: FirmwareChild | None = None
        self.leds = LedChain(self.holes, str(self.settings.get("PEGBOARD_PIXEL_ORDER", "GRB")))
        self.piezo = PiezoLog()
        self.timers = Timers()
        self.watchdog = Watchdog()
        self._lib = lib_dir()
        if runtime == "rp2040":
            self._open_rp2040(uf2)
        self.data = DataPort(link, self.to_firmware)
        self.control_server = ControlServer(self)
        self.control_path = self.control_server.path
        self.idle_waits = IdleWaits(self.timers, lambda n: self.to_firmware({"t": "ping", "n": n}),
                                    self.control_server.reply, self.control_server.error,
                                    IDLE_DEADLINE_S.get(runtime, DEADLINE_S),
                                    lambda: self.console[-1] if self.console else None)
        self._loop = EventLoop(self._watch, self._tick)
        self._hand: Any = None  # pegboard.sim.hand.Hand, opened by control()

    @property
    def data_path(self) -> str:
        """The data port's pty now (a replug makes a new one; `link_path` follows it)."""
        return self.data.path

    @property
    def connected(self) -> bool:
        return self.data.connected

    @property
    def running(self) -> bool:
        return self.child is not None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "Simulator":
        self._spawn()
        self._loop.start()
        return self

    def __enter__(self) -> "Simulator":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._loop.stop()
        self._kill_child()
        if self._hand is not None:
            self._hand.close()
        self.data.close()
        self.control_server.close()
        shutil.rmtree(self._lib, ignore_errors=True)
        if self.rp2040 is not None:
            self.rp2040.close()
        if self._flash_claim is not None:
            self._flash_claim.release()

    def power_cycle(self, watchdog: bool = False) -> None:
        """Cut the power and start the firmware again; the NVM survives, as on the chip."""
        self._kill_child()
        try:  # the chip reads settings.toml afresh at every start (a deploy may have changed it)
            self.settings, self.raw_settings = self._read_settings()
        except (OSError, ValueError) as e:
            self.console.append("[settings.toml unreadable, the old settings kept: %s]" % e)
        self.resets += 1
        if watchdog:
            self.watchdog_resets += 1
        self.idle_waits.forget()
        self._spawn()

    def _rows(self) -> int:
        """The rows of the board to simulate; refused (SimError) beyond what pegcore's geometry has
        boards for, before its holes and LEDs are built (100000 rows would take a gigabyte)."""
        value = self.settings.get("PEGBOARD_ROWS", 5)
        try:
            rows = int(value)
        except ValueError:  # the firmware says what is wrong with it
            return 5
        if not MIN_ROWS <= rows <= MAX_ROWS:
            raise SimError("%s: PEGBOARD_ROWS = %s: a board has %d..%d rows" % (self.settings_path, value, MIN_ROWS,
                                                                                 MAX_ROWS))
        return rows

    def _read_settings(self) -> tuple[dict[str, str | int], dict[str, str] | None]:
        """(the typed values, each value's text for a chip runtime). The chip runtimes take any
        value, as the chip does, and the firmware judges it; the others have the PC's os.getenv,
        which hands every value over as text, so a value neither "quoted" nor an integer is refused
        here (SettingsError) rather than passed on as if it were quoted."""
        if not self.settings_path.exists():
            return {}, None
        if self.runtime in firmware_child.CHIP_RUNTIMES or self.runtime == "rp2040":
            return read_settings(self.settings_path, strict=False), raw_settings(self.settings_path)
        return read_settings(self.settings_path), None

    def _open_rp2040(self, uf2: str | Path | None) -> None:
        from pegboard.sim.rp2040.board import Rp2040Board

        settings_file = self.settings_path if self.settings_path.exists() else None
        self.rp2040 = Rp2040Board(uf2, settings_file, self.settings, self.shift_wiring)
        refused = cp_versions.refusal(self.rp2040.version)
        if refused is not None:
            self.rp2040.close()
            raise SimError("the UF2 holds CircuitPython %s: %s" % (self.rp2040.version, refused))
        self.circuitpython = self.rp2040.version
        self.board_id = "raspberry_pi_pico"

    def _spawn(self) -> None:
        if self.rp2040 is not None:
            cmd = self.rp2040.command(self._node)
            env = dict(os.environ, NODE_PATH=str(self._node_path))
        else:
            cmd = firmware_child.command(self.runtime, self.heap, self.chip_vm, self.firmware, self._lib)
            env = firmware_child.environment(self.runtime, self.settings, self.board_id, self.shift_wiring,
                                             self.chip_time, self.circuitpython, self.raw_settings)
        self.child = FirmwareChild(cmd, env, self.firmware)
        self.watchdog.set(0)  # off until the firmware sets it
        self.data.power_on()
        # only the used part of the nvm: a 4 KB message would cost the simulated heap 16 KB
        used = len(self.nvm.rstrip(b"\xff"))
        self.to_firmware({"t": "nvm", "d": self.nvm[:used].hex()})
        self.to_firmware({"t": "link", "up": self.connected})
        self._send_pins()  # last: the child starts the firmware once the pins have arrived

    def _kill_child(self) -> None:
        if self.child is not None:
            self.child.kill()
        self.child = None

    # -- the hardware around the firmware ----------------------------------------------------
    def to_firmware(self, msg: dict[str, Any]) -> None:
        if self.child is not None:
            self.child.send(msg)

    def set_pegs(self, mask: int) -> None:
        self.pegs = mask & ((1 << self.holes) - 1)
        self._send_pins()

    def set_button(self, down: bool, hold_ms: int | None = None) -> None:
        """The hint button down or up; `hold_ms`: down for that long, let go by the fakes themselves
        at that time on their clock (a late release message from a busy PC would lengthen the press)."""
        self.button = int(down)
        self._send_pins(hold_ms)

    def peg_list(self) -> list[int]:
        return [h for h in range(1, self.holes + 1) if self.pegs >> (h - 1) & 1]

    def _send_pins(self, hold_ms: int | None = None) -> None:
        # "at": when the pins changed (a timer's due time: a bounce's chatter keeps its spacing even
        # when the timer runs late), on the clock the child's fakes read too (the PC's monotonic
        # clock in ms): the fake keypad's scans before then read the old levels
        at = self.timers.due if self.timers.due is not None else time.monotonic()
        # "timer": the change is a timer's (a press's release, a bounce's chatter), so its spacing from the
        # change before it is the point; a chip slower than the PC keeps it (the rp2040 runtime)
        msg: dict[str, Any] = {"t": "pins", "s": self.pegs, "b": self.button, "at": int(at * 1000),
                               "timer": self.timers.due is not None}
        if hold_ms is not None:
            msg["hold"] = hold_ms
        self.to_firmware(msg)

    # -- what the firmware says --------------------------------------------------------------
    def _from_child(self) -> None:
        child = self.child
        if child is None:
            return
        got = child.receive()
        if got is None:
            self.console.append("[firmware stopped, exit code %s]" % child.exit_code())
            self._kill_child()
            if self.runtime == "thumb" and self.chip_time:
                # the emulator that kept the watchdog in chip time is gone; an armed watchdog (code.py
                # ended by an exception leaves it so) now fires at its own timeout, not the backstop's
                self.watchdog.timeout_ms //= PC_BACKSTOP
            return
        for item in got:
            if self.child is not child:
                return  # a power cycle: the rest was the old firmware's
            if isinstance(item, str):
                self.console.append(item)
                if self.timeline and self.timeline[-1]["t"] == "line" and "text" not in self.timeline[-1]:
                    self.timeline[-1]["text"] = item
                if self.console_echo:
                    print("console: " + item, file=sys.stderr)
            else:
                self._message(item)

    def _message(self, msg: dict[str, Any]) -> None:
        t = msg["t"]
        if "ns" in msg:
            self.timeline.append(msg)
        if t == "tx":
            self.data.from_firmware(bytes.fromhex(msg["d"]))
        elif t == "rxack":
            self.data.firmware_read(msg["n"])
        elif t == "px":
            self.leds.show(bytes.fromhex(msg["d"]))
        elif t == "pwm":
            self.piezo.change(msg["f"], msg["d"], msg["ms"])
        elif t == "nvmw":
            data = bytes.fromhex(msg["d"])
            self.nvm[msg["o"]:msg["o"] + len(data)] = data
            if self.flash_file is not None:
                kept_flash.save(self.flash_file, bytes(self.nvm))
        elif t == "wd":
            ms = msg["timeout_ms"] if msg.get("mode") == "RESET" else 0
            # thumb with chip time: the emulator keeps the watchdog in chip time; the PC's clock
            # is only a backstop (a guest stuck in a host call), far enough out not to race it
            self.watchdog.set(ms * (PC_BACKSTOP if self.runtime == "thumb" and self.chip_time else 1))
        elif t == "feed":
            self.watchdog.feed()
        elif t == "pass":
            self.longest_pass_ms = max(self.longest_pass_ms, msg["chip_ms"])
        elif t == "flash":
            self.flash_ms += msg["chip_ms"]
        elif t == "wd_expired":
            self.chip_watchdog_resets += 1
            self.console.append("[watchdog reset: a loop pass took ~%d ms in chip time]" % msg["chip_ms"])
            self.power_cycle(watchdog=True)
        elif t == "reset":  # microcontroller.reset() or supervisor.reload(): after this message
            self.timers.after(0, self.power_cycle)
        elif t == "pong":
            self.idle_waits.pong(msg["n"])

    # -- the loop's two questions ------------------------------------------------------------
    def _watch(self) -> tuple[Handlers, Handlers]:
        readers: Handlers = {}
        if self.child is not None:
            readers[self.child.fileno()] = self._from_child
            fd = self.data.readable_fd()
            if fd is not None:
                readers[fd] = self.data.from_host
        readers[self.control_server.master] = self.control_server.read
        fd = self.data.writable_fd()
        return readers, ({fd: self.data.drain} if fd is not None else {})

    def _tick(self, now: float) -> None:
        self.timers.run_due(now)
        if self.watchdog.expired(now):
            self.console.append("[watchdog reset]")
            self.power_cycle(watchdog=True)
        self.idle_waits.expire(now)

    # -- Python API (tests) ------------------------------------------------------------------
    def control(self, cmd: str, timeout: float | None = None, **args: Any) -> dict[str, Any]:
        """Send a control command through the control pty, as any client would; return the reply
        or raise SimError with the error message. `timeout`: wait_idle's deadline and 5 s, so
        that a late firmware is reported by the simulator rather than met by silence."""
        from pegboard.sim.hand import Hand, HandError

        if timeout is None:
            timeout = self.idle_waits.deadline_s + 5

        if self._hand is None:
            self._hand = Hand(self.control_path)
        try:
            return self._hand(cmd, timeout, **args)
        except HandError as e:
            raise SimError(str(e)) from None
