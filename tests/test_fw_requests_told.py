"""What the board tells and keeps for a request or a press, where a slip would go unseen by the
happy path: a press reported as a press, the challenge's tables loaded once a game, each best
named with its own challenge, a puzzle's `done`, a request whose
newline comes in a read of its own or after a blank or unreadable line, events with no port, the "pegs" theme's peg
landing in hole 1, a guide whose next move is the board's jump 0, a demo from an empty hole."""

from fakehw import HW, make_app, run
from support import ask, output

from pegcore.geometry import Board, start_mask
from pegcore.pegcolours import hue, peg_ids
from pegfw import ondemand
from pegfw.peg_theme import peg_hues
from pegfw.protocol import Link
from pegfw.tracker import Tracker

B = Board(5)


def game(empty=1):
    hw = HW()
    hw.sensors.state = start_mask(B, empty)
    hw, app = make_app(hw)
    run(app, hw, 300)
    output(hw)
    return hw, app


def test_a_button_press_is_told_as_pressed_and_its_release_as_released():
    hw, app = game()
    hw.button.events.put(0, True, hw.now)
    run(app, hw, 20)
    hw.button.events.put(0, False, hw.now)
    run(app, hw, 20)
    told = [e.get("pressed") for e in output(hw) if e.get("event") == "button"]
    assert told[:2] == [True, False]


def test_the_challenges_tables_load_once_a_game(monkeypatch):
    hw, app = game()
    assert ask(app, hw, "challenge", target="leave:3")["ok"]
    first = app.challenge_on()
    loads = []
    real = ondemand.load
    monkeypatch.setattr(ondemand, "load", lambda name: loads.append(name) or real(name))
    assert app.challenge_on() is first
    run(app, hw, 50)
    assert app.challenge_on() is first
    assert "pegfw.challenge" not in loads


def test_each_best_is_named_with_its_own_challenge():
    hw, app = game()
    plain, leave3 = start_mask(B, 1), start_mask(B, 5)
    app.store.bests = [plain, 0, 1 << 22 | 40, leave3, 0x40 + 3, 3 << 22 | 75]
    got = ask(app, hw, "bests")["bests"]
    assert [(b["empty"], b["challenge"], b["pegs"], b["seconds"]) for b in got] == [(1, None, 1, 40), (5, "leave:3", 3, 75)]
    app.store.bests = [leave3, 0x40 + 3, 3 << 22 | 75, plain, 0, 1 << 22 | 40]
    got = ask(app, hw, "bests")["bests"]
    assert [(b["empty"], b["challenge"]) for b in got] == [(5, "leave:3"), (1, None)]


def test_a_puzzle_says_whether_the_pegs_already_match_it():
    hw, app = game()
    r = ask(app, hw, "puzzle", n=1)
    assert r["done"] is False and r["to_fill"] + r["to_remove"]
    hw.sensors.set(sum(1 << h - 1 for h in r["pegs"]))
    run(app, hw, 300)
    output(hw)
    again = ask(app, hw, "puzzle", n=1)
    assert again["done"] is True and again["to_fill"] == again["to_remove"] == []


class Port:
    def __init__(self, reads):
        self.reads, self.connected, self.tx = list(reads), True, bytearray()

    @property
    def in_waiting(self):
        return len(self.reads[0]) if self.reads else 0

    def read(self, n):
        return self.reads.pop(0)

    def write(self, data):
        self.tx += data
        return len(data)


def test_a_request_whose_newline_comes_in_a_read_of_its_own_is_read():
    link = Link(Port([b'{"id": 1, "cmd": "state"}', b"\n"]))
    assert list(link.read_lines()) == []
    assert list(link.read_lines()) == [b'{"id": 1, "cmd": "state"}']


def test_events_with_no_port_are_counted_as_dropped():
    link = Link(None)
    link.event("button", {"pressed": True})
    assert link.dropped == 1 and not link.out


def test_the_pegs_theme_keeps_a_pegs_colour_as_it_lands_in_hole_1():
    t = Tracker(B)
    mask = start_mask(B, 1)
    t.reset(mask)
    t.sense(mask & ~(1 << 3) | 1)  # peg 4 lifted and put in hole 1; peg 2 still to pull out
    assert t.pending == 1 << 1
    ids = peg_ids(B, t.start, t.moves)
    assert peg_hues(B, t)[0] == hue(ids[3])



def test_a_blank_or_unreadable_line_costs_the_requests_after_it_no_pass():
    hw, app = game()
    hw.serial.rx += b'\n{"id": 2, "cmd": "state"\n{"id": 3, "cmd": "state"}\n'
    hw.advance(5)
    app.step()  # one pass: the unreadable line's error and the request's reply
    got = [r for r in output(hw) if "event" not in r]
    assert [(r["ok"], r.get("id")) for r in got] == [(False, None), (True, 3)], got


def test_a_guide_lights_its_next_move_whichever_jump_it_is():
    hw, app = game(empty=4)
    assert B.move_of(0) == [1, 2, 4]  # the board's jump 0, from 1 over 2 into 4
    assert ask(app, hw, "guide", moves=[[1, 2, 4]])["ok"]
    run(app, hw, 50)
    assert ask(app, hw, "state")["show"]["move"] == [1, 2, 4]
    frame = hw.frames[-1]  # (scaled by the brightness): from, over and to each its own colour, none a plain peg's
    assert len({frame[0], frame[1], frame[3], frame[2]}) == 4


def test_a_demo_from_an_empty_hole_starts_from_the_board_less_that_hole():
    hw, app = game()
    r = ask(app, hw, "demo", empty=5)
    assert r["ok"], r
    shown = ask(app, hw, "state")["show"]
    assert shown["kind"] == "demo" and shown["pegs"] == [h for h in range(1, 16) if h != 5]
