"""The simulated board keeps its flash between runs (issue "welcome"): a game played on it is
listed by `pegboard games` after the simulator is stopped and started again; each of the
firmware's writes reaches the file as it lands (a simulator stopped mid-game resumes the game, as
a board does after a power cut); `pegboard sim --list` shows the kept boards, `--fresh` starts
anew, a damaged file is refused saying what to do."""

import os
import subprocess
import sys

from pegboard.sim import kept_flash
from pegboard.sim.simulator import Simulator
from support import until


def play_two_moves(sim):
    sim.control("fill", empty=1)
    sim.control("wait_idle")
    for src, over, dst in ((4, 2, 1), (6, 5, 4)):
        for cmd, hole in (("lift", src), ("place", dst), ("lift", over)):
            sim.control(cmd, hole=hole)
        sim.control("wait_idle")


def test_a_game_is_listed_after_the_simulator_stops_and_starts_again(cli):
    flash = kept_flash.path_of("kept")
    with Simulator(flash=flash) as sim:
        play_two_moves(sim)
        sim.control("clear")  # the board emptied: the game ends, abandoned, and is kept
        def listed():
            out = cli("games", "--port", sim.data_path)[1]
            return out if "moves  abandoned" in out else None

        before = until(listed, 10, "the game kept")
        assert bytes(sim.nvm) == flash.read_bytes()
    assert str(flash).startswith(os.environ["PEGBOARD_DATA_DIR"])
    assert "1  start hole 1 empty" in before and "2 moves  abandoned" in before, before
    with Simulator(flash=flash) as sim:
        sim.control("wait_idle")
        code, out, _ = cli("games", "--port", sim.data_path)
        assert code == 0 and out == before
    with Simulator() as sim:  # without a kept flash: a new board, no game
        sim.control("wait_idle")
        code, out, _ = cli("games", "--port", sim.data_path)
        assert out == "no finished or abandoned game kept yet\n"


def test_the_sim_command_lists_keeps_and_refreshes_the_flash(tmp_path):
    env = dict(os.environ, PEGBOARD_DATA_DIR=str(tmp_path))

    def pegboard(*argv, timeout=20):
        return subprocess.run([sys.executable, "-m", "pegboard", *argv], env=env, capture_output=True, text=True,
                              timeout=timeout)

    out = pegboard("sim", "--list")
    assert out.returncode == 0 and "no simulated board's flash is kept yet" in out.stdout
    path = tmp_path / "boards" / "mine.nvm"
    kept_flash.save(path, b"\x01" * 10 + b"\xff" * (kept_flash.SIZE - 10))
    out = pegboard("sim", "--list")
    assert out.returncode == 0 and "mine" in out.stdout and "10 bytes written" in out.stdout
    path.write_bytes(b"junk")  # not a board's flash: refused before anything starts
    out = pegboard("sim", "--name", "mine")
    assert out.returncode == 2 and "is not a simulated board's flash" in out.stderr and "--fresh" in out.stderr
    out = pegboard("sim", "--name", "../etc")
    assert out.returncode == 2 and "name is 1-40 letters" in out.stderr
    p = subprocess.Popen([sys.executable, "-m", "pegboard", "sim", "--name", "mine", "--fresh"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [p.stdout.readline() for _ in range(4)]
        assert any(line.startswith("flash: %s" % path) for line in lines), lines
        assert not path.exists() or path.read_bytes().rstrip(b"\xff") != b"\x01" * 10  # erased: --fresh
    finally:
        p.terminate()
        p.wait(15)


def test_a_kept_board_plays_in_one_simulator_at_a_time(tmp_path):
    """Two simulators on one kept flash would each overwrite the other's games: the second is
    refused, naming the first's pid, until the first stops."""
    import pytest

    flash = kept_flash.path_of("shared")
    first = Simulator(flash=flash)
    try:
        with pytest.raises(kept_flash.FlashError, match=r"'shared' is running already \(pid %d\)" % os.getpid()):
            Simulator(flash=flash)
        env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
        out = subprocess.run([sys.executable, "-m", "pegboard", "sim", "--name", "shared"], env=env,
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 2 and "is running already" in out.stderr and "--name" in out.stderr, out.stderr
    finally:
        first.close()
    Simulator(flash=flash).close()  # free again once the first has stopped
    assert kept_flash.kept() == []  # nothing written yet: the lock beside the flash is no kept board
