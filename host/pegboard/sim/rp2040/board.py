"""One emulated Raspberry Pi Pico for the rp2040 runtime: its flash (the UF2's CircuitPython, the drive
`pegboard deploy --py` would write, the NVM) in a file that lives as long as the simulator, and the
harness's wiring (which GPIO is which hole, the button, the pixels) from the board's settings."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pegboard.hardware.boards import SHIFT_WIRING
from pegboard.sim.device.pinnames import PICO
from pegboard.sim.errors import SimError
from pegboard.sim.rp2040.drive_image import build_drive, deploy_files
from pegboard.sim.rp2040.uf2 import Uf2Error, read_uf2

HARNESS = Path(__file__).resolve().parent / "harness.js"
UF2_VARIABLE = "PEGBOARD_UF2"  # where commands and tests find the UF2 when --uf2 is not given


def uf2_files(value: str | None) -> list[Path]:
    """The UF2s a PEGBOARD_UF2 names: one file, several (joined by os.pathsep), or a folder (its
    *.uf2, by name); a folder's files and each one named must exist."""
    out: list[Path] = []
    for part in (value or "").split(os.pathsep):
        if not part.strip():
            continue
        path = Path(part.strip()).expanduser()
        out += sorted(path.glob("*.uf2")) if path.is_dir() else [path]
    return out


def gpio_of(settings: dict[str, str | int], key: str) -> int | None:
    """The GPIO number of a pin setting ("GP15"), None when unset; SimError for a name the Pico lacks."""
    name = settings.get(key)
    if name in (None, ""):
        return None
    if str(name) not in PICO:
        raise SimError("%s = %r: the Raspberry Pi Pico has no such pin (the rp2040 runtime is a Pico)" % (key, name))
    return PICO[str(name)]


def wiring(settings: dict[str, str | int], shift_wiring: list[tuple[int, str]] | None = None) -> dict[str, Any]:
    """The harness's pins: sensors (GPIO per hole) or the 74HC165 chain, the button, the pixel pin."""
    out: dict[str, Any] = {"sensors": [], "shift": None, "button": gpio_of(settings, "PEGBOARD_BUTTON_PIN"),
                           "pixel": gpio_of(settings, "PEGBOARD_PIXEL_PIN")}
    if str(settings.get("PEGBOARD_SENSORS", "gpio")) == "shift":
        pins = {k: gpio_of(settings, "PEGBOARD_SR_" + k.upper()) for k in ("clock", "data", "latch")}
        if None in pins.values():
            raise SimError("PEGBOARD_SENSORS = \"shift\" needs PEGBOARD_SR_CLOCK, _DATA and _LATCH")
        out["shift"] = dict(pins, wiring=[list(w) for w in (shift_wiring or SHIFT_WIRING)])
    else:
        for name in str(settings.get("PEGBOARD_SENSOR_PINS", "")).split(","):
            if name.strip():
                out["sensors"].append(gpio_of({"pin": name.strip()}, "pin"))
    return out


def _new_file(path: Path, mode: str):
    """A file made new (never one that is there, never through a link), readable by this user alone."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    return open(os.open(path, flags, 0o600), mode)


class Rp2040Board:
    """The flash file and harness config of one simulated board; `close()` removes them."""

    def __init__(self, uf2: str | Path | None, settings_path: Path | None, settings: dict[str, str | int],
                 shift_wiring: list[tuple[int, str]] | None = None,
                 files: list[tuple[str, bytes]] | None = None) -> None:
        """`files`: the drive's files (path, bytes) in place of what `pegboard deploy --py` writes."""
        if not uf2:
            named = uf2_files(os.environ.get(UF2_VARIABLE))
            if len(named) > 1:
                raise SimError("%s names %d UF2s: give the one to run with --uf2 FILE" % (UF2_VARIABLE, len(named)))
            uf2 = named[0] if named else None
        if not uf2:
            raise SimError("the rp2040 runtime runs CircuitPython's own binary: give its UF2 for the Raspberry Pi "
                           "Pico with --uf2 FILE (or %s), from circuitpython.org/board/raspberry_pi_pico"
                           % UF2_VARIABLE)
        try:
            firmware = read_uf2(uf2)
        except (Uf2Error, OSError) as e:
            raise SimError(str(e)) from None
        self.version = firmware.version
        image = bytearray(firmware.image)
        lay = firmware.layout
        self.board_name = firmware.board
        drive = build_drive(files if files is not None else deploy_files(settings_path), size=lay.fs_size)
        image[lay.fs_offset:lay.fs_offset + len(drive)] = drive
        # a folder of this user's alone (mkdtemp: 0700, a new name): nobody else can plant a link at
        # the names written in it, as they could beside a file in the shared temporary folder
        self.folder = Path(tempfile.mkdtemp(prefix="pegboard-rp2040-"))
        self.flash_path = self.folder / "board.flash"
        with _new_file(self.flash_path, "wb") as f:
            f.write(image)
        config = dict(wiring(settings, shift_wiring), flash=str(self.flash_path),
                      nvm=[lay.nvm_offset, lay.nvm_size])
        self.config_path = self.folder / "config.json"
        with _new_file(self.config_path, "w") as f:
            f.write(json.dumps(config))

    def command(self, node: str) -> list[str]:
        return [node, str(HARNESS), str(self.config_path)]

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
