# Fake `usb_cdc`: the data port is the simulator's pseudo-terminal. Like the RP2040's CDC, it
# loses nothing while the host reads, and a write that the host cannot take writes less. Its
# receive buffer is bounded (data_port.RX_FIFO): the simulator passes on the host's bytes only
# as the firmware reads them, so a host that sends faster than the board reads waits.
import _sim

_enabled = {"console": True, "data": False}


class Serial:
    def __init__(self):
        self.timeout = None
        self.write_timeout = None

    @property
    def connected(self):
        _sim.pump()
        return _sim.connected

    @property
    def in_waiting(self):
        _sim.pump()
        return len(_sim.rx)

    @property
    def out_waiting(self):
        return 256 if _sim.tx_full else 0

    def read(self, n=None):
        _sim.pump()
        if n is None:
            n = len(_sim.rx)
        data = bytes(_sim.rx[:n])
        _sim.rx[:len(data)] = b""
        if data:
            _sim.send({"t": "rxack", "n": len(data)})  # room again: the host may send as much more
        return data if data else (None if self.timeout == 0 else b"")

    def readline(self):
        _sim.pump()
        i = _sim.rx.find(b"\n")
        n = len(_sim.rx) if i < 0 else i + 1
        return self.read(n)

    def write(self, buf):
        _sim.pump()
        if not _sim.connected:
            return 0  # nobody there: the bytes are lost, as on the chip without DTR
        if _sim.tx_full:
            return 0
        data = bytes(buf[:256])  # one USB FIFO's worth per call
        _sim.send({"t": "tx", "d": _sim.hexs(data)})
        return len(data)

    def reset_input_buffer(self):
        if _sim.rx:
            _sim.send({"t": "rxack", "n": len(_sim.rx)})
        _sim.rx[:] = b""

    def reset_output_buffer(self):
        pass

    def flush(self):
        pass


console = Serial()
data = None


def enable(console=True, data=False):
    _enabled["console"] = console
    _enabled["data"] = data


def _boot_done():
    global data
    data = Serial() if _enabled["data"] else None


_sim.after_boot(_boot_done)
