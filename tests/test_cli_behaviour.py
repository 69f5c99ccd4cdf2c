"""One behaviour per command: exit statuses as --help says, --json failures as JSON, Ctrl-C stops
what a command started on the board, odd ports and odd files refused with the reason."""

import json
import math
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from pegboard.commands.cli import build_parser
from pegboard.link.client import BoardClient
from pegboard.solve.solution_file import MAX_BYTES, SolutionError, load_solution



def test_every_command_help_states_its_exit_status():
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, p in sub.choices.items():
        assert "exit status: 0" in (p.epilog or ""), name
        assert "2 bad usage" in p.epilog, name


@pytest.mark.parametrize("port,needle", [
    ("loop://", "loopback: it echoes every request back"),
    ("", "--port is empty"),
    ("/dev/null", "is a device but not a serial port"),
    ("/etc/hostname", "is a file, not a serial port"),
    ("/tmp", "is a folder, not a serial port"),
    ("spy:///etc/hostname", "is a file, not a serial port"),
    ("foo://x", "protocol 'foo' not known"),
])
def test_odd_ports_are_refused_with_the_reason(port, needle):
    p = subprocess.run([sys.executable, "-m", "pegboard", "state", "--port", port], capture_output=True,
                       text=True, timeout=30)
    assert p.returncode in (1, 2) and needle in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "says error: error" not in p.stderr


def test_json_failures_are_json_objects(sim, tmp_path, cli):
    code, out, _ = cli("state", "--port", "loop://", "--json")
    assert code == 2 and json.loads(out)["ok"] is False and "loopback" in json.loads(out)["message"]
    code, out, _ = cli("state", "--port", str(tmp_path / "nothing"), "--json")
    assert code == 1 and json.loads(out)["error"] == "no_board"
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"rows": 5, "empty": 1, "moves": [[4, 2, 1], [4, 2, 1]]}))
    code, out, _ = cli("demo", str(f), "--port", sim.data_path, "--json")
    assert code == 2 and json.loads(out) == {"ok": False, "error": "usage",
                                             "message": "%s: move 2 [4, 2, 1]: 4 -> 1 over 2 is not legal here" % f}


def test_board_refusals_count_moves_from_1(sim, capsys):
    from pegboard.commands.boardargs import fail
    from pegboard.link.client import BoardError

    with BoardClient(sim.data_path) as b:
        with pytest.raises(BoardError) as e:
            b.request("demo", moves=[[1, 2, 4], [1, 2, 4]])  # the board's hole 4 is empty
    assert fail(e.value) == 1
    assert "move 2 of the list: 1 -> 4 over 2 is not legal here" in capsys.readouterr().err
    assert fail(e.value, as_json=True) == 1
    obj = json.loads(capsys.readouterr().out)
    assert obj["error"] == "illegal_move" and obj["move"] == 2 and obj["message"].startswith("move 2 ")
    # an argument the board refuses is bad input (2); a board that says no otherwise is 1
    with BoardClient(sim.data_path) as b:
        with pytest.raises(BoardError) as e:
            b.request("brightness", value=0)
    assert e.value.code == "bad_args" and fail(e.value) == 2


def test_a_file_for_another_board_size_names_both_sizes(sim, tmp_path, cli):
    six = tmp_path / "six.json"
    six.write_text(json.dumps({"rows": 6, "empty": 1, "moves": [[4, 2, 1]]}))
    four = tmp_path / "four.json"
    four.write_text(json.dumps({"rows": 4, "empty": 1, "moves": [[4, 2, 1]]}))
    for f, rows, holes in ((six, 6, 21), (four, 4, 10)):
        for cmd in ("demo", "guide"):
            code, _, err = cli(cmd, str(f), "--port", sim.data_path)
            assert code == 2
            assert "is for %d rows (%d holes); this board has 5 rows (15 holes)" % (rows, holes) in err
    with BoardClient(sim.data_path) as b:
        assert b.request("state")["mode"] == "play"  # nothing was sent


def test_deep_and_huge_files_get_a_clear_message(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(SolutionError, match="nested 5000 levels deep"):
        load_solution(deep)
    big = tmp_path / "big.json"
    big.write_text(" " * (MAX_BYTES + 1))
    with pytest.raises(SolutionError, match="over 64 KB"):
        load_solution(big)
    tricky = tmp_path / "strings.json"  # brackets inside strings do not count
    tricky.write_text('{"note": "[[[[[[[[[[[[\\"", "rows": 5, "empty": 1, "moves": [[4, 2, 1]]}')
    assert load_solution(tricky)["moves"] == [[4, 2, 1]]
    for name in ("demo", "guide"):
        p = subprocess.run([sys.executable, "-m", "pegboard", name, str(deep), "--port", "/dev/no-board"],
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and "nested 5000 levels deep" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("argv,what,sig", [(["demo"], "demo", signal.SIGINT),
                                           (["watch"], "solver show", signal.SIGINT),
                                           (["selftest", "--seconds", "60"], "self-test", signal.SIGINT),
                                           (["watch"], "solver show", signal.SIGTERM)])
def test_ctrl_c_or_kill_stops_what_the_command_started(sim, argv, what, sig):
    p = subprocess.Popen([sys.executable, "-m", "pegboard", *argv, "--port", sim.data_path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline()  # it has started (the port is its own until it ends)
    p.send_signal(sig)
    _out, err = p.communicate(timeout=30)
    assert p.returncode == 130 and "stopped the %s on the board" % what in err and "Traceback" not in err
    with BoardClient(sim.data_path) as b:
        assert b.request("state")["mode"] == "play"
        assert b.request("stop")["stopped"] is None  # nothing was left running


def test_no_traceback_for_odd_input(tmp_path):
    odd = [["solve", "--rows", "99"], ["solve", "--empty", "-1"], ["solve", "--finish", "x"],
           ["hint", "--port", "/dev/nope"], ["demo", str(tmp_path)], ["guide", "/dev/null"],
           ["hardware", "plate", "--rows", "99"], ["hardware", "plate", "--pitch", "-1"],
           ["hardware", "wiring", "/nope"], ["sim", "--settings", str(tmp_path)],
           ["selftest", "--seconds", "0"], ["solve", "--gif", str(tmp_path / "x.png")]]
    for argv in odd:
        p = subprocess.run([sys.executable, "-m", "pegboard", *argv], capture_output=True, text=True,
                           timeout=60, env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)))
        assert p.returncode in (1, 2) and "Traceback" not in p.stderr, (argv, p.stderr)
        assert p.stderr.strip(), argv


def _line_distance(p, a, b):
    """Distance from point p to the line through a and b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    return abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / math.hypot(bx - ax, by - ay)


def test_hardware_plate_writes_a_file(tmp_path, cli):
    out = tmp_path / "plate.svg"
    code, stdout, err = cli("hardware", "plate", "--rows", "6", "-o", str(out))
    assert code == 0 and stdout == "" and "wrote" in err
    # what the plate must be, from its options (6 rows: 21 holes; the defaults: 25 mm pitch, 20 mm
    # margin) and hardware/README.md's parts (14 mm bores; light-tube rings 14 mm outside, 6.5 mm
    # inside, 42 for 21 holes; 21 stop discs 14 mm across)
    svg = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    layer = {g.get("data-layer"): g for g in svg.iter(ns + "g") if g.get("data-layer")}
    assert sorted(layer) == ["base", "disc", "guide", "top", "tube"]

    def circles(key, cls):
        return [c for c in layer[key].iter(ns + "circle") if c.get("class") == cls]

    bores = {}
    for key in ("top", "guide", "base"):
        found = circles(key, "bore")
        assert sorted(int(c.get("data-hole")) for c in found) == list(range(1, 22)), key
        assert {float(c.get("r")) for c in found} == {7.0}, key
        bores[key] = {int(c.get("data-hole")): (float(c.get("cx")), float(c.get("cy"))) for c in found}
    # a triangle of holes 25 mm apart, hole 1 at the top: hole (row r, place c) from 0, rows 25 sin 60 apart
    x1, y1 = bores["top"][1]
    h = 0
    for r in range(6):
        for c in range(r + 1):
            h += 1
            x, y = bores["top"][h]
            assert abs(x - (x1 + (c - r / 2) * 25)) < 0.002 and abs(y - (y1 + r * 25 * math.sqrt(3) / 2)) < 0.002, h
    assert bores["guide"] == bores["top"]  # cut through with the same bores
    mirror = {bores["base"][n][0] + bores["top"][n][0] for n in bores["top"]}  # the base seen from below
    assert max(mirror) - min(mirror) < 0.002 and all(bores["base"][n][1] == bores["top"][n][1] for n in bores["top"])
    # the outline's edges 20 mm out from the corner holes' centres
    points = [tuple(map(float, xy.split(","))) for xy in layer["top"].find(ns + "polygon").get("points").split()]
    assert len(points) == 3
    for corner in (1, 16, 21):
        near = sorted(_line_distance(bores["top"][corner], points[i], points[(i + 1) % 3]) for i in range(3))
        assert abs(near[0] - 20) < 0.01 and abs(near[1] - 20) < 0.01, corner
    numbers = [t for t in layer["top"].iter(ns + "text") if t.get("class") == "number"]
    assert sorted(int(t.text) for t in numbers) == list(range(1, 22))
    rings, ring_bores = circles("tube", "tube-ring"), circles("tube", "tube-ring-bore")
    assert len(rings) == len(ring_bores) == 42 and {float(c.get("r")) for c in rings} == {7.0}
    assert {float(c.get("r")) for c in ring_bores} == {3.25}
    discs = circles("disc", "stop-disc")
    assert len(discs) == 21 and {float(c.get("r")) for c in discs} == {7.0}
    code, _, err = cli("hardware", "plate", "-o", str(tmp_path / "plate.png"))
    assert code == 2 and "must end in .svg" in err


def test_gif_refuses_other_suffixes_and_draws_a_readable_picture(tmp_path, cli):
    from PIL import Image

    code, _, err = cli("solve", "--gif", str(tmp_path / "x.png"))
    assert code == 2 and "must end in .gif" in err and not (tmp_path / "x.png").exists()
    path = tmp_path / "x.gif"
    code, _, _ = cli("solve", "--empty", "5", "--gif", str(path))
    img = Image.open(path)
    assert code == 0 and img.format == "GIF" and img.n_frames == 14 and img.size[0] >= 480
    # the holes are big: the landing hole of the first jump is a solid green disc 40+ px across
    img.seek(1)
    rgb = img.convert("RGB")
    green = [x for x in range(img.size[0]) for y in range(0, img.size[1], 4) if rgb.getpixel((x, y)) == (46, 139, 87)]
    assert max(green) - min(green) >= 40


def test_monitor_shows_both_directions_of_the_other_programs_traffic(sim, tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
    mon = subprocess.Popen([sys.executable, "-m", "pegboard", "monitor", "--port", sim.data_path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    first = mon.stdout.readline()
    assert first.startswith("monitoring "), first + mon.stderr.read()
    # another program uses the same board beside the monitor
    p = subprocess.run([sys.executable, "-m", "pegboard", "state", "--json", "--port", sim.data_path],
                       capture_output=True, text=True, env=env, timeout=30)
    assert p.returncode == 0 and json.loads(p.stdout)["empty_start"] == 4
    sim.control("lift", hole=5)
    sim.control("wait_idle")
    sim.control("place", hole=5)
    sim.control("wait_idle")
    said = []  # what it prints, read as it comes, up to the sensor event of the lift
    while not said or not (said[-1].startswith("← #") and "lift" in said[-1]):
        said.append(mon.stdout.readline())
        assert said[-1], "the monitor ended before it showed the lift"
    mon.send_signal(signal.SIGINT)
    out, err = mon.communicate(timeout=30)
    assert mon.returncode == 0 and "Traceback" not in err
    lines = "".join(said).splitlines() + out.splitlines()
    assert any(line.startswith("→ state") and "(pegboard state (pid " in line for line in lines)
    assert any(line.startswith("← reply") and "empty_start=4" in line for line in lines)
    assert any(line.startswith("← #") and "lift" in line and "hole=5" in line for line in lines)
    assert not list((tmp_path / "pegboard").glob("hub-*.json")), "the hub ended with its last program"


def test_mirror_plain_prints_each_move_in_words_and_the_board_after_it():
    from pegboard.sim.simulator import Simulator

    with Simulator() as s:
        s.control("fill", empty=1)
        s.control("wait_idle")
        p = subprocess.Popen([sys.executable, "-m", "pegboard", "mirror", "--plain", "--port", s.data_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "○"  # the first picture's top row: hole 1 empty
        for cmd, hole in (("lift", 4), ("place", 1), ("lift", 2)):
            s.control(cmd, hole=hole)
            s.control("wait_idle")
        said = []  # what it prints, read as it comes, up to the move list after the move
        while not said or not said[-1].startswith("moves:"):
            said.append(p.stdout.readline())
            assert said[-1], "the mirror ended before it showed the move"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        out = "".join(said)
    assert p.returncode == 0 and "Traceback" not in err
    after = out.split("4 → 1 over 2 (13 pegs left)\n", 1)[1]
    assert after.startswith("    ●\n   ○ ●\n  ○ ● ●\n") and "moves: 4-1" in after


def test_every_command_s_help_says_what_it_does():
    # `pegboard hint --help` had no description: each command's own help now opens with one
    import argparse

    from pegboard.commands.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [name for name, p in sub.choices.items() if not (p.description or "").strip()]
    assert not missing, missing
    assert sub.choices["hint"].description.startswith("Ask the board for the best move")


def test_an_output_file_that_cannot_be_written_is_refused_before_the_work(cli, tmp_path):
    # solve --svg into a missing folder printed the whole solution, then failed
    code, out, err = cli("solve", "--svg", str(tmp_path / "missing" / "x.svg"))
    assert code == 2 and out == "" and "there is no folder" in err


def test_the_parts_list_can_be_written_to_a_file_as_the_readme_says(cli, tmp_path):
    # README: `pegboard hardware plate [-o F]  # ... (also: schematic, section, box, bom)`
    path = tmp_path / "bom.txt"
    code, out, err = cli("hardware", "bom", "-o", str(path))
    assert code == 0 and out == ""
    assert "Microcontroller" in path.read_text()
