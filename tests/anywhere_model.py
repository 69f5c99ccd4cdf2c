"""Random episodes of hands at the board (issue "anywhere"): a game of random length, abandoned by
emptying the board with a stray hand on the way, then hand-set positions and `play` games, with
power cuts anywhere. Checked after every step against the truth: every hint is a legal jump on the
sensed pegs, the board's `solvable` is the solver's, no move of the abandoned game is reported or
lit after the board was emptied, and a resumed game is the game that was played.

One episode runs against a driver: FakeBoard (the App on fake hardware, CPython) or SimBoard (the
simulated board on a runtime, e.g. the chip VM). Used by test_fw_anywhere_props.py (quick, `make
test`) and the soak (long)."""

import random
import time

from fakehw import FlashNvm, HW, make_app, run
from support import output, until

from pegcore.geometry import Board, start_mask
from pegcore.rules import has_move, holes_of, legal_jumps, popcount
from pegcore.solver import Solver
from pegfw.app import DOUBLE_PRESS_MS, EMPTY_SETTLE_MS

B = Board(5)
SOLVER = Solver(B)


class FakeBoard:
    """The firmware's App on fake hardware with flash-like NVM; a power cut builds a new App on the
    same NVM with the pegs as they are."""

    def __init__(self):
        self.nvm = FlashNvm()
        self.mask = 0
        self.log = []
        self._boot()

    def _boot(self):
        hw = HW(nvm=self.nvm)
        hw.sensors.state = self.mask
        self.hw, self.app = make_app(hw)
        run(self.app, self.hw, 150)
        self._collect()

    def _collect(self):
        replies = []
        for obj in output(self.hw):
            (self.log if "event" in obj else replies).append(obj)
        return replies

    def toggle(self, hole):
        self.mask ^= 1 << (hole - 1)
        self.hw.sensors.set(self.mask)
        run(self.app, self.hw, 25)
        self._collect()

    def request(self, cmd, **args):
        import json

        self.hw.serial.rx += (json.dumps(dict(id=1, cmd=cmd, **args)) + "\n").encode()
        run(self.app, self.hw, 20)
        replies = self._collect()
        while not replies and self.app.job is not None:
            run(self.app, self.hw, 20)
            replies = self._collect()
        assert len(replies) == 1, replies
        return replies[0]

    def press(self):
        """A lone short press (a hint): the next one comes after DOUBLE_PRESS_MS, as a player's would,
        so no two or three make a challenge or a puzzle."""
        self.hw.button.set(1)
        run(self.app, self.hw, 60)
        self.hw.button.set(0)
        run(self.app, self.hw, 40)
        self._collect()
        run(self.app, self.hw, DOUBLE_PRESS_MS + 20)
        self._collect()

    def settle(self):
        run(self.app, self.hw, EMPTY_SETTLE_MS + 100)
        self._collect()

    def power_cut(self):
        self._boot()

    def events(self):
        out, self.log = self.log, []
        return out


class SimBoard:
    """The simulated board (pegboard.sim.Simulator) through its control port and a BoardClient."""

    def __init__(self, sim, client):
        self.sim, self.b = sim, client
        self.mask = 0
        self.resets = sim.control("status")["resets"]
        self.log = []
        sim.control("clear")
        sim.control("wait_idle")

    def toggle(self, hole):
        placed = not self.mask >> (hole - 1) & 1
        self.mask ^= 1 << (hole - 1)
        self.sim.control("place" if placed else "lift", hole=hole)
        self.sim.control("wait_idle")  # a hand's pace: the board sees every picture

    def request(self, cmd, **args):
        from pegboard.link.client import BoardError

        self.sim.control("wait_idle")
        try:
            r = self.b.request(cmd, **args)
        except BoardError as e:
            r = dict(e.reply) or {"ok": False, "error": e.code}
        self.log += self.b.poll()
        return r

    def press(self):
        self.sim.control("press", ms=80)
        self.sim.control("wait_idle")
        time.sleep((DOUBLE_PRESS_MS + 20) / 1000)  # a lone press (a hint), as FakeBoard.press

    def settle(self):
        """Leave the pegs as they are past the settle time; on an empty board, wait (up to a
        loaded machine's 3 s) for the board to end the game, as the model then checks."""
        self.sim.control("wait_idle")
        time.sleep((EMPTY_SETTLE_MS + 150) / 1000)
        self.sim.control("wait_idle")
        if not self.mask:
            deadline = time.monotonic() + 3
            while self.request("state")["mode"] not in ("setup",) and time.monotonic() < deadline:
                time.sleep(0.05)

    def power_cut(self):
        self.resets += 1
        self.sim.control("power_cycle")
        until(lambda: self.sim.control("status")["resets"] >= self.resets, 30, "the reset")
        # back once it answers and has read the pegs as they are (its start-up read settled)
        until(lambda: self.request("state").get("pegs") == holes_of(self.mask), 30, "the board back")
        self.sim.control("wait_idle")

    def events(self):
        self.sim.control("wait_idle")
        self.log += self.b.poll(0.05)
        out, self.log = self.log, []
        return out


def _moves_to(board, rnd, mask, cut_p, lifts_first=False):
    """Change the board's pegs to `mask`, a hole at a time in random order (`lifts_first`: the pegs
    to take out first, so no picture on the way is a full board less one); a power cut at a random
    picture now and then."""
    diff = holes_of(board.mask ^ mask)
    rnd.shuffle(diff)
    if lifts_first:
        diff.sort(key=lambda h: mask >> (h - 1) & 1)
    for h in diff:
        board.toggle(h)
        if rnd.random() < cut_p:
            board.power_cut()


def _hand_jump(board, rnd, j, cut_p):
    holes = [B.jump_from[j] + 1, B.jump_to[j] + 1, B.jump_over[j] + 1]
    if rnd.random() < 0.5:
        holes = [holes[2], holes[0], holes[1]]  # the jumped peg pulled first
    for h in holes:
        board.toggle(h)
        if rnd.random() < cut_p:
            board.power_cut()


def check_hint(board, mask):
    """The hint (request and button) on the pegs as sensed: legal, and solvable as the solver says."""
    truth = SOLVER.solution(mask) is not None if popcount(mask) > 1 else popcount(mask) == 1
    st = board.request("state")
    r = board.request("hint")
    assert r.get("ok"), r
    legal = legal_jumps(B, mask)
    if legal:
        assert r["move"] is not None and B.find_jump(*r["move"]) in legal, (holes_of(mask), r)
    else:
        assert r["move"] is None, (holes_of(mask), r)
    assert r["solvable"] is truth and st["solvable"] is truth, (holes_of(mask), r, st["solvable"])
    board.press()
    for e in board.events():
        if e["event"] == "hint" and e["move"] is not None:
            assert B.find_jump(*e["move"]) in legal, (holes_of(mask), e)


def episode(board, seed, cut_p=0.05):
    """One episode; raises AssertionError with what went wrong."""
    rnd = random.Random(seed)
    # a game of random length from a random start
    empty = rnd.randrange(1, 16)
    _moves_to(board, rnd, start_mask(B, empty), 0)
    pos = start_mask(B, empty)
    for _ in range(rnd.randrange(0, 14)):
        legal = legal_jumps(B, pos)
        if not legal:
            break
        j = rnd.choice(legal)
        _hand_jump(board, rnd, j, cut_p)
        pos ^= B.flip[j]
    st = board.request("state")
    assert st["position"] == holes_of(pos), (seed, st, holes_of(pos))
    if has_move(B, pos):
        assert st["mode"] == "play" and st["empty_start"] == empty, (seed, st)
    else:  # over; after a reset, the scored game's end is free play
        assert st["mode"] in ("over", "setup"), (seed, st)
    if popcount(pos) == 2 and has_move(B, pos):
        return  # emptying now is the last jump in the hand (test_fw_anywhere covers it)
    # abandon: empty the board, a stray peg put in and taken out on the way
    order = holes_of(pos)
    rnd.shuffle(order)
    stray_at = rnd.randrange(0, len(order))
    for k, h in enumerate(order):
        board.toggle(h)
        if k == stray_at and board.mask:
            s = rnd.choice([x for x in range(1, 16) if not board.mask >> (x - 1) & 1])
            board.toggle(s)
            board.toggle(s)
    board.settle()
    board.events()
    if rnd.random() < cut_p * 4:
        board.power_cut()
    st = board.request("state")
    if st["mode"] == "play":  # the stray hand completed a move on the way, leaving the last jump in the hand
        left = sum(1 << (h - 1) for h in st["position"])
        assert popcount(left) == 2 and has_move(B, left) and board.mask == 0, (seed, st)
        return
    assert st["mode"] == "setup" and st["position"] == [] and st["start"] is None, (seed, st)
    board.events()
    # hand-set positions: free play, true hints
    for _ in range(rnd.randrange(1, 4)):
        want = 0
        for h in range(1, 16):
            if rnd.random() < 0.5:
                want |= 1 << (h - 1)
        if popcount(want) >= 14:
            want &= want - 1  # a full board less one would start a game: that is covered elsewhere
            want &= want - 1
        _moves_to(board, rnd, want, cut_p, lifts_first=True)
        st = board.request("state")
        assert st["mode"] == "setup" and st["position"] == holes_of(want), (seed, st, holes_of(want))
        old = [e for e in board.events() if e["event"] in ("move", "undo", "illegal", "new_game", "resumed")]
        assert not old, (seed, old)
        check_hint(board, want)
    # play from here
    mask = board.mask
    r = board.request("play")
    if not legal_jumps(B, mask):
        assert r.get("error") == "not_solvable", (seed, r)
        return
    assert r.get("ok") and r["start"] == holes_of(mask), (seed, r)
    made = []
    while legal_jumps(B, mask) and rnd.random() < 0.85:
        j = rnd.choice(legal_jumps(B, mask))
        _hand_jump(board, rnd, j, cut_p)
        mask ^= B.flip[j]
        made.append(B.move_of(j))
        st = board.request("state")
        assert st["position"] == holes_of(mask), (seed, st, made)
        if not legal_jumps(B, mask) and st["mode"] == "setup":
            break  # scored, then a reset: the end is free play
        assert st["start"] == r["start"] and st["moves"] == made, (seed, st, made)
        if rnd.random() < 0.3:
            check_hint(board, mask)
    if not legal_jumps(B, mask):
        st = board.request("state")
        assert st["mode"] in ("over", "setup"), (seed, st)
