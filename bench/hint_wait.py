"""The hint's wait as the player meets it (part of bench/firmware.py): bench/mp/release_latency.py
on thumbvm presses the hint button at random moments of the running loop and times each release
to the hint's lights, in the emulated chip's time; a laptop's `hint` request likewise from its
arrival. Nothing here was measured on a board."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pegboard.sim import thumbvm
from bench import mpy_drive
from bench.util import RP2040_UNIT, THUMBVM, figure

ROOT = Path(__file__).resolve().parent.parent
PRESSES = 240  # a multiple of 6: 160 in a game, 40 on pegs set by hand, 40 toward a challenge
BUDGET_MS = 5  # the hint's budget: the player's wait, debounce aside (issue "honest")
DEBOUNCE_MS = [20, 40]  # the keypad's, before the release reaches the firmware (pegfw.hardware)


def _percentile(xs: list[float], p: int) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, len(xs) * p // 100)]


def _samples(lib: str, settings: dict[str, str], nvm: str, top: Path) -> tuple[list[list[str]], list[list[str]]]:
    """The scenario's press and request lines, the firmware imported from `top`/firmware."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PEGBOARD_")}
    env.update({k: json.dumps(v) for k, v in settings.items()})  # as settings.toml has them
    cmd = [str(thumbvm.build().path), "-X", "heapsize=192K", "../bench/mp/release_latency.py", "..", lib, nvm,
           str(PRESSES)]
    p = subprocess.run(cmd, cwd=top / "firmware", env=env, capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        raise RuntimeError("the hint-wait scenario failed (exit status %d): %s"
                           % (p.returncode, (p.stdout + p.stderr)[-2000:]))
    rows = [line.split() for line in p.stdout.splitlines()]
    return [r[1:] for r in rows if r[:1] == ["press"]], [r[1:] for r in rows if r[:1] == ["request"]]


def run(lib: str, settings: dict[str, str], nvm: str) -> dict[str, Any]:
    """The figures, the firmware as a deploy places it (its modules .mpy, pegboard deploy's default when
    it finds an mpy-cross: bench.mpy_drive), and beside them the worst wait of a drive deployed
    from source (`pegboard deploy --py`, or no mpy-cross found), where a rare request's first
    compile holds a press."""
    try:
        drive = mpy_drive.staged()
    except mpy_drive.Unavailable as e:
        return {k: figure_unavailable(str(e)) for k in ("release_to_hint_lights", "request_to_hint_lights_p99")}
    with ThreadPoolExecutor(2) as pool:  # two emulators at once: their cycles do not depend on it
        deployed = pool.submit(_samples, lib, settings, nvm, drive)
        source = pool.submit(_samples, lib, settings, nvm, ROOT)
        out = _figures(*deployed.result())
        waits, worst_by = _waits(source.result()[0])
    out["release_to_hint_lights_from_source"] = figure(
        max(waits), RP2040_UNIT, None, p99_ms=_percentile(waits, 99), worst_ms_by_moment=worst_by,
        note="release_to_hint_lights's %d presses on a drive deployed from source (`pegboard deploy --py`, or "
             "no CircuitPython mpy-cross found): a press during a rare request's first compile (during_) "
             "waits for it, one pass the chip cannot break" % len(waits), vm=THUMBVM)
    return out


def figure_unavailable(why: str) -> dict[str, Any]:
    return {"value": None, "unit": RP2040_UNIT, "budget": BUDGET_MS, "ok": False, "skipped": why}


def _waits(presses: list[list[str]]) -> tuple[list[float], dict[str, float]]:
    """Each press's wait (ms), and the worst by moment (its context and its kind of work)."""
    waits = [int(r[2]) / 1000 for r in presses]
    worst_by: dict[str, float] = {}
    for r, w in zip(presses, waits, strict=True):
        for key in (r[0], r[1]):
            worst_by[key] = max(worst_by.get(key, 0.0), w)
    return waits, {k: worst_by[k] for k in sorted(worst_by)}


def _figures(presses: list[list[str]], requests: list[list[str]]) -> dict[str, Any]:
    # right after a request of each kind: its reply out (after_), or its bytes a moment before the press
    # (during_: a rare one's code may still be compiling as the button goes up)
    after = [r for r in presses if r[0].startswith(("after_", "during_"))]
    kinds = sorted({r[0].split("_", 1)[1] for r in after})
    during = [int(r[2]) / 1000 for r in after if r[0].startswith("during_")]
    if len(presses) - len(after) != PRESSES or not after or len(requests) != PRESSES // 2 + PRESSES // 20:
        raise RuntimeError("the hint-wait scenario gave %d presses and %d requests" % (len(presses), len(requests)))
    waits, worst_by = _waits(presses)  # ms
    own = [int(r[3]) for r in presses]  # the board's own last_hint_ms after each
    # the board's clock counts whole ms, read a few µs after the lights: its figure and the bench's
    # agree to within one tick and that
    apart = max(abs(w - o) for w, o in zip(waits, own, strict=True))
    req = [int(r[1]) / 1000 for r in requests if r[0] == "random"]
    collecting = [int(r[1]) / 1000 for r in requests if r[0] == "collecting"]
    req_own = [int(r[2]) for r in requests]
    common = {"vm": THUMBVM + "; the bench's own code and its fakes of C modules (keypad's queues, usb_cdc) "
                     "are not charged as chip time"}
    return {
        "release_to_hint_lights": figure(
            max(waits), RP2040_UNIT, BUDGET_MS, p99_ms=_percentile(waits, 99), median_ms=_percentile(waits, 50),
            presses=len(waits), worst_ms_by_moment=worst_by, modules=".mpy, as pegboard deploy writes them",
            after_a_reply_worst_ms=max(int(r[2]) / 1000 for r in after if r[0].startswith("after_")),
            while_a_request_is_answered_worst_ms=max(during), after_requests=kinds,
            last_hint_ms_worst=max(own), last_hint_ms_apart_ms=round(apart, 3), agrees_with_last_hint_ms=apart < 1.1,
            button_debounce_ms=DEBOUNCE_MS, from_physical_release_worst_ms=round(max(waits) + DEBOUNCE_MS[1], 3),
            note="the firmware as pegboard deploy places it (its modules .mpy: loaded, not compiled); the worst "
                 "of %d presses released at random moments of the running loop (in a game: idle, "
                 "the heap statistics' collection due, a jump's landing logged to flash (3 ms a page program, "
                 "the data sheet's worst), a laptop's `state` arriving; on pegs set by hand; toward a "
                 "challenge; and %d right after a request of each kind in after_requests, the rare ones "
                 "that load their code among them: its reply out (after_), or its bytes arriving a moment "
                 "before the press (during_: a rare request's module loading as the button goes up; "
                 "from source it compiles: release_to_hint_lights_from_source)): from the keypad's scan that queues "
                 "the release to the hint's lights sent; the "
                 "debounce before it is %d-%d ms" % (len(waits), len(after), DEBOUNCE_MS[0], DEBOUNCE_MS[1]),
            **common),
        "request_to_hint_lights_p99": figure(
            _percentile(req, 99), RP2040_UNIT, BUDGET_MS, worst_ms=max(req), median_ms=_percentile(req, 50),
            requests=len(req), during_a_collection_worst_ms=max(collecting), last_hint_ms_worst=max(req_own),
            note="99th percentile of %d `hint` requests as the host tool sends them (JSON with an id), their "
                 "bytes arriving at random moments of the running loop: arrival -> lights sent; the worst "
                 "beside it. %d more arrived as the heap statistics' collection fell due: a garbage "
                 "collection, which no pass interrupts, comes first (during_a_collection_worst_ms); the "
                 "chip collects when its heap fills, as often as every ~10 s in play. The board's own "
                 "last_hint_ms for a request counts from the pass that reads it (USB bytes carry no "
                 "arrival time)" % (len(req), len(collecting)), **common),
    }
