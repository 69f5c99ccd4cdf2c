"""A whole game from the keyboard alone through a real terminal that passes no mouse: `pegboard run
--sim` in tmux (mouse off, as tmux starts and as many SSH set-ups are), keys sent as a player types
them, the screen read back as text (issue "welcome")."""

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver

TMUX = shutil.which("tmux")
pytestmark = [pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
              pytest.mark.skipif(sys.platform == "win32", reason="the simulated board needs pseudo-terminals")]


def test_a_whole_game_from_the_keyboard_in_tmux_without_the_mouse(tmp_path):
    sock = "pegboard-%s" % uuid.uuid4().hex[:8]
    env = {"PEGBOARD_DATA_DIR": str(tmp_path / "data"), "XDG_RUNTIME_DIR": str(tmp_path), "TERM": "xterm-256color",
           "PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    command = " ".join(["env"] + ["%s=%s" % kv for kv in env.items()] + [sys.executable, "-m", "pegboard", "run",
                                                                          "--sim"])

    def tmux(*args, check=True):
        return subprocess.run([TMUX, "-L", sock, "-f", "/dev/null", *args], capture_output=True, text=True,
                              check=check, timeout=10)

    def screen():
        return tmux("capture-pane", "-p", "-t", "game").stdout

    def wait(text, seconds=30.0):
        end = time.monotonic() + seconds
        while text not in screen():
            assert time.monotonic() < end, "no %r on the screen:\n%s" % (text, screen())
            time.sleep(0.1)

    tmux("new-session", "-d", "-s", "game", "-x", "100", "-y", "32", command)
    try:
        tmux("set-option", "-g", "mouse", "off")
        wait("Move")  # the footer says how (⏎ Move)
        tmux("send-keys", "-t", "game", "n")
        wait("playing: 14 pegs")
        g = Board(5)
        for k, j in enumerate(Solver(g).solution(start_mask(g, 1)), 1):
            src, over, dst = g.move_of(j)
            for hole in (src, dst, over):  # a hole's number, then Enter: as a player types them
                for key in (*str(hole), "Enter"):
                    tmux("send-keys", "-t", "game", key)
                    time.sleep(0.05)
                time.sleep(0.1)
            if k < 13:
                wait("playing: %d pegs" % (14 - k))
        wait("You won")
        tmux("send-keys", "-t", "game", "q")
    finally:
        tmux("kill-server", check=False)
