"""`pegboard run` (`make run`) with no board plugged in plays a running simulated board, and when
that board stops it starts one of its own instead of waiting on a port that is gone for good
(issue "welcome", item 3)."""

import signal
import subprocess
import sys
import threading
import time
import queue

from pegboard.link import runtime_file
from support import until


def lines_of(stream) -> "queue.Queue[str]":
    q: queue.Queue = queue.Queue()

    def pump():
        for line in stream:
            q.put(line)
        q.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return q


def read_until(q, text, timeout):
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            line = q.get(timeout=max(0.1, end - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            break
        seen.append(line)
        if text in line:
            return seen
    raise AssertionError("%r never came; saw: %s" % (text, "".join(seen[-20:])))


def test_run_plays_another_programs_board_then_its_own_when_that_one_stops(runtime_env):
    other = subprocess.Popen([sys.executable, "-m", "pegboard", "sim", "--name", "other"], env=runtime_env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run = None
    try:
        sim = until(runtime_file.answering_sim, 60, "the other program's simulated board announced")
        run = subprocess.Popen([sys.executable, "-m", "pegboard", "run"], env=runtime_env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        out = lines_of(run.stdout)
        read_until(out, "a simulated board runs on %s (pid %d): playing it here" % (sim["data"], other.pid), 60)
        read_until(out, "free play", 60)  # its state, mirrored as text (no terminal here)
        other.send_signal(signal.SIGTERM)
        other.wait(30)
        read_until(out, "the simulated board on %s stopped: starting this program's own" % sim["data"], 30)
        seen = read_until(out, "done: one peg left.", 120)  # its own board demonstrates a solution
        assert any("the board demonstrates" in line for line in seen)
        assert run.wait(30) == 0
        assert "Traceback" not in run.stderr.read()
    finally:
        for p in (other, run):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)

