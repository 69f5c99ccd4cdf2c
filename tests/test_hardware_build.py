"""Building the board (issue seethelight): an orderable parts list whose totals are its sums, an
assembly that tests each module before it is glued, a troubleshooting table from symptom to cause,
and a `pegboard selftest` that names the likely cause where the board can tell (on the simulated
board, the firmware's own selftest request, and the bookkeeping alone)."""

import csv
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakehw import make_app, run
from support import until

from pegboard.commands.cli import main
from pegboard.hardware import bom
from pegboard.hardware.bringup import SensorLog

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")


def section(title):
    """The text of `## title` (or `### title`) up to the next heading of its level or above."""
    m = re.search(r"^(#+) %s\n" % re.escape(title), DOC, re.M)
    assert m, title
    level = len(m.group(1))
    rest = DOC[m.end():]
    end = re.search(r"^#{1,%d} " % level, rest, re.M)
    return rest[:end.start()] if end else rest


# -- the parts list ----------------------------------------------------------------------------
def test_every_row_of_bom_csv_has_the_headers_fields():
    # read with the csv module alone: an unquoted comma in a note makes one field too many
    with open(bom.BOM, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    bad = [(n, len(r)) for n, r in enumerate(rows[1:], 2) if len(r) != len(rows[0])]
    assert not bad, "bom.csv: (line, fields) with other than the header's %d: %s" % (len(rows[0]), bad)


def test_a_malformed_row_is_an_error_naming_its_line(tmp_path, monkeypatch, capsys):
    # bom.read must not drop a row's extra fields (csv.DictReader files them under None) nor fill missing ones
    with open(bom.BOM, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    for row, why in ((rows[3] + ["more notes"], "14 fields"), (rows[3][:-1], "12 fields")):
        path = tmp_path / "bom.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(rows[:3] + [row] + rows[4:])
        with pytest.raises(ValueError, match=r"bom.csv line 4: %s, the header has 13" % why):
            bom.read(path)
    monkeypatch.setattr(bom, "BOM", path)  # `pegboard hardware bom` says so, exit 2, no traceback
    capsys.readouterr()
    assert main(["hardware", "bom"]) == 2 and "bom.csv line 4: 12 fields" in capsys.readouterr().err


LINES = bom.read()


@pytest.mark.parametrize("line", LINES, ids=lambda x: x.item)
def test_every_line_is_orderable(line):
    assert line.manufacturer.strip() and line.part.strip(), "no part number"
    assert line.source.strip(), "no source"
    assert line.unit and line.pack >= 1
    assert min(line.per_board, line.per_hole, line.per_8_holes) >= 0
    assert line.qty(15) > 0
    assert line.option in ("",) + tuple(bom.OPTIONS)


def test_the_consumables_and_the_pixel_capacitor_are_on_it():
    items = " ".join(x.item.lower() + " " + x.part.lower() for x in LINES)
    for what in ("perfboard", "header", "socket", "wire", "screw", "glue", "heat-shrink", "solder"):
        assert what in items, what
    # every pixel has its 0.1 uF: on the breakout, or as a line of its own
    pixel = next(x for x in LINES if x.item == "Pixel breakout")
    assert "0.1 uF" in pixel.notes
    assert any(x.option == "pixelcap" and "0.1 uF" in x.part and x.per_hole == 1 for x in LINES)
    # full order codes where the issue named them
    parts = " ".join(x.part for x in LINES)
    version = re.search(r"the board wants the \*\*DRV5032(\w+)\*\*", DOC).group(1)  # "Choosing the sensor"
    assert "SN74AHCT125N" in parts and re.search(r"DRV5032%s(LPG|DBZR|DBZT)\b" % version, parts)


def test_quantities_follow_the_board_size():
    by = {x.item: x for x in LINES}
    for holes in bom.SIZES:
        assert by["Peg sensor (hall-effect switch)"].qty(holes) == holes
        assert by["Pixel breakout"].qty(holes) == holes
        assert by["Shift registers"].qty(holes) == -(-holes // 8)  # a 74HC165 reads 8 holes
        assert by["Microcontroller"].qty(holes) == 1
    assert not bom.needs_shift(21) and bom.needs_shift(28)  # 28 + pixel + button > a Pico's 26 GPIO


@pytest.mark.parametrize("holes", bom.SIZES)
def test_totals_are_the_sum_of_the_lines(holes):
    for options in ((), bom.BUILD, bom.BUILD + ("shift",), tuple(bom.OPTIONS)):
        want = {}
        for x in LINES:
            if not x.option or x.option in options:
                want[x.unit] = want.get(x.unit, 0) + x.qty(holes)
        got = bom.totals(LINES, holes, options)
        assert set(got) == set(want) and all(abs(got[u] - want[u]) < 1e-9 for u in want)


def test_the_readme_shows_the_file_and_its_totals():
    parts = section("Parts (bom.csv)")
    assert bom.markdown(LINES) in parts  # `pegboard hardware bom --markdown`, as printed
    for holes in bom.SIZES:
        assert bom.totals_text(LINES, holes) in parts
    assert "USD" not in DOC  # no prices: none has been checked as a list price on a date
    assert "measured" not in parts.replace("Nothing here has been built or measured", "")


def test_the_usb_plug_height_is_in_the_box_line():
    box = next(x for x in LINES if x.item.startswith("Box"))
    assert "USB" in box.notes and re.search(r"\d+(\.\d)? mm above the bottom", box.notes)
    # the sum it gives adds up
    m = re.search(r"about ([\d.+ ]+) = ([\d.]+) mm", box.notes)
    assert m and abs(sum(float(v) for v in m.group(1).split("+")) - float(m.group(2))) < 0.05


def test_the_bom_command_prints_every_line_and_the_totals(tmp_path):
    p = subprocess.run([sys.executable, "-m", "pegboard", "hardware", "bom"], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    for x in LINES:
        assert x.part in p.stdout and x.source in p.stdout, x.item
    for holes in bom.SIZES:
        assert bom.totals_text(LINES, holes) in p.stdout
    md = subprocess.run([sys.executable, "-m", "pegboard", "hardware", "bom", "--markdown"], capture_output=True,
                        text=True, cwd=ROOT, timeout=60)
    assert md.returncode == 0 and md.stdout == bom.markdown(LINES)


# -- the build, tested as it goes ------------------------------------------------------------------
def steps(text):
    """The numbered steps of a section, as text."""
    return [s.strip() for s in re.split(r"^\d+\. ", text, flags=re.M)[1:]]


def test_each_module_is_tested_before_it_is_glued():
    st = steps(section("Assembly, tested as it goes"))
    assert len(st) >= 6

    def first(needle):
        return next(i for i, s in enumerate(st) if needle in s)

    jig = first("pegboard selftest --hole 1")
    glued = first("hot-glue it")
    assert jig < glued  # every module passed the jig before any goes under the plate ...
    s = st[glued]
    assert s.index("pegboard selftest --hole") < s.index("hot-glue it")  # ... and its hole's test before the glue
    box = first("glue the box rings")
    assert st[box].index("pegboard selftest --in-order") < st[box].index("glue the box rings")
    # the jig is checked before it is first powered
    assert st[first("The jig")].index("checks before first power") < st[first("The jig")].index("plugged in")


def test_the_checks_before_first_power_say_why():
    checks = section("Checks before first power")
    bullets = re.findall(r"^- \*\*(.+?)\*\*(.*?)(?=^- |\Z)", checks, re.M | re.S)
    names = " ".join(b[0] for b in bullets).lower()
    for what in ("5 v to gnd", "polarity", "level shifter's orientation", "solder bridges"):
        assert what in names, what
    for name, why in bullets:
        assert len(why.split()) >= 12, name  # each says what it prevents, not just what to do
    assert checks.rindex("\n- **") < checks.index("Then the first power")  # power comes after the checks


SYMPTOMS = ("No light at all", "First pixel lights, the rest dark", "Wrong colours", "Flicker or random colours",
            "A hole that never triggers", "Holes reported out of order", "Resets at high brightness")


def troubleshooting_rows():
    rows = [r for r in section("Troubleshooting").splitlines() if r.startswith("| ") and "---" not in r]
    return [[c.strip() for c in r.strip("|").split(" | ")] for r in rows[1:]]


def test_the_troubleshooting_table_goes_from_symptom_to_cause_and_check():
    rows = troubleshooting_rows()
    by = {}
    for r in rows:
        assert len(r) == 4 and r[1] and r[2], r
        for s in SYMPTOMS:
            if r[0].startswith(s):
                by[s] = r
    assert set(by) == set(SYMPTOMS)
    causes = {"Wrong colours": "PEGBOARD_PIXEL_ORDER", "Flicker or random colours": "470",
              "A hole that never triggers": "unipolar", "Holes reported out of order": "PEGBOARD_SENSOR_PINS",
              "Resets at high brightness": "PEGBOARD_CURRENT_MA"}
    for s, word in causes.items():
        assert word in by[s][1] + by[s][2], s
    assert "level shifter" in by["Flicker or random colours"][1] and "package" in by["A hole that never triggers"][1]


def test_what_the_table_quotes_is_what_selftest_says():
    # every quote in the table's last column is, in its parts around "...", what selftest prints
    # (hole numbers aside) in the case that row is about
    out = []
    free = SensorLog(15, [2])  # hole 2 reads a peg all along, hole 7 none; every other hole changes
    for h in range(1, 16):
        if h not in (2, 7):
            free.change(h, True)
    out += free.free_report()[1]
    for order in ([1, 2, 5, 4, 3], [1, 2, 6, 3, 4, 5]):  # swapped; one hole's peg reported as another
        log = SensorLog(15, [])
        for h in order:
            log.change(h, True)
        out += log.order_report()[1]
    stuck = SensorLog(15, [9])
    out += stuck.order_report()[1]
    text = re.sub(r"\d+", "N", "\n".join(out))
    quoted = 0
    for row in troubleshooting_rows():
        for quote in re.findall(r'"([^"]+)"', row[3]):
            for part in quote.split("..."):
                part = re.sub(r"\d+", "N", part.strip(" ,:"))
                if part:
                    quoted += 1
                    assert part in text, (row[0], part)
    assert quoted >= 6


# -- selftest's bookkeeping ----------------------------------------------------------------------------
def test_a_hole_that_never_changes_is_named_with_its_likely_cause():
    log = SensorLog(15, [h for h in range(1, 16) if h not in (4, 7)])
    for h in range(1, 16):
        if h not in (7,):
            log.change(h, h in (4,))
            log.change(h, h not in (4,))
    problems, lines = log.free_report()
    assert problems == 1 and len(lines) == 1
    assert lines[0].startswith("hole 7 never changed while the self-test ran")
    assert "pin order" in lines[0] and "magnet" in lines[0] and "unipolar" in lines[0]


def test_no_change_at_all_names_what_every_sensor_shares():
    problems, lines = SensorLog(15, []).free_report()
    assert problems == 0 and "3.3 V and GND" in lines[0] and "PEGBOARD_SENSOR_ACTIVE" in lines[0]


@pytest.mark.parametrize("order, want", [
    ([1, 2, 5, 4, 3] + list(range(6, 16)), ["holes 3 and 5 reported swapped"]),
    ([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15], ["hole 7 never reported a peg"]),
    ([1, 2, 6, 3, 4, 5] + list(range(7, 16)), ["the peg placed in hole 3 was reported as hole 6",
                                               "the peg placed in hole 6 was reported as hole 5"]),
    (list(range(1, 16)), ["every hole reported its own number, in order"]),
])
def test_pegs_placed_in_order_name_swaps_and_silent_holes(order, want):
    log = SensorLog(15, [])
    for h in order:
        log.change(h, True)
    problems, lines = log.order_report()
    for w in want:
        assert any(line.startswith(w) for line in lines), (w, lines)
    assert (problems == 0) == (order == list(range(1, 16)))


def test_a_hole_that_never_reads_empty_is_named_stuck():
    log = SensorLog(15, list(range(1, 16)))
    log.take([9])  # the others out: 9 stays
    for h in range(1, 16):
        if h != 9:
            log.change(h, True)
    problems, lines = log.order_report()
    assert problems == 1 and len(lines) == 1 and lines[0].startswith("hole 9 never read empty")
    assert "held low" in lines[0]


def test_one_module_on_the_jig():
    log = SensorLog(15, [])
    log.change(1, True)
    log.change(1, False)
    assert log.hole_report(1) == (0, ["hole 1's sensor changed 2 times: it answers"])
    quiet = SensorLog(15, [])
    problems, lines = quiet.hole_report(1)
    assert problems == 1 and lines[0].startswith("hole 1 never changed")
    crossed = SensorLog(15, [])
    crossed.change(2, True)
    problems, lines = crossed.hole_report(1)
    assert problems == 2 and "hole 2 changed too" in lines[1]


# -- the firmware's side: one hole's light --------------------------------------------------------
def ask(app, hw, **req):
    import json

    hw.serial.rx += (json.dumps(dict(req, id=7)) + "\n").encode()
    run(app, hw, 20)
    return [r for r in (json.loads(x) for x in hw.serial.lines()) if r.get("id") == 7][0]


def test_selftest_hole_lights_that_pixel_alone_red_green_blue():
    hw, app = make_app()
    assert ask(app, hw, cmd="selftest", hole=16)["error"] == "bad_args"
    assert ask(app, hw, cmd="selftest", hole=True)["error"] == "bad_args"
    r = ask(app, hw, cmd="selftest", seconds=5, hole=3)
    assert r["ok"] and r["hole"] == 3
    seen = []
    for _ in range(3):
        f = hw.frames[-1]
        assert all(c == 0 for i, c in enumerate(f) if i != 2)
        seen.append(max(range(3), key=lambda k: f[2] >> (16 - 8 * k) & 255))  # 0 red, 1 green, 2 blue
        run(app, hw, 1000)
    assert seen == [0, 1, 2]
    assert ask(app, hw, cmd="stop")["stopped"] == "selftest"
    assert ask(app, hw, cmd="selftest", seconds=1, hole=None)["hole"] is None  # null: the chase


# -- on the simulated board -------------------------------------------------------------------------
def selftest(sim, *argv):
    p = subprocess.Popen([sys.executable, "-m", "pegboard", "selftest", *argv, "--port", sim.data_path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = p.stdout.readline()  # it has asked the board: the readout runs
    assert first.startswith("pegs now:"), first + p.stderr.read()
    return p


def test_selftest_names_the_hole_whose_sensor_never_changes(sim):
    sim.control("lift", hole=7)  # a dead sensor reads no peg ...
    sim.control("wait_idle")
    p = selftest(sim, "--seconds", "15")  # room for 28 hand changes on a loaded machine (6 s was not)
    for h in range(1, 16):  # ... while every other hole is lifted and placed (4 and 7 are empty)
        if h == 7:
            continue
        for _ in range(2):
            sim.control("place" if h == 4 else "lift", hole=h) if _ == 0 else \
                sim.control("lift" if h == 4 else "place", hole=h)
            time.sleep(0.05)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 1, out + err
    named = [line for line in out.splitlines() if line.startswith("hole") and "never changed" in line]
    assert len(named) == 1 and named[0].startswith("hole 7 never changed while the self-test ran"), out
    assert "check its sensor" in named[0] and "hole 4 never" not in out


def test_selftest_in_order_names_swapped_holes_and_ends_when_all_answered(sim):
    p = selftest(sim, "--in-order", "--seconds", "60")
    started = time.monotonic()
    sim.control("clear")
    sim.control("wait_idle")
    for h in [1, 2, 5, 4, 3] + list(range(6, 16)):  # the wires of holes 3 and 5 crossed, to the board
        sim.control("place", hole=h)
        sim.control("wait_idle")
    out, err = p.communicate(timeout=60)
    assert time.monotonic() - started < 40  # it ended when every hole had answered, not after 60 s
    assert p.returncode == 1, out + err
    assert "the board reads empty: now place the pegs in order" in out
    assert "holes 3 and 5 reported swapped" in out and "never" not in out.split("swapped")[-1], out


def test_selftest_hole_is_one_module_bring_up(sim):
    p = selftest(sim, "--hole", "3", "--seconds", "3")
    def lit():
        pixels = sim.control("pixels")["pixels"]
        return pixels if any(c != [0, 0, 0] for c in pixels) else None

    px = until(lit, 30, "the self-test's first colour")
    assert px[2][0] > 0 and px[2][1] == px[2][2] == 0  # red first ...
    assert all(c == [0, 0, 0] for i, c in enumerate(px) if i != 2)  # ... on hole 3's pixel alone
    sim.control("lift", hole=3)
    sim.control("wait_idle")
    sim.control("place", hole=3)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, out + err
    assert "  hole 3: peg out" in out and "  hole 3: peg in" in out
    assert "hole 3's sensor changed 2 times: it answers" in out
