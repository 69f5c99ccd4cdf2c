"""`pegboard sim` as a tool in its own process: commands find it without --port, its data path
survives replug, a missing --settings file is refused, a firmware that stops is reported; and
`pegboard run --sim` without a terminal prints the true position after each move."""

import json
import os
import re
import signal
import subprocess
import sys

import pytest
from support import jump, until

from pegboard.sim.hand import Hand


def _pegboard(*argv, env, timeout=30):
    return subprocess.run([sys.executable, "-m", "pegboard", *argv], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture
def env(tmp_path):
    e = dict(os.environ)
    e["XDG_RUNTIME_DIR"] = str(tmp_path)  # this test's simulators only
    return e


class SimProcess:
    def __init__(self, env, *args):
        self.p = subprocess.Popen([sys.executable, "-m", "pegboard", "sim", *args], stdout=subprocess.PIPE,
                                  text=True, env=env)
        self.data = self.p.stdout.readline().split(": ", 1)[1].strip()
        self.control = self.p.stdout.readline().split(": ", 1)[1].strip()
        self.note = self.p.stdout.readline()
        self.hand = Hand(self.control)

    def stop(self):
        self.hand.close()
        self.p.send_signal(signal.SIGINT)
        rest = self.p.communicate(timeout=30)[0]
        return self.p.returncode, rest


def test_commands_find_a_running_simulator_and_its_path_survives_replug(env, tmp_path):
    sim = SimProcess(env)
    try:
        # the simulator announces itself in a file just after it prints its ports
        files = until(lambda: list((tmp_path / "pegboard").glob("sim-*.json")), 10, "the runtime file")
        assert len(files) == 1 and json.loads(files[0].read_text())["data"] == sim.data
        assert os.path.islink(sim.data) and "follows it across unplug/replug" in sim.note
        sim.hand("fill", empty=6)
        sim.hand("wait_idle")
        p = _pegboard("state", "--json", env=env)
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout)["empty_start"] == 6
        p = _pegboard("ports", env=env)
        assert p.returncode == 0 and sim.data in p.stdout and "pegboard sim" in p.stdout
        sim.hand("unplug")
        assert not os.path.exists(sim.data)
        reply = sim.hand("replug")
        assert os.path.realpath(sim.data) == reply["data"]  # a new pseudo-terminal behind the same path
        p = _pegboard("state", "--port", sim.data, "--json", env=env)
        assert p.returncode == 0 and json.loads(p.stdout)["empty_start"] == 6
    finally:
        code, _ = sim.stop()
    assert code == 0
    assert not list((tmp_path / "pegboard").glob("sim-*")), "the runtime file and link are removed"
    p = _pegboard("state", env=env)
    assert p.returncode == 1 and "no board found" in p.stderr


def test_a_stale_runtime_file_is_ignored(env, tmp_path):
    d = tmp_path / "pegboard"
    d.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (d / "sim-1.json").write_text(json.dumps({"pid": dead.pid, "data": "/dev/nope", "control": "/dev/nope"}))
    os.symlink("/dev/nope", d / ("sim-%d-data" % dead.pid))
    p = _pegboard("state", env=env)
    assert p.returncode == 1 and "no board found" in p.stderr and "Traceback" not in p.stderr
    assert not (d / "sim-1.json").exists() and not os.path.lexists(d / ("sim-%d-data" % dead.pid))


def test_missing_settings_file_is_an_error(env, tmp_path):
    p = _pegboard("sim", "--settings", str(tmp_path / "nope.toml"), env=env)
    assert p.returncode == 2 and "no such file" in p.stderr and "Traceback" not in p.stderr


def test_a_firmware_that_stops_is_reported_with_its_console(env, tmp_path):
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "code.py").write_text("print('starting up')\nraise RuntimeError('the firmware fell over')\n")
    sim = SimProcess(env, "--firmware", str(fw))
    said = []  # the report, read as it comes: the simulator looks every 0.2 s
    while not said or not said[-1].startswith("(power_cycle"):
        said.append(sim.p.stdout.readline())
        assert said[-1], "the simulator ended without its report"
    code, out = sim.stop()
    out = "".join(said) + out
    assert code == 0
    assert "the firmware stopped; its last console lines:" in out
    assert "starting up" in out and "RuntimeError: the firmware fell over" in out


def test_without_a_terminal_the_demonstration_prints_the_true_position_after_each_move(capsys):
    """`pegboard run --sim` (and `make run`) without a terminal: the board demonstrates the rest of a
    game and each move is printed with the position after it. Ten moves are made by hand first,
    so the board's demonstration (about a second a move) is short."""
    from pegcore.geometry import Board as Geometry, start_mask
    from pegcore.solver import Solver
    from pegboard.link.client import BoardClient
    from pegboard.commands.ui import _scripted_show
    from pegboard.pictures.text import render_board
    from pegboard.sim.simulator import Simulator

    g = Geometry(5)
    mask = start_mask(g, 5)
    jumps = Solver(g).solution(mask)
    with Simulator() as sim, BoardClient(sim.data_path) as board:
        sim.control("fill", empty=5)
        sim.control("wait_idle")
        for j in jumps[:10]:
            jump(sim, g.move_of(j))
            mask ^= g.flip[j]
        assert _scripted_show(sim, board) == 0
    out = capsys.readouterr().out
    assert out.startswith(render_board(g, mask))
    steps = re.findall(r"^ ?(\d+)\. (\d+) → (\d+) over (\d+)   \((\d+) pegs? left.*\n((?:.*\n){5})", out, re.M)
    assert len(steps) == 3
    for k, (step, src, dst, over, left, picture) in enumerate(steps, 1):
        assert int(step) == k
        mask ^= (1 << (int(src) - 1)) | (1 << (int(over) - 1)) | (1 << (int(dst) - 1))
        assert picture.rstrip("\n") == render_board(g, mask)
        assert int(left) == 4 - k == bin(mask).count("1")
    assert "(1 peg left;" in out and "1 pegs" not in out
    assert "done: one peg left." in out
