"""Finding the board's data port: CircuitPython boards show two CDC ports with one VID:PID; the
protocol runs on the one whose interface is "CircuitPython CDC2 control" (the other is the REPL
console, which must never be opened at 1200 baud: that reboots into the bootloader)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

VIDS = {0x239A: "Adafruit", 0x2E8A: "Raspberry Pi"}


@dataclass
class Candidate:
    device: str
    description: str
    serial_number: str | None
    data_port: bool


def candidates() -> list[Candidate]:
    """CircuitPython serial ports on this machine, data ports first."""
    from serial.tools import list_ports

    out = []
    for p in list_ports.comports():
        if p.vid not in VIDS:
            continue
        iface = (p.interface or "") + " " + (p.description or "")
        data = "CDC2" in iface
        out.append(Candidate(p.device, p.description or p.product or "", p.serial_number, data))
    out.sort(key=lambda c: (not c.data_port, c.device))
    return out


def find_data_port() -> str | None:
    """The data port of the first board found, or None. A board whose data port is not named
    (macOS/Windows may hide interface names) is matched as the second of its pair."""
    cands = candidates()
    for c in cands:
        if c.data_port:
            return c.device
    by_serial: dict[str | None, list[Candidate]] = {}
    for c in cands:
        by_serial.setdefault(c.serial_number, []).append(c)
    for group in by_serial.values():
        if len(group) == 2:
            return sorted(group, key=lambda c: c.device)[1].device
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
