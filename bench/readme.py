"""The README's figures come from the bench, not from typing: `python -m bench` keeps its results
in bench/results.json and rewrites the table between the two markers in README.md from them, and
every figure quoted in the text of README.md and docs/*.md, written between inline markers
`<!--bench:KEY-->...<!--/bench-->` (KEY a figure's name, `KEY:budget` its budget, `KEY:share` the
share of its budget it uses, `margin` the largest such share of all); `python -m bench --readme`
rewrites them from the saved results without measuring. tests/test_bench_readme.py fails when a
quoted figure is not what results.json says.

Each row says where its figure comes from: RP2040 timings are thumbvm's emulated Cortex-M0+ cycles
at 125 MHz (bench/util.py; "RP2040, emulated"), shown with their cycle count, worst sample and the
PC's host figure beside them; flash passes add the data sheet's flash times; heap figures name their
VM. None was measured on a board."""

from __future__ import annotations

import json
import os
import platform
import re
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
README = ROOT / "README.md"
DOCS = ROOT / "docs"
QUOTED = re.compile(r"<!--bench:([\w.]+)(?::(\w+))?-->(.*?)<!--/bench-->", re.S)  # a figure quoted in the text
BEGIN = "<!-- bench figures: made by `python -m bench` from bench/results.json; do not edit by hand -->"
END = "<!-- end of bench figures -->"

# what each figure is, for a reader of the README (figures without one show their key)
ABOUT = {
    "core.t5_counts_all_starts": "counts for all 15 starts, 15 holes, numpy engine",
    "core.t5_counts_all_starts_core": "the same, the pure core (the chip's code) on CPython",
    "core.t6_counts_all_starts": "counts for all 21 starts, 21 holes, numpy engine",
    "core.t5_count_corner_plain_backtracking": "count from a corner by plain backtracking (no memo)",
    "core.t5_count_corner_memo_speedup": "memoised count vs plain backtracking (corner start, pure core)",
    "core.t5_enumerate_all_solutions": "every solution from every start listed, pure core",
    "core.t7_solvability_all_starts": "solvability of all 28 starts, 28 holes, pure core",
    "core.hint_latency_median": "hint lookup, median over every position a hand can set",
    "core.hint_latency_worst": "hint lookup, worst of every position a hand can set",
    "core.heap_core_and_table": "core + hint table heap, chip VM",
    "core.hint_table_file": "hint table file",
    "firmware.idle_loop_pass": "idle main-loop pass (median of 2,000; the budget is on the median)",
    "firmware.sensor_event_to_lights": "sensor event → lights sent (median of 25)",
    "firmware.release_to_hint_lights": "hint button released → hint lights sent, worst of 240 presses at "
                                       "random moments of the loop and 48 right after each request kind, "
                                       "modules as deployed (`.mpy`; debounce aside: 20–40 ms before it)",
    "firmware.release_to_hint_lights_from_source": "the same presses on a drive deployed from `.py` (a press "
                                                   "during a rare request's first compile waits for it)",
    "firmware.request_to_hint_lights_p99": "a `hint` request's arrival → hint lights sent, 99th percentile "
                                           "of 120 at random moments",
    "firmware.longest_pass_with_flash_write": "longest loop pass that logged a game entry (flash program included)",
    "firmware.longest_pass_with_compaction": "the pass that rewrote the NVM record (erase + program), in a quiet pass",
    "firmware.boot_to_ready": "start-up to ready in the bench's scenario (source compiled)",
    "firmware.code_load_on_demand_worst": "slowest on-demand module load (a show starting, a rarer request)",
    "firmware.longest_loop_pass": "longest loop pass of the whole scenario (`solve` with every finish from "
                                  "every start included)",
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
    "boot.longest_unfed_ms_py": "start-up: the longest stretch the armed watchdog (4 s) goes unfed, from `.py`",
    "boot.first_light_ms_est_mpy": "start-up: first line → first light, from `.mpy`",
    "boot.ready_ms_est_mpy": "start-up: first line → game ready, from `.mpy`",
    "boot.longest_unfed_ms_mpy": "start-up: the longest stretch the armed watchdog (4 s) goes unfed, from `.mpy`",
    "boot.first_light_ms_est_mpy_host": "start-up: first line → first light, from `.mpy`, PC (unix VM)",
    "boot.ready_ms_est_mpy_host": "start-up: first line → game ready, from `.mpy`, PC (unix VM)",
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
    "web.page_follows_hand_median": "the browser page (`pegboard web`, headless Chromium): a move made by hand → "
                                    "drawn (median)",
    "web.page_follows_hand_worst": "the same, worst",
    "install.run_install_s": "`make run`'s first set-up on a fresh clone (venv, pip, what running needs)",
}
# units, as the table shows them (a unit not here is shown as it is), and what budgets are in
RP2040_UNIT = "ms (RP2040: emulated Cortex-M0+ cycles at 125 MHz)"
FLASH_UNIT = "ms (RP2040: emulated Cortex-M0+ cycles at 125 MHz, plus data-sheet flash times)"
UNITS = {RP2040_UNIT: ("ms RP2040, emulated", "ms"),
         FLASH_UNIT: ("ms RP2040, emulated + data-sheet flash", "ms"),
         "ms (RP2040 estimate)": ("ms est. RP2040", "ms")}  # results from before thumbvm (x230)
# extra fields worth a reader's eye, shown in brackets after the value
EXTRAS = (("cycles", "%s cycles"), ("cpu_ms", "CPU %s ms"), ("flash_ms", "flash %s ms"),
          ("p99_ms", "p99 %s ms"), ("last_hint_ms_worst", "the board's own last_hint_ms: worst %s ms"),
          ("collect_ms", "one gc.collect %s ms"),
          ("host_unix_vm_us", "PC's unix VM: %s µs"),
          ("rp2040_estimate_ms", "est. RP2040: %s ms"), ("measured_us", "VM: %s µs"),
          ("measured_ms", "VM: %s ms"), ("vm_ms", "VM: %s ms"), ("unix_64bit_vm_bytes", "64-bit VM: %s bytes"),
          ("thumbvm_bytes", "thumbvm: %s bytes"), ("smallest_heap_kb", "smallest heap %s KB"),
          ("skipped", "skipped: %s"), ("total", "%s solutions"), ("solutions", "%s solutions"),
          ("not_shown", "moves never shown: %s"), ("venv_mb", "venv %s MB"))


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
    shown, base = UNITS.get(unit, (unit, unit))  # base: what the budget is in, too
    measured = ("%s %s" % (_num(value), shown)).strip() if value is not None else "—"
    extras = [fmt % _num(fig[k]) for k, fmt in EXTRAS if fig.get(k) not in (None, "", [])]
    if fig.get("worst_ms") is not None:  # a sampled figure's worst single sample, after its cycles
        worst = "worst %s ms" % _num(fig["worst_ms"])
        if fig.get("worst_cycles") is not None:
            worst += " = %s cycles" % _num(fig["worst_cycles"])
        extras.insert(1 if fig.get("cycles") is not None else 0, worst)
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


PER_VERSION = re.compile(r"^[a-z_]+\.v\d+_\d+_\d+\w*\.")


def table(results: dict[str, Any]) -> str:
    figures = results["figures"]
    when = results.get("when", "?")
    where = results.get("machine", "?")
    lines = [BEGIN, "",
             "Run %s on %s (`bench/results.json` has every field, and in `runs` the date, commit and "
             "firmware of each bench module's last run). RP2040 timings are emulated: "
             "thumbvm's Cortex-M0+ cycles at 125 MHz under the cycle model in "
             "`host/pegboard/sim/thumbvm/host.c` (`docs/chip-runtime.md`: what it leaves out), the same on "
             "every PC; flash writes add the W25Q16JV data sheet's times. None was measured on a board."
             % (when, where), "",
             "| figure | value | budget | held |", "|---|---|---|---|"]
    # one version's own figures (realchip.v10_2_1.*) stay in results.json: the table has the worst of them
    lines += [row(name, figures[name]) for name in figures if not PER_VERSION.match(name)]
    lines += ["", END]
    return "\n".join(lines)


def save(figures: dict[str, Any], replace_all: bool) -> dict[str, Any]:
    """Write bench/results.json: all figures (a whole run), or these in place of the saved figures
    of the bench modules that made them (a run of some bench modules: a module's figures it no
    longer makes go, the other modules' stay). Returns what was written."""
    old: dict[str, Any] = {}
    if not replace_all and RESULTS.exists():
        old = json.loads(RESULTS.read_text()).get("figures", {})
    def module(key: str) -> str:
        return key.split(".", 1)[0]

    ran = {module(k) for k in figures}
    placed: set[str] = set()
    merged: dict[str, Any] = {}
    for k, fig in old.items():  # a module's new figures where its old ones were
        if module(k) not in ran:
            merged[k] = fig
        elif module(k) not in placed:
            placed.add(module(k))
            merged.update({n: f for n, f in figures.items() if module(n) == module(k)})
    merged.update(figures)  # modules not saved before: at the end
    when = time.strftime("%Y-%m-%d", time.gmtime())
    runs = {} if replace_all else dict(json.loads(RESULTS.read_text()).get("runs", {}) if RESULTS.exists() else {})
    for name in sorted(ran):  # which run made each module's figures: a partial run replaces only its own
        runs[name] = {"when": when, "commit": _commit(), "firmware": firmware_digest()}
    out = {"when": when,
           "machine": "%s, %d cores, Python %s" % (platform.machine(), os.cpu_count() or 0,
                                                   platform.python_version()),
           "ok": all(f.get("ok", True) for f in merged.values()), "runs": runs, "figures": merged}
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return out


def firmware_digest() -> str:
    """A digest of the firmware's files (firmware/, as the chip runs them): the figures a run made
    from the firmware are of this firmware only (tests/test_bench_readme.py compares it)."""
    import hashlib

    h = hashlib.sha256()
    base = ROOT / "firmware"
    for path in sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(path.relative_to(base).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _commit() -> str | None:
    """The commit the run started from (its tree may hold changes not committed yet: `firmware` says)."""
    import subprocess

    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


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
    update_quoted(results)
    return True


def _budgeted(figures: dict[str, Any]) -> list[tuple[float, str]]:
    """(share of its budget, name) of every figure with an upper budget and a value."""
    out = []
    for name, fig in figures.items():
        value, budget = fig.get("value"), fig.get("budget")
        if isinstance(value, (int, float)) and isinstance(budget, (int, float)) and budget > 0 \
                and not fig.get("at_least") and not isinstance(value, bool):
            out.append((value / budget, name))
    return out


def quoted(results: dict[str, Any], key: str, field: str | None) -> str:
    """The text a quoted figure stands for: KEY's value with its unit, its budget, or its share."""
    figures = results["figures"]
    if key == "margin":  # the chip timing (thumbvm's) nearest its budget
        chip = {n: f for n, f in figures.items() if f.get("unit") in (RP2040_UNIT, FLASH_UNIT)}
        share, name = max(_budgeted(chip))
        return "%d %%" % round(share * 100)
    fig = figures[key]  # KeyError: a quoted figure the bench does not make
    base = str(fig.get("unit", "")).split(" (", 1)[0]  # "ms (RP2040: ...)": ms
    if field == "budget":
        return ("%s %s" % (_num(fig["budget"]), base)).strip()
    if field == "share":
        return "%d %%" % round(fig["value"] / fig["budget"] * 100)
    if field == "venv_mb":  # a size beside the figure (bench/install.py)
        return "%s MB" % _num(fig["venv_mb"])
    if field not in (None, "value"):
        raise KeyError("%s: no such field of a quoted figure (value, budget, share, venv_mb)" % field)
    return ("%s %s" % (_num(fig["value"]), base)).strip()


def quote_figures(text: str, results: dict[str, Any]) -> str:
    return QUOTED.sub(lambda m: "<!--bench:%s%s-->%s<!--/bench-->" % (
        m.group(1), ":" + m.group(2) if m.group(2) else "", quoted(results, m.group(1), m.group(2))), text)


def documents() -> list[Path]:
    return [README] + sorted(DOCS.glob("*.md"))


def update_quoted(results: dict[str, Any] | None = None) -> None:
    """Rewrite every quoted figure in README.md and docs/*.md from `results` (default: results.json)."""
    if results is None:
        results = json.loads(RESULTS.read_text())
    for path in documents():
        text = path.read_text(encoding="utf-8")
        new = quote_figures(text, results)
        if new != text:
            path.write_text(new, encoding="utf-8")
