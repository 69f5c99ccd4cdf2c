"""Long robustness runs (`make soak`); `make test` runs the same checks in their quick forms in
test_fw_app.py, test_fw_tracker.py, test_fw_hands.py, test_fw_resume.py, test_e2e_sim.py,
test_e2e_resume.py and test_e2e_dataport.py."""

import json
import random

import pytest
from fakehw import make_app, run
from hypothesis import given, settings

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps
from pegfw.tracker import Tracker
from support import jump, state_when, until
from test_fw_tracker import games, play_plan

pytestmark = pytest.mark.soak
B = Board(5)


@pytest.mark.timeout(1200)  # long alone; much longer on a busy machine
def test_protocol_fuzz_100k_lines():
    rnd = random.Random(2026)
    hw, app = make_app()
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 200)
    hw.serial.lines()
    valid = [b'{"id":1,"cmd":"info"}', b"state", b'{"cmd":"hint"}', b'{"cmd":"stop"}', b'{"cmd":"stats"}']
    junk = [b"\xff\xfe", b"{", b"[]", b'{"cmd":null}', b"x" * 700, b"[" * 300, b'{"id":1.5,"cmd":"info"}',
            b'{"cmd":"demo","moves":[[1,2,3]]}', b'{"cmd":"guide","moves":[]}', b'{"cmd":"brightness","value":-1}']
    sent = replies = 0
    for _ in range(100000 // 50):
        for _ in range(50):
            r = rnd.random()
            if r < 0.3:
                line = rnd.choice(valid)
            elif r < 0.6:
                line = rnd.choice(junk)
            else:
                line = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 60))).replace(b"\n", b"")
            if not line.strip():
                continue
            hw.serial.rx += line + b"\n"
            sent += 1
        # the host reads as the board answers (the board takes lines only while their replies
        # have room: flow control), until each line has had its reply
        for _ in range(100):
            run(app, hw, 30)
            replies += sum(1 for x in hw.serial.lines() if "event" not in json.loads(x))
            if replies >= sent:
                break
        assert replies == sent  # one reply a line: none lost, none twice
    hw.serial.rx += b"state\n"
    run(app, hw, 20)
    st = json.loads(hw.serial.lines()[-1])
    assert st["empty_start"] == 1 and st["moves"] == [] and app.errors == 0


@settings(max_examples=10000, deadline=None)
@given(games)
def test_10000_games_of_hypothesis_hands(game):
    empty, plan = game
    t = Tracker(B)
    mask = start_mask(B, empty)
    t.reset(mask)
    made, seen, _ = play_plan(t, mask, plan)
    assert [e[1] for e in seen if e[0] == "move"] == made


def test_power_cycles_at_random_points_lose_no_game():
    from pegboard.link.client import BoardClient
    from pegboard.sim.simulator import Simulator

    rnd = random.Random(7)
    with Simulator() as sim:
        c = BoardClient(sim.data_path, reconnect=5).open()
        for game in range(5):
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            mask = start_mask(B, 1)
            cut = rnd.randrange(1, 12)
            made = []
            for k in range(13):
                legal = legal_jumps(B, mask)
                if not legal:
                    break
                j = legal[rnd.randrange(len(legal))]
                jump(sim, B.move_of(j))
                mask ^= B.flip[j]
                made.append(B.move_of(j))
                if k == cut:
                    sim.control("power_cycle")
                    state_when(c)  # the restarted firmware answers
                    sim.control("wait_idle")  # and has seen the pegs
            st_ = state_when(c, timeout=10)
            # NVM logs every move: after power loss the board takes back the very moves played
            from pegcore.rules import holes_of

            assert holes_of(mask) == st_["pegs"] and st_["moves"] == made


def test_10000_games_with_stray_hovers_and_resets_lose_nothing():
    """Through the main loop: random games, a stray peg lifted and put back at random moments
    (mid-jump included), 0-3 resets per game at random pictures with the hand moving on meanwhile:
    every game followed and scored once, no false or missed move."""
    from soak_games import soak

    total = {}
    for seed in range(100):
        for k, v in soak(100, seed).items():
            total[k] = total.get(k, 0) + v
    print("soak:", total)
    assert total["games"] == 10000 and total["other_line"] == 0 and total["resets"] > 10000


def sim_soak(runtime, games, seed, hangs=True):
    """The simulated board on `runtime`: random games by the virtual hand with stray hovers,
    power cuts and hangs at random steps (mid-jump and with pegs in the hand included), and bursts
    of requests written while the game goes on; each game checked from the board's state."""
    from pegboard.link.client import BoardClient
    from pegboard.sim.simulator import Simulator
    from pegcore.rules import holes_of

    rnd = random.Random(seed)
    with Simulator(runtime=runtime) as sim:
        c = BoardClient(sim.data_path, reconnect=10).open()
        resets = 0

        def back():  # (a game may have ended: the board need not be in one)
            until(lambda: sim.control("status")["resets"] >= resets, 40, "reset %d" % resets, every=0.1)
            state_when(c, timeout=40)
            sim.control("wait_idle")  # the whole-board read after start-up is adopted

        for g in range(games):
            empty = rnd.randrange(1, 16)
            sim.control("fill", empty=empty)
            sim.control("wait_idle")
            mask = start_mask(B, empty)
            made = []
            while legal_jumps(B, mask):
                j = rnd.choice(legal_jumps(B, mask))
                f, o, t = B.move_of(j)
                steps = [("lift", f), ("lift", o), ("place", t)]
                order = rnd.choice([(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0)])
                action = rnd.choice(["cut", "hang"] if hangs else ["cut"]) if rnd.random() < 0.3 else None
                at = rnd.randrange(3)
                hung = False
                for k, step in enumerate(order):
                    if action == "hang" and k == at:
                        sim.control("hang")  # the rest of this jump is made while it hangs
                        hung = True
                    if not hung and rnd.random() < 0.2:  # a stray hover anywhere, mid-jump included
                        pegs = sim.control("sensors")["pegs"]
                        others = [p for p in pegs if p not in (f, o, t)]
                        if others:
                            h = rnd.choice(others)
                            sim.control("lift", hole=h)
                            sim.control("wait_idle")
                            sim.control("place", hole=h)
                    sim.control(steps[step][0], hole=steps[step][1])
                    if not hung:
                        sim.control("wait_idle")
                    if action == "cut" and k == at:  # power cut mid-jump, a peg in the hand...
                        resets += 1
                        sim.control("power_cycle")
                        back()
                if hung:
                    resets += 1
                    back()
                if rnd.random() < 0.1:  # a burst of requests while the game goes on
                    c.link.write(b'{"cmd":"stats"}\n' * 200)
                mask ^= B.flip[j]
                made.append(B.move_of(j))
            st = state_when(c, lambda st: st["mode"] in ("over", "setup"), 20, "the game to end")
            if st["mode"] == "setup":  # a reset after the end: a finished game is not taken back
                assert st["pegs"] == holes_of(mask), (runtime, g)
            else:
                assert st["moves"] == made and st["mode"] == "over", (runtime, g, st["moves"], made)
        stats = c.request("stats")
        assert stats["games"] == games, stats
        c.close()
        return resets


@pytest.mark.timeout(1200)  # minutes a runtime, more on a busy machine
@pytest.mark.parametrize("runtime", ["cpython", "micropython", "chip"])
def test_sim_soak_cuts_hangs_hovers_bursts(runtime):
    assert sim_soak(runtime, 25, 11) > 10
