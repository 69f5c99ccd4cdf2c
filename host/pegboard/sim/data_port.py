"""The board's USB serial port as the host sees it: a pseudo-terminal with the RP2040 CDC's two
bounded buffers, and a cable that can be pulled. A pulled cable closes the pty (the host's port
fails, as a real device node vanishes); a replug makes a new one, and the symlink `link_path`,
if any, follows it, as udev's stable names follow a real board."""

from __future__ import annotations

import os
import select
from typing import Any, Callable

from pegboard.sim.ptys import close_fds, raw_pty

TX_FIFO = 256  # the RP2040's CDC buffer: past this, the firmware's writes write less
RX_FIFO = 256  # its receive buffer: the host's bytes wait in the pty (its writes block) until read


class DataPort:
    """`to_firmware(msg)` sends a wire message to the running firmware (see firmware_child)."""

    def __init__(self, link_path: str | None, to_firmware: Callable[[dict[str, Any]], None]) -> None:
        self.link_path = link_path
        self.to_firmware = to_firmware
        self.connected = True
        self.port_open = True  # the host holds the port open (DTR): the board's bytes flow to it
        self.master, self._slave, self.path = raw_pty()
        self._pending_tx = bytearray()  # the firmware's bytes the host has not read yet
        self._tx_full = False
        self.rx_room = RX_FIFO  # bytes the firmware's receive buffer can still take
        self._point_link()

    # -- what select() should wait for -------------------------------------------------------
    def readable_fd(self) -> int | None:
        """The pty while the firmware has room for the host's bytes; else the bytes wait."""
        return self.master if self.master >= 0 and self.rx_room > 0 else None

    def writable_fd(self) -> int | None:
        return self.master if self._pending_tx and self.master >= 0 else None

    # -- firmware -> host --------------------------------------------------------------------
    def from_firmware(self, data: bytes) -> None:
        if self.connected:
            self._pending_tx += data
            self.drain()

    def drain(self) -> None:
        """Hand the host what its pty takes; tell the firmware when the CDC buffer is full, so its
        writes write less, as on the chip."""
        if self._pending_tx and self.master >= 0:
            try:
                n = os.write(self.master, self._pending_tx)
                del self._pending_tx[:n]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._pending_tx.clear()
        full = len(self._pending_tx) > TX_FIFO
        if full != self._tx_full:
            self._tx_full = full
            self.to_firmware({"t": "txfull", "v": full})

    # -- host -> firmware --------------------------------------------------------------------
    def from_host(self) -> None:
        """Take what the firmware's receive buffer has room for; the rest waits in the pty, whose
        buffer fills until the host's writes block: USB's flow control."""
        if self.rx_room <= 0 or self.master < 0:
            return
        try:
            data = os.read(self.master, self.rx_room)
        except OSError:
            return
        if data and self.connected:
            self.rx_room -= len(data)
            self.to_firmware({"t": "rx", "d": data.hex()})

    def firmware_read(self, n: int) -> None:
        """The firmware read `n` bytes: room for as many more."""
        self.rx_room = min(RX_FIFO, self.rx_room + n)

    def power_on(self) -> None:
        """A fresh chip: its buffers are empty."""
        self._tx_full = False
        self.rx_room = RX_FIFO

    # -- the host's end of the port -----------------------------------------------------------
    def close_port(self) -> None:
        """The host closes the port (after its own close of the pty): DTR drops. What it had not
        read yet goes back to the board, whose CDC FIFO still held it (usb_cdc keeps the first
        packet and the newest 256 bytes), and the board's writes stay there until open_port."""
        if not self.connected or not self.port_open:
            return
        self.port_open = False
        unread = bytearray()
        while select.select([self._slave], [], [], 0)[0]:
            try:
                chunk = os.read(self._slave, 65536)
            except OSError:
                break
            if not chunk:
                break
            unread += chunk
        unread += self._pending_tx
        self._pending_tx.clear()
        self.drain()  # nothing waits for the host now: the board's writes are not held back
        self.to_firmware({"t": "dtr", "v": False, "unread": unread.hex()})

    def open_port(self) -> None:
        """The host opens the port again: DTR rises, and the first bytes it reads are what the
        board's FIFO kept meanwhile."""
        if not self.connected or self.port_open:
            return
        self.port_open = True
        self.to_firmware({"t": "dtr", "v": True})

    # -- the cable ---------------------------------------------------------------------------
    def unplug(self) -> None:
        if not self.connected:
            return
        self.connected = False
        self.to_firmware({"t": "link", "up": False})  # the firmware's receive buffer is emptied
        self.rx_room = RX_FIFO
        self.close()
        self._pending_tx.clear()

    def replug(self) -> None:
        if self.connected:
            return
        self.master, self._slave, self.path = raw_pty()
        self._point_link()
        self.connected = True
        self.port_open = True  # the host opens the new port
        self.to_firmware({"t": "link", "up": True})

    def close(self) -> None:
        close_fds(self.master, self._slave)
        self.master = self._slave = -1
        if self.link_path:
            try:
                os.unlink(self.link_path)
            except OSError:
                pass

    def _point_link(self) -> None:
        if not self.link_path:
            return
        tmp = "%s.tmp%d" % (self.link_path, os.getpid())
        try:
            os.unlink(tmp)
        except OSError:
            pass
        os.symlink(self.path, tmp)
        os.replace(tmp, self.link_path)  # atomic: a client never finds the link missing mid-replug
