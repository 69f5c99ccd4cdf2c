# Fake `usb_cdc`: the data port is the simulator's pseudo-terminal. As CircuitPython's
# (shared-bindings/usb_cdc/*.c, shared-module/usb_cdc/*.c, py/stream.c) over TinyUSB's CDC device
# (src/class/cdc/cdc_device.c, at the commit each CircuitPython pins in lib/tinyusb):
# - read(n) gives what is there, b"" if nothing (never None), waiting only as `timeout` says (None:
#   for ever); before 9.2.7 it read nothing while the port was not connected.
# - write() puts bytes into the 256-byte TX FIFO (CFG_TUD_CDC_TX_BUFSIZE, ports/raspberrypi/
#   Makefile). While the host has the port open they go on to it; the simulator says when its side
#   is full (the host does not read), and then a write writes less, down to nothing. While the host
#   has the port closed (DTR low) the FIFO is overwritable: every write "succeeds", the newest 256
#   bytes stay, and the first write's first 64 bytes (CFG_TUD_CDC_TX_EPSIZE) wait at the endpoint:
#   the host gets that packet and that stale tail, maybe from mid-line, when it opens the port
#   again. With the cable out the FIFO fills and stays (DTR as it was), and the host's bus reset at
#   the next plug-in empties it (cdcd_reset, cdcd_open: no CFG_TUD_CDC_TX_PERSISTENT).
# - Its receive buffer is bounded (data_port.RX_FIFO): the simulator passes on the host's bytes
#   only as the firmware reads them, so a host that sends faster than the board reads waits.
# - enable() and disable() take keywords only, and once boot.py is over raise RuntimeError while
#   the board is plugged in (common_hal_usb_cdc_enable: tud_connected()).
import _sim

_tx = bytearray()      # the TX FIFO's bytes while the host does not take them
_packet = bytearray()  # the packet handed to the endpoint, which the host has not collected
_booted = []


def _open():
    return _sim.connected and _sim.dtr


def _tx_write(data):
    """tud_cdc_n_write, then tud_cdc_n_write_flush: how many bytes of `data` the FIFO took."""
    _sim.pump()
    if _open():
        if _sim.tx_full:
            return 0
        data = data[:256]
        if data:
            _sim.send({"t": "tx", "d": _sim.hexs(data)})
        return len(data)
    n = len(data)
    if _sim.dtr:  # the cable out while the port was open: the FIFO takes what fits
        n = min(n, 256 - len(_tx))
        _tx.extend(data[:n])
    else:  # overwritable (tu_fifo_write_n): the newest bytes win; a write of 256 or more says 256
        _tx.extend(data)
        _tx[:-256] = b""
        n = min(n, 256)
    if _sim.connected and not _packet:  # the flush: a packet to the endpoint, if it is free
        _packet[:] = _tx[:64]
        _tx[:64] = b""
    return n


def _link(msg):
    """The cable or the host's port changed (_sim.handle)."""
    if msg["t"] == "link" and msg["up"]:
        _tx[:] = _packet[:] = b""  # the bus reset
    elif msg.get("unread"):
        # the host closed the port before reading all: that was still in the FIFO, its first
        # packet at the endpoint and the newest of the rest kept
        unread = _sim.unhex(msg["unread"])
        _packet[:] = unread[:64]
        _tx[:] = unread[64:][-256:]
    if _open() and (_packet or _tx):
        _sim.send({"t": "tx", "d": _sim.hexs(_packet + _tx)})  # the stale bytes, as the host opens
        _tx[:] = _packet[:] = b""


_sim.link_hooks.append(_link)


class Serial:
    def __init__(self, data_port):
        self._data = data_port  # False: the console (the simulator shows what is printed)
        self.timeout = self.write_timeout = None  # seconds; None: wait for ever

    @property
    def connected(self):
        _sim.pump()
        return _open() if self._data else _sim.connected

    @property
    def in_waiting(self):
        _sim.pump()
        return len(_sim.rx) if self._data else 0

    @property
    def out_waiting(self):
        _sim.pump()
        if _open() or not self._data:
            return 256 if self._data and _sim.tx_full else 0
        return len(_tx)

    def _take(self, n):
        """tud_cdc_n_read: what the RX FIFO holds now, up to n bytes."""
        _sim.pump()
        if not self._data or (_sim.cp_version() < (9, 2, 7) and not _open()):
            return b""
        data = bytes(_sim.rx[:n])
        if data:
            _sim.rx[:len(data)] = b""
            _sim.send({"t": "rxack", "n": len(data)})  # room again: the host may send as much more
        return data

    def _waits(self, t, start):
        """A blocking read or write (timeout t: None for ever, 0 not at all) waits a moment more."""
        if t == 0 or t is not None and (_sim.clock_ms() - start) / 1000 > t:
            return False
        _sim.wait(1)  # (CircuitPython runs its background tasks meanwhile)
        return True

    def read(self, size=-1):
        """py/stream.c: reads until `size` bytes or a read that gets none (so b"" when nothing is
        there); read() until a read gets none. Each read (common_hal_usb_cdc_serial_read) takes
        what is there, then more as the timeout allows."""
        out = b""
        while size < 0 or len(out) < size:
            n = 256 if size < 0 else size - len(out)
            got = self._take(n)
            start = _sim.clock_ms()
            while len(got) < n and self._waits(self.timeout, start):
                got += self._take(n - len(got))
            if not got:
                break
            out += got
        return out

    def readline(self, size=-1):
        """A byte at a time (py/stream.c, stream_unbuffered_readline), up to and with a newline."""
        out = b""
        while (size < 0 or len(out) < size) and not out.endswith(b"\n"):
            b = self.read(1)
            if not b:
                break
            out += b
        return out

    def write(self, buf):
        if isinstance(buf, int):  # (bytes(n) would make n zeros)
            raise TypeError("object with buffer protocol required")
        data = buf.encode() if isinstance(buf, str) else bytes(buf)
        if not self._data:
            print(data.decode(), end="")
            return len(data)
        done = 0
        while done < len(data):  # py/stream.c, mp_stream_rw: until a write takes nothing
            # common_hal_usb_cdc_serial_write: what the FIFO takes, then more as the timeout allows
            n = _tx_write(data[done:])
            start = _sim.clock_ms()
            while done + n < len(data) and self._waits(self.write_timeout, start):
                n += _tx_write(data[done + n:])
            if not n:
                break
            done += n
        return done

    def reset_input_buffer(self):
        if self._data and _sim.rx:
            _sim.send({"t": "rxack", "n": len(_sim.rx)})
            _sim.rx[:] = b""

    def reset_output_buffer(self):
        if self._data:
            _tx[:] = b""

    def flush(self):
        pass


def enable(*, console=True, data=False):
    """Which ports USB will have. Only boot.py can change them while the board is plugged in
    (shared-bindings/usb_cdc/__init__.c, shared-module/usb_cdc/__init__.c)."""
    if _booted and _sim.connected:
        raise RuntimeError("Cannot change USB devices now")
    g = globals()
    g["console"] = Serial(False) if console else None
    g["data"] = Serial(True) if data else None


def disable():
    enable(console=False, data=False)


console = Serial(False)
data = None
_sim.after_boot(lambda: _booted.append(1))
