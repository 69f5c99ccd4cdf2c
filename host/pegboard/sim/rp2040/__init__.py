"""The rp2040 runtime: CircuitPython's own RP2040 binary in an emulated RP2040 (rp2040js)."""
