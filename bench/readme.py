"""The README's figures come from the bench, not from typing: `python -m bench` keeps its results
in bench/results.json and rewrites the table between the two markers in README.md from them;
`python -m bench --readme` rewrites the table from the saved results without measuring."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
README = ROOT / "README.md"
BEGIN = "<!-- bench figures: made by `python -m bench` from bench/results.json; do not edit by hand -->"
END = "<!-- end of bench figures -->"

# what each figure is, for a reader of the README (figures without one show their key)
ABOUT = {
    "core.t5_counts_all_starts": "counts for all 15 starts, 15 holes (438,984 solutions), numpy engine",
    "core.t5_counts_all_starts_core": "the same, the pure core (the chip's code) on CPython",
    "core.t6_counts_all_starts": "counts for all 21 starts, 21 holes, numpy engine",
    "core.t5_count_corner_plain_backtracking": "count from a corner by plain backtracking (no memo)",
    "core.t5_count_corner_memo_speedup": "memoised count vs plain backtracking (corner start, pure core)",
    "core.t5_enumerate_all_solutions": "every solution from every start listed (438,984), pure core",
    "core.t7_solvability_all_starts": "solvability of all 28 starts, 28 holes, pure core",
    "core.hint_latency_median": "hint, median over every position a hand can set, MicroPython VM",
    "core.hint_latency_worst": "hint, worst of every position a hand can set, MicroPython VM",
    "core.heap_core_and_table": "core + hint table heap, chip VM",
    "core.hint_table_file": "hint table file",
    "firmware.idle_loop_pass": "idle main-loop pass",
    "firmware.sensor_event_to_lights": "sensor event → lights sent",
    "firmware.button_to_hint_lights": "button release → hint lights sent",
    "firmware.longest_pass_with_flash_write": "longest loop pass that logged a game entry (flash program included)",
    "firmware.longest_pass_with_compaction": "the pass that rewrote the NVM record (erase + program), in a quiet pass",
    "firmware.button_to_hint_lights_hand_set": "the same on pegs set by hand (free play)",
    "firmware.boot_to_ready": "start-up to ready in the bench's scenario (source compiled)",
    "firmware.code_load_on_demand_worst": "slowest on-demand module load (a show starting, a rarer request)",
    "firmware.longest_loop_pass": "longest loop pass of the whole scenario (`solve` with every finish from "
                                  "every start included), chip VM CPU time",
    "firmware.longest_loop_pass_compiling": "the same, a pass that compiles a rare request's code from `.py`",
    "firmware.solve_answer_worst": "`solve` with a finish hole: request → answer, worst over every start "
                                   "and finish",
    "firmware.heap_after_boot": "live heap after start-up, chip VM",
    "firmware.heap_peak_game_and_demo": "peak live heap: game, hints, demo, every request kind and 225 "
                                        "`solve`s, with the real device objects and neopixel library",
    "firmware.heap_peak_firmware_alone": "the same, pegfw + pegcore + table alone",
    "firmware.heap_free_needed": "free heap the whole scenario needs (compiling modules and fragmentation "
                                 "included), chip VM",
    "boot.first_light_ms_est_py": "start-up: `code.py`'s first line → first light, from `.py`",
    "boot.ready_ms_est_py": "start-up: `code.py`'s first line → game ready, from `.py`",
    "boot.first_light_ms_est_mpy": "start-up: first line → first light, from `.mpy`",
    "boot.ready_ms_est_mpy": "start-up: first line → game ready, from `.mpy`",
    "boot.mpy": "start-up from `.mpy`",
    "link.round_trip_median": "protocol round trip over the simulator's pty (median, `state`)",
    "link.round_trip_p99": "the same, 99th percentile",
    "link.round_trip_rare_request": "round trip of a rare request (its code loaded on demand)",
    "link.commands_per_second": "commands per second (`state`, one at a time)",
    "link.sensor_events_per_second": "sensor events from the control port, taken per second",
    "link.sensor_events_lost": "sensor events at 100/s from the control port, lost",
    "link.max_frame_current": "highest estimated LED current of any frame (game + demo at 100 % brightness)",
    "link.reconnect_after_replug": "reconnect after replug",
    "link.idle_simulator_cpu": "CPU a simulated board uses while nobody touches it (`pegboard sim`)",
    "mirror.move_to_screen_median": "the mirror: a move made by hand → shown, no key pressed (median)",
    "mirror.move_to_screen_worst": "the same, worst",
}
# extra fields worth a reader's eye, shown in brackets after the value
EXTRAS = (("rp2040_estimate_ms", "est. RP2040: %s ms"), ("measured_us", "VM: %s µs"),
          ("measured_ms", "VM: %s ms"), ("vm_ms", "VM: %s ms"), ("unix_64bit_vm_bytes", "64-bit VM: %s bytes"),
          ("smallest_heap_kb", "smallest heap %s KB"), ("skipped", "skipped: %s"))


def _num(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):
        return "{:,}".format(v)
    if isinstance(v, float):
        if v == 0:
            return "0"
        if abs(v) >= 100:
            return "{:,.0f}".format(v)
        return ("%.3g" % v)
    return str(v)


def row(name: str, fig: dict[str, Any]) -> str:
    value = fig.get("value")
    unit = str(fig.get("unit", ""))
    base = unit.replace(" (RP2040 estimate)", "")  # what the budget is in, too
    shown = base + (" est. RP2040" if base != unit else "")
    measured = ("%s %s" % (_num(value), shown)).strip() if value is not None else "—"
    extras = [fmt % _num(fig[k]) for k, fmt in EXTRAS if fig.get(k) not in (None, "")]
    if extras:
        measured += " (" + "; ".join(extras) + ")"
    budget = fig.get("budget")
    if budget is None:
        limit = "—"
    else:
        limit = ("%s%s %s" % ("≥ " if fig.get("at_least") else "≤ ", _num(budget), base)).strip()
    held = "yes" if fig.get("ok", True) else "**no**"
    return "| %s | %s | %s | %s |" % (ABOUT.get(name, name).replace("|", "\\|"), measured.replace("|", "\\|"),
                                      limit, held)


def table(results: dict[str, Any]) -> str:
    figures = results["figures"]
    when = results.get("when", "?")
    where = results.get("machine", "?")
    lines = [BEGIN, "",
             "Measured %s on %s (`bench/results.json` has every field)." % (when, where), "",
             "| figure | measured | budget | held |", "|---|---|---|---|"]
    lines += [row(name, figures[name]) for name in figures]
    lines += ["", END]
    return "\n".join(lines)


def save(figures: dict[str, Any], replace_all: bool) -> dict[str, Any]:
    """Write bench/results.json: all figures (a whole run), or these merged into the saved ones (a
    run of some bench modules). Returns what was written."""
    old: dict[str, Any] = {}
    if not replace_all and RESULTS.exists():
        old = json.loads(RESULTS.read_text()).get("figures", {})
    old.update(figures)
    out = {"when": time.strftime("%Y-%m-%d", time.gmtime()),
           "machine": "%s, %d cores, Python %s" % (platform.machine(), os.cpu_count() or 0,
                                                   platform.python_version()),
           "ok": all(f.get("ok", True) for f in old.values()), "figures": old}
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return out


def update_readme(results: dict[str, Any] | None = None) -> bool:
    """Rewrite the README's figures section from `results` (default: bench/results.json).
    Returns False if the README has no markers (nothing is written then)."""
    if results is None:
        results = json.loads(RESULTS.read_text())
    text = README.read_text()
    if BEGIN not in text or END not in text:
        return False
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    README.write_text(head + table(results) + tail)
    return True
