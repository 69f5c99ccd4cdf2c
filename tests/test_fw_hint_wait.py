"""While the hint button is down for a short press, the loop does nothing that could hold its
release's hint (issue "honest", item 3): requests wait in the USB buffer, the events' JSON, a
flash write, a show's next frame and the heap statistics' collection come after the hint's
lights, in order; nothing is lost, a power cut included. The wait itself is timed in the emulated
chip's cycles by bench/mp/release_latency.py (firmware.release_to_hint_lights)."""

import pegfw.app as app_module
from fakehw import FlashNvm, HW, boot, make_app, run
from support import output, stored

from pegcore.geometry import Board, start_mask
from pegfw.app import LONG_PRESS_MS

B = Board(5)
START = start_mask(B, 1)
JUMP = [4, 2, 1]  # hole 4 over 2 into the empty 1
AFTER = START & ~(1 << 3) & ~(1 << 1) | 1

def game():
    hw, app = make_app(HW())
    hw.sensors.set(START)
    run(app, hw, 200)
    output(hw)
    return hw, app


def jump_while_pressed(hw, app):
    """The button pressed, then JUMP made by hand while it is down."""
    hw.button.set(1)
    run(app, hw, 40)
    for hole in JUMP:
        hw.sensors.set(hw.sensors.state ^ (1 << (hole - 1)))
        run(app, hw, 30)


def test_a_request_waits_for_a_short_press_and_is_answered_after_its_hint():
    hw, app = game()
    hw.button.set(1)
    run(app, hw, 40)
    hw.serial.rx += b'{"id": 3, "cmd": "state"}\n'
    run(app, hw, 100)
    assert [x for x in output(hw) if x.get("event") != "button"] == []  # no reply yet
    hw.button.set(0)
    run(app, hw, 10)
    lines = output(hw)
    kinds = [x.get("event", "reply") for x in lines]
    assert kinds.index("hint") < kinds.index("reply"), kinds
    assert [x for x in lines if "event" not in x][0]["id"] == 3


def test_a_press_held_past_a_short_one_lets_the_requests_through():
    hw, app = game()
    hw.button.set(1)
    run(app, hw, LONG_PRESS_MS + 20)
    hw.serial.rx += b'{"id": 4, "cmd": "state"}\n'
    run(app, hw, 10)
    assert [x["id"] for x in output(hw) if "event" not in x] == [4]


def test_the_events_of_a_move_during_a_press_follow_its_hint_in_order():
    hw, app = game()
    hw.button.set(1)
    run(app, hw, 40)
    assert [x["event"] for x in output(hw)] == ["button"]  # the press's pass sends its own news
    for hole in JUMP:
        hw.sensors.set(hw.sensors.state ^ (1 << (hole - 1)))
        run(app, hw, 30)
    assert output(hw) == []  # held as objects: no JSON made yet
    hw.button.set(0)
    run(app, hw, 10)
    lines = output(hw)
    seqs = [x["seq"] for x in lines]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    names = [x["event"] for x in lines]
    assert names[:5] == ["lift", "lift", "place", "move", "hint"], names
    assert lines[3]["move"] == JUMP


def test_a_move_during_a_press_is_logged_after_its_hint():
    hw, app = game()
    jump_while_pressed(hw, app)
    assert stored(hw.nvm).moves == []  # not yet: a flash write would hold the release
    hw.button.set(0)
    run(app, hw, 10)
    assert [B.move_of(j) for j in stored(hw.nvm).moves] == [JUMP]


def test_a_power_cut_during_the_press_loses_no_move():
    """The move was not written when the power went: the board catches up with the pegs."""
    hw, app = game()
    jump_while_pressed(hw, app)
    nvm = FlashNvm()
    nvm.data[:] = hw.nvm.data  # the flash as the power left it
    hw2, app2 = boot(nvm, AFTER)
    run(app2, hw2, 400)
    assert app2.tracker.position == AFTER and app2.mode() == "play"
    assert [B.move_of(j) for j in app2.tracker.moves] == [JUMP]
    assert [B.move_of(j) for j in stored(nvm).moves] == [JUMP]


def test_no_collection_for_the_heap_statistics_while_a_hint_is_coming(monkeypatch):
    collections = []

    class CountingGc:
        @staticmethod
        def collect():
            collections.append(app.hint_ms)  # None: no hint lit yet

    monkeypatch.setattr(app_module, "MEM_FREE", lambda: 100000)
    monkeypatch.setattr(app_module, "gc", CountingGc)
    hw, app = make_app(HW())
    hw.sensors.set(START)
    run(app, hw, 200)
    collections.clear()
    hw.button.set(1)
    run(app, hw, 20)
    assert len(collections) == 1  # the press's own, which notes the free heap
    collections.clear()
    app.heap_sample_at = hw.ticks_ms()  # the statistics are due
    run(app, hw, 200)
    assert collections == []
    app.hint_ms = None
    hw.button.set(0)
    run(app, hw, 5)
    assert len(collections) == 1 and collections[0] is not None  # after the hint's lights
    assert app.free_heap_low == 100000


def test_a_shows_frames_wait_for_the_hint_but_the_pegs_do_not():
    hw, app = game()
    app.shows.load("over", "pegfw.show_over", "GameOverShow", (B.holes, hw.ticks_ms(), "genius"))
    run(app, hw, 40)
    assert len(hw.frames) > 1  # a rainbow: a new frame every pass
    hw.button.set(1)
    run(app, hw, 10)
    shown = len(hw.frames)
    run(app, hw, 100)
    assert len(hw.frames) == shown
    hw.sensors.set(hw.sensors.state ^ (1 << 3))  # a peg lifted: its lights at once
    run(app, hw, 5)
    assert len(hw.frames) == shown + 1


def _kept_games(n):
    """An NVM record holding `n` short finished games."""
    from pegcore.rules import legal_jumps
    from pegfw.store import Store

    nvm = FlashNvm()
    store = Store(nvm, 5)
    for g in range(n):
        mask = start_mask(B, 1 + g % 15)
        store.new_game(mask)
        for _ in range(3):
            j = legal_jumps(B, mask)[0]
            store.move(j)
            mask ^= B.flip[j]
        store.game_over(12)
    return nvm


def test_a_release_while_the_kept_games_are_read_is_answered_between_their_slices():
    # `records` and `stats` read every kept game (~90 ms of the chip's time for a full log): a game
    # a pass, so a release that comes meanwhile gets its hint within a pass, not after them all
    for cmd in ("records", "stats"):
        hw, app = make_app(HW(nvm=_kept_games(20)))
        hw.sensors.set(START)
        run(app, hw, 200)
        output(hw)
        hw.serial.rx += b'{"id": 5, "cmd": "%s"}\n' % cmd.encode()
        run(app, hw, 2)
        assert app.requests.working is not None  # under way
        hw.button.set(1)
        run(app, hw, 40)
        hw.button.set(0)
        passes = 0
        while app.hint_ms is None and passes < 100:
            run(app, hw, 1)
            passes += 1
        assert app.hint_ms is not None and app.requests.working is not None, cmd  # the hint came first
        run(app, hw, 500)
        lines = output(hw)
        kinds = [x.get("event", "reply") for x in lines]
        assert kinds.index("hint") < kinds.index("reply"), kinds
        reply = [x for x in lines if "event" not in x][0]
        assert reply["id"] == 5 and reply["ok"] is True
        assert reply["total"] == 20 if cmd == "records" else reply["games"] == app.store.games


def test_a_request_waiting_as_a_pass_begins_is_answered_before_that_pass_reads_the_pegs():
    # lines are read twice a pass (after the button, and after the pegs): a request that came in
    # the last pass's second half is not held for this pass's polls (bench: request_to_hint_lights_p99)
    hw, app = game()
    hw.sensors.set(START & ~(1 << 14))  # peg 15 lifted as the request comes
    hw.serial.rx += b'{"id": 5, "cmd": "state"}\n'
    app.step()
    reply = [x for x in output(hw) if x.get("id") == 5]
    assert reply and 15 in reply[0]["pegs"], reply  # answered first: the pegs as they were asked about
    hw.serial.rx += b'{"id": 6, "cmd": "state"}\n'
    run(app, hw, 20)
    assert [15 in x["pegs"] for x in output(hw) if x.get("id") == 6] == [False]  # the lift is read, not lost


def test_a_pass_that_read_its_lines_early_does_not_read_again():
    hw, app = game()
    hw.serial.rx += b'{"id": 7, "cmd": "state"}\n'
    real = app.requests.serve
    calls = []
    app.requests.serve = lambda now: (calls.append(now), real(now))
    app.step()
    assert len(calls) == 1 and [x["id"] for x in output(hw) if "id" in x] == [7]
