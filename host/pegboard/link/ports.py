"""Finding a CircuitPython board's data port in pyserial's `comports()` listing, on Linux, macOS
and Windows (docs/ports.md: what pyserial 3.5 gives on each system, and which rule decides there).

A CircuitPython board with `usb_cdc.enable(console=True, data=True)` (firmware/boot.py) shows two
CDC serial ports with one VID:PID and one serial number: the REPL console first (USB interfaces
0/1, named "CircuitPython CDC control"/"... CDC data") and the data port after it ("CircuitPython
CDC2 control"/"... CDC2 data"). The protocol runs on the data port; the console must never be
opened at 1200 baud (that reboots the board into its bootloader).

Which of a board's two ports is the data port, in this order:
  a. the USB interface number where pyserial gives it in `location` (Linux "1-1:1.2", Windows
     "1-2:x.2"): the data port's comes after the console's;
  b. the interface name, only when exactly one port of the pair says "CDC2" (pyserial 3.5 on an
     Intel Mac can give both ports the same name; on Windows and Apple Silicon it gives none);
  c. the names in numeric order, the second one (COM9 before COM10, usbmodem14101 before 14103).
A board is found again after an unplug by its identity (serial number and VID:PID), not by its
path: `identity_of`, `find_data_port(identity)`."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

# Vendor IDs under which RP2040 boards run CircuitPython (their mpconfigboard.mk USB_VID). A port
# under one of these counts when pyserial gives no interface name (Windows, Apple Silicon Macs);
# any port whose interface or description says "CircuitPython CDC" counts whatever its vendor.
VIDS = {
    0x239A: "Adafruit",        # Adafruit's boards, and the Raspberry Pi Pico under CircuitPython
    0x2E8A: "Raspberry Pi",    # Pimoroni and other makers with a Raspberry Pi PID
    0x2886: "Seeed",           # XIAO RP2040
    0x1B4F: "SparkFun",        # Pro Micro RP2040, Thing Plus RP2040
    0x16D0: "MCS (Pimoroni)",  # Pimoroni PIDs under MCS Electronics' VID
    0x1209: "pid.codes",       # open-hardware makers' PIDs
}
# CircuitPython's CDC interface names (shared-module/usb_cdc/__init__.c): USB_INTERFACE_NAME (a
# build setting, "CircuitPython" unless a board changes it) + " CDC control" / " CDC data" for
# the console, " CDC2 control" / " CDC2 data" for the data port
CDC_NAME = re.compile(r"\bCDC(2?) (?:control|data)\b")
CIRCUITPYTHON = "CircuitPython CDC"


@dataclass
class Candidate:
    """A CircuitPython serial port: `data_port` True for a board's data port (`why`: the rule
    that said so), False for its console or a port that cannot be told apart."""

    device: str
    description: str
    serial_number: str | None
    data_port: bool
    vid: int | None = None
    pid: int | None = None
    location: str | None = None
    interface: str | None = None
    why: str = ""


@dataclass(frozen=True)
class BoardIdentity:
    """What stays the same when a board is plugged into another socket: its USB serial number
    and VID:PID (a serial number of None matches any board with that VID:PID)."""

    serial_number: str | None
    vid: int | None
    pid: int | None

    def matches(self, c: Candidate) -> bool:
        if self.vid is not None and c.vid != self.vid:
            return False
        if self.pid is not None and c.pid != self.pid:
            return False
        return not self.serial_number or c.serial_number == self.serial_number

    def __str__(self) -> str:
        return "USB %04X:%04X serial %s" % (self.vid or 0, self.pid or 0, self.serial_number or "(none)")


def natural_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key that orders the numbers in a name by value: COM9 < COM10, usbmodem1101 < usbmodem1103."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                 for part in re.split(r"(\d+)", text) if part)


def interface_number(location: str | None) -> int | None:
    """The USB interface number pyserial put in `location` ("1-1.4:1.2" on Linux, "1-2:x.2" on
    Windows: 2), or None (macOS gives none; nor does Linux for a one-interface device)."""
    if not location or ":" not in location:
        return None
    last = location.rsplit(":", 1)[1].rsplit(".", 1)[-1]
    return int(last) if last.isdigit() else None


def _named_role(c: Candidate) -> str | None:
    """"data" or "console" as the interface name (else the description) says, or None."""
    for text in (c.interface, c.description):
        m = CDC_NAME.search(text or "")
        if m:
            return "data" if m.group(1) else "console"
    return None


def _is_circuitpython(p: Any) -> bool:
    interface = getattr(p, "interface", None) or ""
    if CIRCUITPYTHON in interface or CIRCUITPYTHON in (getattr(p, "description", None) or ""):
        return True
    if getattr(p, "vid", None) not in VIDS:
        return False
    # no interface name (Windows, Apple Silicon), or CircuitPython's names under another prefix;
    # a port named otherwise (a debug probe's UART, MicroPython's "Board CDC") is not a board's
    return not interface or bool(CDC_NAME.search(interface))


def _candidate(p: Any) -> Candidate:
    device = str(p.device)
    return Candidate(device, getattr(p, "description", None) or getattr(p, "product", None) or device,
                     getattr(p, "serial_number", None) or None, False, getattr(p, "vid", None),
                     getattr(p, "pid", None), getattr(p, "location", None), getattr(p, "interface", None))


def _usb_device(c: Candidate) -> tuple[str, int | None, int | None, str]:
    """The ports of one USB device share this: serial number, VID:PID, and the location up to
    the interface part (both ports of a board on macOS have the very same location)."""
    return (c.serial_number or "", c.vid, c.pid, (c.location or "").split(":", 1)[0])


def _choose(pair: list[Candidate]) -> None:
    """Mark the data port of one board's two ports (rules a, b, c of the module's doc)."""
    numbers = [interface_number(c.location) for c in pair]
    if None not in numbers and numbers[0] != numbers[1]:
        data = pair[0] if (numbers[0] or 0) > (numbers[1] or 0) else pair[1]
        data.data_port, data.why = True, "USB interface %s (after the console's)" % max(n or 0 for n in numbers)
        return
    roles = [_named_role(c) for c in pair]
    if roles.count("data") == 1:
        data = pair[roles.index("data")]
        data.data_port, data.why = True, "interface name %r" % (data.interface or data.description)
        return
    data = sorted(pair, key=lambda c: natural_key(c.device))[1]
    data.data_port, data.why = True, "the second name of the pair in numeric order"


def classify(ports: Iterable[Any]) -> list[Candidate]:
    """The CircuitPython ports among pyserial `ListPortInfo`s (or objects with their attributes),
    each marked data port or not; data ports first, then in numeric order of their names."""
    found = [_candidate(p) for p in ports if getattr(p, "device", None) and _is_circuitpython(p)]
    devices: dict[tuple[str, int | None, int | None, str], list[Candidate]] = {}
    for c in found:
        devices.setdefault(_usb_device(c), []).append(c)
    for group in devices.values():
        if len(group) == 2:
            _choose(group)
            continue
        # one port: a board with one CDC port (the data port only if named so); more than two:
        # not one CircuitPython board (it has two at most), so only an unambiguous name counts
        roles = [_named_role(c) for c in group]
        if len(group) == 1 or len(set(roles)) > 1:
            for c, role in zip(group, roles, strict=True):
                if role == "data":
                    c.data_port, c.why = True, "interface name %r" % (c.interface or c.description)
    found.sort(key=lambda c: (not c.data_port, natural_key(c.device)))
    return found


def _listing() -> list[Any]:
    from serial.tools import list_ports

    return list(list_ports.comports())


def looked_at() -> str:
    """What a search for a board saw, for the message that none was found."""
    from pegboard.link.runtime_file import runtime_dir

    try:
        ports = [p.device for p in _listing()]
    except Exception:  # noqa: BLE001 - a listing that fails is said, not raised
        ports = []
    try:
        folder = str(runtime_dir())
    except OSError as e:
        folder = "no runtime folder (%s)" % e
    seen = ("%d serial port%s (%s), none a CircuitPython board's data port"
            % (len(ports), "" if len(ports) == 1 else "s", ", ".join(ports[:6]) + (" ..." if len(ports) > 6 else ""))
            if ports else "no serial ports at all")
    return "looked at %s, and for simulated boards in %s" % (seen, folder)


def candidates() -> list[Candidate]:
    """CircuitPython serial ports on this machine, data ports first."""
    return classify(_listing())


def find_data_port(identity: BoardIdentity | None = None) -> str | None:
    """The data port of the first board found (in numeric order of the names), or with `identity`,
    of that board only; None if there is none."""
    for c in candidates():
        if c.data_port and (identity is None or identity.matches(c)):
            return c.device
    return None


def _same_path(a: str, b: str) -> bool:
    if a == b or (os.name == "nt" and a.casefold() == b.casefold()):
        return True
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def identity_of(device: str) -> BoardIdentity | None:
    """The identity of the CircuitPython board whose port `device` is (a path as listed, or a
    link to it), or None when no such board is listed (a simulator, a URL, a board gone)."""
    try:
        found = candidates()
    except Exception:  # noqa: BLE001 - a failed port scan: no identity, the caller looks by path
        return None
    for c in found:
        if _same_path(c.device, device):
            return BoardIdentity(c.serial_number, c.vid, c.pid)
    return None


def find_board_or_sim(note: Callable[[str], None] | None = None) -> str | None:
    """A plugged-in board's data port, else the newest running `pegboard sim` that answers (each
    one skipped is said to `note`)."""
    from pegboard.link.runtime_file import answering_sim

    port = find_data_port()
    if port:
        return port
    sim = answering_sim(note)
    return sim["data"] if sim else None
