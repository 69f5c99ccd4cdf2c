"""The CircuitPython versions the firmware supports, in one place: `pegboard deploy` refuses a drive
whose boot_out.txt names another, and the simulator models only these (pegboard sim --circuitpython).

- Oldest: 9.2.1. The hint button's debounce is keypad.Keys' `debounce_threshold`, which
  CircuitPython added in 9.1.0 (adafruit/circuitpython shared-bindings/keypad/Keys.c: absent at
  9.0.5, present from 9.1.0): on 9.0.x the button could not start. And the firmware reads the pegs
  a board holds at start-up (or after a reset mid-game) from keypad's reset(), which reports every
  held key as pressed only from 9.2.1 (shared-module/keypad/__init__.c: 9.1.0-9.2.0 set the
  counters so that the free keys are reported released instead): there a board reset mid-game
  would read an empty board and lose the game.
- Newest: 10.2.1, the newest release whose official binary the rp2040 runtime ran (RUN_ON_CHIP:
  each of these booted and played there, tests/test_e2e_rp2040.py) and whose sources the
  firmware's reading of settings.toml was checked against (docs/architecture.md, "Supported
  CircuitPython versions"). The range claimed is the range run: a newer version is refused unless
  asked for (`pegboard deploy --any-version`): 10.x's minor versions have changed what the
  firmware meets (10.2.0's os.getenv; the BOOTSEL read 10.x makes at start-up), and a major
  version is where CircuitPython makes its breaking changes and its .mpy format changes
  (pegboard.deploy.mpycross).
"""

from __future__ import annotations

import re

OLDEST = "9.2.1"
NEWEST_TESTED = "10.2.1"
RUN_ON_CHIP = ("9.2.1", "9.2.8", "10.2.1")  # the official Pico binaries the rp2040 runtime ran


def parse(version: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) of "9.2.1", "10.3.0-alpha.4" (a pre-release counts as its release), or
    None for a text that is not a version."""
    m = re.match(r"^\s*(\d+)\.(\d+)\.(\d+)", version or "")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def supported_range() -> str:
    return "%s to %s (run on the emulated chip: %s)" % (OLDEST, NEWEST_TESTED, ", ".join(RUN_ON_CHIP))


def refusal(version: str | None, any_version: bool = False) -> str | None:
    """Why the firmware must not go onto a board running `version` (None: it may). A newer
    version than the newest tested is allowed with `any_version`; an older version than OLDEST or
    an unreadable one never is."""
    v = parse(version or "")
    if v is None:
        return ("boot_out.txt names no CircuitPython version (%r), so it cannot be checked: the firmware "
                "supports CircuitPython %s" % (version, supported_range()))
    oldest = parse(OLDEST)
    assert oldest is not None
    if v < oldest:
        return ("the board runs CircuitPython %s, older than the firmware supports (%s): the hint button's "
                "debounce and its reading of the pegs at start-up need %s or later. Update CircuitPython "
                "(circuitpython.org/downloads)"
                % (version, supported_range(), OLDEST))
    newest = parse(NEWEST_TESTED)
    assert newest is not None
    if v > newest and not any_version:
        return ("the board runs CircuitPython %s, a newer version than the firmware was tested with "
                "(it supports %s); give --any-version to deploy anyway" % (version, supported_range()))
    return None
