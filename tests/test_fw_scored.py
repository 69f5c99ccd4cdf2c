"""A game is scored once (issue "scoredonce"): an undo after the end takes the score back and the
redo scores it again, once; the record survives a power cut at any step of a flash write (the
fake flash cuts inside erases and programs), losing at most what docs/protocol.md states, never
counting wrong. On the firmware's main loop with fake hardware; the same on the simulated board in
test_e2e_scored.py."""

import random

import pytest
from fakehw import FlashNvm, HW, PowerCut, make_app, run
from hypothesis import given, settings, strategies as st
from support import ask, output, stored

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps
from pegcore.solver import Solver
from pegfw.app import QUIET_MS

B = Board(5)


class Hands:
    """The App on fake flash, a hand at its pegs, and power cuts: a cut raised inside the loop
    (FlashNvm.cut_after) boots a new App on the same flash with the pegs as they are."""

    def __init__(self, nvm):
        self.nvm, self.mask, self.cuts, self.lost = nvm, 0, 0, False
        self._boot()

    def _boot(self):
        while True:
            hw = HW(nvm=self.nvm)
            hw.sensors.state = self.mask
            try:
                self.hw, self.app = make_app(hw)  # start-up may rewrite the record: a cut there too
                break
            except PowerCut:
                self.cuts += 1
                self.lost |= self.nvm.cut_in_erase_write
        self.run(200)

    def run(self, ms):
        try:
            run(self.app, self.hw, ms)
        except PowerCut:
            self.cuts += 1
            self.lost |= self.nvm.cut_in_erase_write  # a cut inside a compaction: a stated loss
            self._boot()

    def set(self, mask):
        self.mask = mask
        self.hw.sensors.set(mask)
        self.run(30)

    def jump(self, j, back=False):
        """Jump j by hand (back: put it back, an undo)."""
        holes = [B.jump_to[j], B.jump_from[j], B.jump_over[j]] if back else \
            [B.jump_from[j], B.jump_to[j], B.jump_over[j]]
        for h in holes:
            self.set(self.mask ^ 1 << h)

    def stats(self):
        return ask(self.app, self.hw, "stats")


def won_game():
    """Hands on a fresh board that have just won a game from hole 1; the winning line."""
    h = Hands(FlashNvm())
    h.set(start_mask(B, 1))
    line = Solver(B).solution(start_mask(B, 1))
    for j in line:
        h.jump(j)
    output(h.hw)
    return h, line


def test_undo_and_redo_of_the_last_jump_scores_the_game_once_and_erases_nothing():
    h, line = won_game()
    nvm = h.nvm
    for _ in range(10):
        h.jump(line[-1], back=True)
        h.jump(line[-1])
    seen = output(h.hw)
    assert [e["event"] for e in seen if e.get("event") in ("undo", "game_over")] == ["undo", "game_over"] * 10
    st = h.stats()
    assert (st["games"], st["wins"], st["best"], st["nvm_erases"]) == (1, 1, 1, 0)
    assert nvm.erases == 0
    again = stored(nvm)  # what a restart reads: the same
    assert (again.games, again.wins, again.best, again.scored) == (1, 1, 1, True)
    h.jump(line[-1], back=True)  # and an undo after a restart takes it back there too
    assert stored(nvm).wins == 0 and h.stats()["wins"] == 0


def test_a_finished_game_resumes_over_and_its_undo_takes_the_score_back():
    h, line = won_game()
    h._boot()  # a power cycle
    assert ask(h.app, h.hw, "state")["mode"] == "over" and h.stats()["wins"] == 1
    h.jump(line[-1], back=True)
    assert h.stats()["wins"] == 0 and ask(h.app, h.hw, "state")["mode"] == "play"
    h.jump(line[-1])
    assert (h.stats()["games"], h.stats()["wins"]) == (1, 1)


@pytest.mark.parametrize("cut", [0, 1, 2, 8, 15, 16, 17, 20, 40, 300, 4096, 4097])
def test_a_power_cut_inside_a_compaction_keeps_the_totals_or_loses_them_all(cut):
    """The log nearly full, the board idle: the compaction (erase, then 4096 bytes programmed) is
    cut at step `cut`. After the restart the totals are right, or gone (a blank or torn header,
    ignored): never wrong. The game in play comes back when its entries were programmed."""
    nvm = FlashNvm()
    h = Hands(nvm)
    rnd = random.Random(5)
    games = wins = 0
    while h.app.store.end < len(nvm) - 300:  # fill the log with games, some won
        e = rnd.randrange(1, 16)
        h.set(start_mask(B, e))
        games += 1
        mask = start_mask(B, e)
        line = Solver(B).solution(mask) if rnd.random() < 0.3 else None
        while legal_jumps(B, mask):
            j = line.pop(0) if line else rnd.choice(legal_jumps(B, mask))
            h.jump(j)
            mask ^= B.flip[j]
        wins += bin(mask).count("1") == 1
    h.set(start_mask(B, 4))
    h.jump(legal_jumps(B, start_mask(B, 4))[0])  # a game in play, one move made
    games += 1
    while not h.app.store.low_on_room():
        h.jump(h.app.tracker.moves[-1], back=True)
        h.jump(h.app.tracker.moves[-1] if h.app.tracker.moves else legal_jumps(B, start_mask(B, 4))[0])
    assert (h.stats()["games"], h.stats()["wins"]) == (games, wins)
    nvm.cut_after = cut
    h.run(QUIET_MS + 200)  # idle: the compaction runs, and the power goes
    h.run(200)
    st = h.stats()
    if h.cuts:
        assert h.lost == (cut >= 1 and cut < 4097)
    if (st["games"], st["wins"]) != (games, wins):
        assert h.lost and (st["games"], st["wins"], st["best"]) == (0, 0, None), (cut, st)
    else:
        while h.app.chase is not None and not h.app.chase.done:
            h.run(100)  # a move the torn log lost is found from the pegs
        state = ask(h.app, h.hw, "state")
        if 17 <= cut < 19:  # the header programmed, the game's start entry not: the game is lost
            assert state["mode"] == "setup" and len(state["pegs"]) == 13, (cut, state)
        else:
            assert state["empty_start"] == 4 and len(state["moves"]) == 1, (cut, state)


games_plans = st.lists(st.tuples(st.integers(1, 15), st.integers(0, 13), st.integers(0, 4), st.booleans(),
                                 st.booleans(), st.integers(0, 150), st.booleans()), min_size=1, max_size=10)


@settings(max_examples=60, deadline=None)
@given(games_plans, st.integers(0, 2**16))
def test_stats_equal_a_models_through_undo_redo_resumes_and_cuts(plan, seed):
    """Random games (random length: finished or left for a refill), undo/redo of the last move at
    the end, idle passes (compactions on a small flash), restarts and power cuts at random flash
    steps: `stats` is the model's, or, after a cut inside a compaction, everything lost at once."""
    rnd = random.Random(seed)
    nvm = FlashNvm(128)  # a small log: compactions come often
    h = Hands(nvm)
    model = {"games": 0, "wins": 0, "abandoned": 0}
    in_play = 0  # moves of the unfinished game in play
    for empty, moves, redo, idle, cut_now, cut_at, restart in plan:
        if cut_now:
            nvm.cut_after = cut_at
        mask = start_mask(B, empty)
        if h.mask == mask and not in_play:
            continue  # the same full board: not a new game
        h.set(0)
        h.run(600)  # emptied: the game in play (if any) is abandoned
        model["abandoned"] += 1 if in_play else 0
        in_play = 0
        for k in range(1, 16):
            if mask >> (k - 1) & 1:
                h.set(h.mask | 1 << (k - 1))
        model["games"] += 1
        made = []
        for _ in range(moves):
            legal = legal_jumps(B, mask)
            if not legal:
                break
            j = rnd.choice(legal)
            h.jump(j)
            mask ^= B.flip[j]
            made.append(j)
        over = not legal_jumps(B, mask)
        for _ in range(redo if made else 0):
            h.jump(made[-1], back=True)
            h.jump(made[-1])
        if over:
            model["wins"] += bin(mask).count("1") == 1
        else:
            in_play = len(made)
        if idle:
            h.run(QUIET_MS + 300)
        if restart:
            h._boot()
        nvm.cut_after = None
        st = h.stats()
        got = {k: st[k] for k in model}
        if got != model:
            assert h.lost, (plan, seed, got, model)
            model = got  # the stated loss: the totals went with the sector; counting goes on from there
            h.lost = False
            if ask(h.app, h.hw, "state")["mode"] == "setup":
                in_play = 0  # the game in play went with them
        assert st["wins"] <= st["games"]


@pytest.mark.soak
@settings(max_examples=3000, deadline=None)
@given(games_plans, st.integers(0, 2**16))
def test_stats_equal_a_models_soak(plan, seed):
    test_stats_equal_a_models_through_undo_redo_resumes_and_cuts.hypothesis.inner_test(plan, seed)


def test_a_host_that_lets_go_gets_no_late_answer_and_its_search_stops():
    """DTR falls while a search runs for the host (a solve on the 21-hole board): the search
    stops, what was queued is dropped, and the next host's first line is its own reply."""
    from test_fw_app import big_board

    hw, app = big_board(6)
    hw.sensors.set(start_mask(Board(6), 1))
    run(app, hw, 200)
    output(hw)
    hw.serial.rx += b'{"id": 1, "cmd": "solve", "finish": 1}\n'
    run(app, hw, 10)
    assert app.job is not None
    hw.serial.room = 0  # the host stops reading ...
    hw.sensors.set(hw.sensors.state & ~(1 << 20))  # (an event queued for it: a peg lifted)
    run(app, hw, 40)
    assert app.link.out
    hw.serial.connected = False  # ... and closes the port
    run(app, hw, 20)
    assert app.job is None and not app.link.out
    hw.serial.room = 1 << 30
    hw.serial.connected = True
    hw.serial.rx += b'{"id": 1, "cmd": "info"}\n'
    run(app, hw, 20)
    lines = output(hw)
    replies = [x for x in lines if "event" not in x]
    assert len(replies) == 1 and replies[0]["ok"] and replies[0]["rows"] == 6


def test_the_hint_latency_counts_from_the_buttons_debounced_release():
    """last_hint_ms runs from the keypad event's timestamp (the scan that saw the release), not
    from the pass that read it; stats says what the debounce adds before that."""
    hw, app = make_app(HW())
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 200)
    hw.button.set(1)
    run(app, hw, 50)
    hw.button.set(0)  # released now; the loop reads it in its next pass, 5 ms on
    run(app, hw, 50)
    st = ask(app, hw, "stats")
    assert st["last_hint_ms"] >= 5 and st["button_debounce_ms"] == [20, 40]


def test_quiet_while_a_deploy_rewrites_the_drive():
    """`quiet` (pegboard deploy sends it before copying): what runs stops, hints and rare requests
    are busy, the hint table file is not read and no code is compiled, the game is still followed
    and logged; with no reset, the table is opened afresh when the time is up."""
    import shutil
    import sys
    import tempfile

    from pegfw import colors

    hw, app = make_app(HW())
    tmp = tempfile.mkdtemp()
    try:
        path = tmp + "/t5_hints.bin"
        shutil.copy(app.table.path, path)  # a table file the "deploy" below may replace
        from pegcore.hintfile import load

        app.table.codes.f.close()
        app.table = load(app.board, path)
        from pegcore.advisor import Advisor

        app.advisor = Advisor(app.board, app.table)
        hw.sensors.set(start_mask(B, 1))
        run(app, hw, 200)
        assert ask(app, hw, "demo")["ok"]
        r = ask(app, hw, "quiet", seconds=5)
        assert r["stopped"] == "demo" and app.updating

        class Gone:  # the file's blocks were freed: any read would be garbage
            def seek(self, *a):
                raise AssertionError("the hint table was read during the deploy")

            readinto = close = seek

        app.table.codes.f.close()
        app.table.codes.f = Gone()
        assert ask(app, hw, "hint")["error"] == "busy"
        assert ask(app, hw, "state")["solvable"] is None
        sys.modules.pop("pegfw.board_requests", None)
        assert ask(app, hw, "info")["error"] == "busy"  # its code is on the drive
        hw.button.set(1)
        run(app, hw, 50)
        hw.button.set(0)
        run(app, hw, 50)
        assert [e for e in output(hw) if e.get("event") == "refused" and e["code"] == "busy"]  # the button's hint: busy, said
        lit = hw.frames[-1]
        assert app.limiter.limit([colors.UPDATING])[0] in lit  # the empty hole says so
        mask = start_mask(B, 1)
        j = legal_jumps(B, mask)[0]
        for bit in (B.jump_from[j], B.jump_to[j], B.jump_over[j]):
            mask ^= 1 << bit
            hw.sensors.set(mask)
            run(app, hw, 30)
        assert ask(app, hw, "state")["moves"] == [B.move_of(j)] and app.store.moves == [j]
        app.table.codes.f = open(path, "rb")  # (so the old table can be closed)
        shutil.copy(path, path + ".new")  # the deploy wrote a new file in its place
        shutil.move(path + ".new", path)
        run(app, hw, 5200)  # no reset came
        assert not app.updating and app.table is not None
        done = [e for e in output(hw) if e.get("event") == "quiet_done"]
        assert done and done[0]["hint_table"] is True
        r = ask(app, hw, "hint")
        assert r["ok"] and B.find_jump(*r["move"]) in legal_jumps(B, mask)
        assert ask(app, hw, "info")["ok"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_reset_is_answered_while_quiet():
    hw, app = make_app(HW())
    run(app, hw, 100)
    ask(app, hw, "quiet")
    import sys

    sys.modules.pop("pegfw.board_requests", None)
    assert ask(app, hw, "reset")["in_ms"] == 200
    run(app, hw, 300)
    assert hw.resets >= 1  # (the fake reset returns: the chip would be restarting)
