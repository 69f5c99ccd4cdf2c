"""What the tests share, so each file keeps only what it tests:
- the runtimes the simulated board runs on, and which of them `make test` runs;
- hands on the simulated board (lift/place sequences, a jump, a whole solution);
- waits that poll for what they wait for instead of sleeping a fixed time;
- the requests and output of a firmware App driven on fake hardware (the fakes themselves are in
  fakehw.py, which the bench runs in the MicroPython VMs too)."""

import json
import time

import pytest
from fakehw import run

from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver

RUNTIMES = ("cpython", "micropython", "chip", "thumb")


def runtimes(*fast):
    """Parameters for a test on each runtime of the simulated board: those in `fast` run in
    `make test`, the others in `make soak`. One runtime proves the point; the chip VM is the
    strictest of the fast ones (a CircuitPython board's feature level, stack and watchdog time), so
    it is the one `make test` keeps, and the same test on the other runtimes is a soak run (thumb:
    the same core on the emulated Cortex-M0+, its watchdog time in the chip's cycles)."""
    return [pytest.param(r, marks=() if r in fast else pytest.mark.soak) for r in RUNTIMES]


def pegboard_cli(env, *argv, timeout=30):
    """`pegboard ARGV` as a program of its own, in `env`; its CompletedProcess (text)."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "pegboard", *argv], capture_output=True, text=True, env=env,
                          timeout=timeout)


# -- waits ------------------------------------------------------------------------------------

def until(check, timeout=10.0, what="the condition", every=0.05, ignore=()):
    """Call check() until it returns something true and return that; fail after `timeout` s.
    Exceptions in `ignore` (a board still restarting) count as not yet."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            got = check()
            if got:
                return got
        except ignore:
            pass
        assert time.monotonic() < deadline, "timed out after %.1f s waiting for %s" % (timeout, what)
        time.sleep(every)


async def pilot_until(pilot, test, what, seconds=20.0):
    """Let a Textual app under run_test() run until test() holds (no key pressed meanwhile); the
    limit is for a loaded machine."""
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out waiting for " + what
        await pilot.pause(0.02)


def state_when(client, ok=lambda st: True, timeout=30.0, what="the board to answer"):
    """The board's state once it answers and ok(state) holds: after a power cut, a watchdog reset
    or a replug, when the firmware is back."""
    from pegboard.link.client import BoardError

    def ask():
        st = client.request("state", timeout=1)
        return st if ok(st) else None

    return until(ask, timeout, what, every=0.1, ignore=(BoardError,))


def back_after(sim, client, resets, timeout=30.0):
    """Wait until the simulated board restarted `resets` times in all and follows a game again
    (its start-up read of the sensors adopted); return its state."""
    until(lambda: sim.control("status")["resets"] >= resets, timeout, "reset %d" % resets, every=0.1)
    st = state_when(client, lambda st: st["mode"] not in ("starting", "setup"), timeout, "the game to come back")
    sim.control("wait_idle")
    return st


def console_line(sim, needle, timeout=10.0):
    """The simulated board's console once a line holds `needle`; fails if none does in time."""
    def seen():
        console = sim.control("status")["console"]
        return console if any(needle in line for line in console) else None

    return until(seen, timeout, "a console line with %r" % needle, every=0.1)


def hint_lit(sim, move, timeout=10.0):
    """The pixels once the hint's three holes (from, over, to) show three colours; fails if they never do."""
    f, o, t = move

    def three_colours():
        px = sim.control("pixels")["pixels"]
        return len({tuple(px[f - 1]), tuple(px[o - 1]), tuple(px[t - 1])}) == 3

    return until(three_colours, timeout, "the hint's three colours")


def red_blink(sim, timeout=5.0):
    """The pixels once they show a blink code (pure red on some pixel); fails if they never do."""
    def red():
        px = sim.control("pixels")["pixels"]
        return px if any(p[0] > 0 and p[1] == 0 and p[2] == 0 for p in px) else None

    return until(red, timeout, "a red blink code on the pixels")


# -- hands on the simulated board ---------------------------------------------------------------

def hand(sim, *steps):
    """("lift", hole) and ("place", hole) steps in order, then wait until the firmware saw them."""
    for cmd, h in steps:
        sim.control(cmd, hole=h)
    sim.control("wait_idle")


def jump(sim, move, order=(0, 2, 1)):
    """The jump (from, over, to) by hand: `order` of lifting `from`, lifting `over`, placing `to`."""
    f, o, t = move
    steps = [("lift", f), ("lift", o), ("place", t)]
    hand(sim, *(steps[k] for k in order))


def play_a_solution(sim, client, empty=1):
    """Fill the board but `empty`, play the solver's solution one jump at a time at a person's
    pace (the sensors see each move), and return the board's state after."""
    b = Board(5)
    sim.control("fill", empty=empty)
    sim.control("wait_idle")
    for j in Solver(b).solution(start_mask(b, empty)):
        jump(sim, b.move_of(j), order=(0, 2, 1))
    return client.request("state")


# -- a firmware App on fake hardware ------------------------------------------------------------

def stored(nvm, rows=5):
    """The Store the firmware reads at start-up from `nvm` (pegfw.store_log.load)."""
    from pegfw.store import Store
    from pegfw.store_log import load

    store = Store(nvm, rows)
    load(store)
    return store


def output(hw):
    """Every JSON line the App wrote to the host since the last call."""
    return [json.loads(x) for x in hw.serial.lines()]


def ask(app, hw, cmd, passes=400, **args):
    """One request, its one reply; a long request (solve, a job; records, a slice a pass) answers a
    few passes later."""
    req = {"id": 7, "cmd": cmd}
    req.update(args)
    hw.serial.rx += (json.dumps(req) + "\n").encode()
    run(app, hw, 10)
    replies = [r for r in output(hw) if "event" not in r]
    while not replies and (app.job is not None or app.requests.working is not None) and passes > 0:
        run(app, hw, 10)
        passes -= 10
        replies = [r for r in output(hw) if "event" not in r]
    assert len(replies) == 1, replies
    return replies[0]
