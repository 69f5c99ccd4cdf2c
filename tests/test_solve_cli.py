"""`pegboard solve`: output formats, agreement with the core, and clear errors for bad input."""

import json
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from pegboard.commands.cli import main
from pegcore.geometry import Board, start_mask
from pegcore.moves import validate_moves
from pegcore.rules import popcount


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_count_all_json_matches_reference(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "all", "--count", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["empty"] for r in rows] == list(range(1, 16))
    assert sum(r["count"] for r in rows) == 438984
    assert all(r["rows"] == 5 and r["finish"] is None for r in rows)


def test_count_with_finish(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "1", "--finish", "13", "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 16128


def test_text_solution_replays(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "4")
    assert code == 0
    assert out.startswith("Solution from hole 4 (13 jumps)")
    assert out.count(" over ") == 13
    assert "●" in out and "○" in out


def test_json_solution_is_valid(capsys):
    code, out, _ = run(capsys, "solve", "--rows", "6", "--empty", "3", "--json")
    sol = json.loads(out)
    b = Board(6)
    final, _ = validate_moves(b, start_mask(b, 3), sol["moves"])
    assert code == 0 and popcount(final) == 1


def test_min_moves(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "4", "--min-moves", "--json")
    assert code == 0 and json.loads(out)["min_moves"] == 9


def test_all_streams_every_solution(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "5", "--all", "--json")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1550 and len(set(lines)) == 1550
    b = Board(5)
    for line in lines[:50]:
        final, _ = validate_moves(b, start_mask(b, 5), json.loads(line)["moves"])
        assert popcount(final) == 1


def test_svg_has_a_board_per_step(capsys, tmp_path):
    path = tmp_path / "s.svg"
    code, _, _ = run(capsys, "solve", "--empty", "1", "--svg", str(path))
    root = ET.parse(path).getroot()
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    assert code == 0 and len(circles) == 14 * 15


def test_no_solution_exits_1_whatever_the_options(capsys):
    code, _, err = run(capsys, "solve", "--rows", "4", "--empty", "1")
    assert code == 1 and "no solution from hole 1" in err
    code, _, err = run(capsys, "solve", "--empty", "5", "--finish", "1")
    assert code == 1 and "no solution from hole 5 finishing in 1" in err
    code, _, err = run(capsys, "solve", "--rows", "4", "--empty", "1", "--all")
    assert code == 1 and "no solution from hole 1" in err
    code, out, _ = run(capsys, "solve", "--empty", "5", "--finish", "1", "--json")
    assert code == 1 and json.loads(out) == {"ok": False, "error": "no_solution", "rows": 5, "empty": 5,
                                             "finish": 1, "message": "no solution from hole 5 finishing in 1"}
    code, out, _ = run(capsys, "solve", "--empty", "99", "--json")
    assert code == 2 and json.loads(out)["ok"] is False and "--empty must be a hole" in json.loads(out)["message"]
    p = subprocess.run([sys.executable, "-m", "pegboard", "solve", "--rows", "x", "--json"], capture_output=True,
                       text=True)
    assert p.returncode == 2 and json.loads(p.stdout)["error"] == "usage" and "invalid int" in p.stdout


def test_min_moves_shows_which_jumps_make_each_move(capsys):
    code, out, _ = run(capsys, "solve", "--empty", "1", "--min-moves")
    assert code == 0
    head = out.splitlines()[0]
    n = int(head.split(", ")[1].split()[0])
    groups = [line for line in out.splitlines() if line.startswith("  move ")]
    assert len(groups) == n and sum(g.count(" over ") for g in groups) == 13
    for g in groups:  # each jump of a move starts where the one before landed
        jumps = [[int(x) for x in j.replace(" → ", " ").replace(" over ", " ").split()] for j in
                 g.split(": ", 1)[1].split("; ")]
        for a, b in zip(jumps, jumps[1:], strict=False):
            assert a[1] == b[0]
    code, out, _ = run(capsys, "solve", "--empty", "1", "--min-moves", "--json")
    obj = json.loads(out)
    assert [mv for g in obj["groups"] for mv in g] == obj["moves"] and len(obj["groups"]) == obj["min_moves"]


def test_a_long_solve_shows_progress_on_a_terminal_and_stops_on_ctrl_c():
    import os
    import pty

    master, slave = pty.openpty()  # stderr a terminal, as in a shell
    p = subprocess.Popen([sys.executable, "-m", "pegboard", "solve", "--rows", "8", "--empty", "all"],
                         stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    seen = b""
    end = time.monotonic() + 30
    while b"solving [" not in seen and time.monotonic() < end:
        seen += os.read(master, 4096)
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=10) == 130
    try:
        seen += os.read(master, 4096)
    except OSError:
        pass
    os.close(master)
    assert b"solving [" in seen and b"hole 1" in seen and b"Ctrl-C stops" in seen
    assert b"interrupted" in seen and b"Traceback" not in seen


@pytest.mark.parametrize("argv,needle", [
    (["--rows", "3"], "rows must be 4..8"),
    (["--rows", "9"], "rows must be 4..8"),
    (["--empty", "0"], "--empty must be a hole 1..15"),
    (["--empty", "16"], "--empty must be a hole 1..15"),
    (["--empty", "junk"], "--empty must be a hole"),
    (["--finish", "16"], "--finish"),
    (["--rows", "x"], "invalid int value"),
    (["--count", "--all"], "not allowed with"),
    (["--empty", "all", "--svg", "x.svg"], "--svg/--gif draw one solution"),
    (["--empty", "1", "--gif", "/no/such/dir/x.gif"], "--gif /no/such/dir/x.gif: there is no folder /no/such/dir"),
])
def test_bad_input_exits_2_with_a_message(argv, needle):
    # a real process: no traceback may reach the user
    p = subprocess.run([sys.executable, "-m", "pegboard", "solve", *argv], capture_output=True, text=True)
    assert p.returncode == 2
    assert needle in p.stderr
    assert "Traceback" not in p.stderr


def test_gif_has_a_frame_per_step(capsys, tmp_path):
    from PIL import Image

    path = tmp_path / "s.gif"
    code, _, _ = run(capsys, "solve", "--empty", "5", "--gif", str(path))
    img = Image.open(path)
    assert code == 0 and img.n_frames == 14


def test_t7_all_starts_json(capsys):
    code, out, err = run(capsys, "solve", "--rows", "7", "--empty", "all", "--json")
    assert code == 1  # some starts have no solution
    b = Board(7)
    lines = [json.loads(line) for line in out.splitlines()]
    solved = [r for r in lines if "moves" in r]
    failed = [r for r in lines if r.get("ok") is False]
    assert len(solved) == 18 and len(failed) == 10
    assert {r["empty"] for r in failed} == {1, 5, 7, 10, 13, 17, 20, 22, 25, 28}
    assert all(r["error"] == "no_solution" and "colour parity" in r["message"] for r in failed)
    for r in solved:
        final, _ = validate_moves(b, start_mask(b, r["empty"]), r["moves"])
        assert popcount(final) == 1
    assert all(r["reason"]["code"] == "colour" for r in failed)
    assert err.count(": colour parity: ") == 10  # the reason, in words
    assert "no solution from hole 13: " in err


def test_t7_count_is_refused_clearly(capsys):
    code, _, err = run(capsys, "solve", "--rows", "7", "--empty", "2", "--count")
    assert code == 2 and "out of reach" in err and "Traceback" not in err
    code, out, _ = run(capsys, "solve", "--rows", "7", "--empty", "1", "--count")
    assert code == 0 and out.strip() == "0 solutions from hole 1"  # parity: nothing to count


def test_t7_all_streams_solutions():
    p = subprocess.Popen([sys.executable, "-m", "pegboard", "solve", "--rows", "7", "--empty", "2", "--all"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline().decode()
    p.stdout.close()  # the reader goes away, as `| head -1` would
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0
    assert first.startswith("2: ") and len(first.split()) == 27  # 26 jumps
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_min_moves_on_six_rows_and_refused_on_seven(capsys):
    code, out, _ = run(capsys, "solve", "--rows", "6", "--empty", "2", "--min-moves", "--json")
    assert code == 0 and json.loads(out)["min_moves"] == 9
    code, _, err = run(capsys, "solve", "--rows", "7", "--empty", "2", "--min-moves")
    assert code == 2 and "out of reach" in err
