"""Challenges set on the board (issue "records", item 2): finish in a chosen hole, leave exactly K
pegs, the reverse game, a hand-set puzzle with its target. The board hints toward the target (a
hint keeps it reachable, and says when it no longer is), judges it at game over, and keeps it in
the game's record. Checked against searches written here, not the board's tables."""

import pytest
from fakehw import HW, FlashNvm, make_app, run
from support import ask, output, stored
from test_fw_app import big_board
from test_fw_scored import Hands

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps, popcount
from pegfw import store_records

B = Board(5)
FULL = (1 << 15) - 1
_ends = {}


def dead_ends(mask):
    """The peg counts of every dead end reachable from `mask` (an independent search)."""
    if mask not in _ends:
        moves = legal_jumps(B, mask)
        out = set()
        if not moves:
            out.add(popcount(mask))
        for j in moves:
            out |= dead_ends(mask ^ B.flip[j])
        _ends[mask] = frozenset(out)
    return _ends[mask]


def finishes(mask):
    """The holes the last peg can end in from `mask` (independent)."""
    if popcount(mask) == 1:
        return {mask.bit_length()}
    out = set()
    for j in legal_jumps(B, mask):
        out |= finishes(mask ^ B.flip[j])
    return out


def events(hw, name):
    return [m for m in output(hw) if m.get("event") == name]


def follow_hints(h, limit=14):
    """Play the board's hints by hand until it says none; the hints' replies. The events seen
    meanwhile are kept in h.seen."""
    got = []
    h.seen = getattr(h, "seen", [])
    for _ in range(limit):
        r = ask(h.app, h.hw, "hint")
        got.append(r)
        if r.get("move") is None:
            break
        f, o, t = r["move"]
        j = [k for k in legal_jumps(B, h.mask) if B.move_of(k) == [f, o, t]][0]
        h.jump(j)
        h.run(100)
        h.seen += output(h.hw)
    return got


def seen(h, name):
    h.seen = getattr(h, "seen", []) + output(h.hw)
    return [m for m in h.seen if m.get("event") == name]


@pytest.mark.parametrize("empty", range(1, 16))
def test_finish_in_the_hole_that_started_empty_by_the_boards_hints_from_every_start(empty):
    h = Hands(FlashNvm())
    h.set(start_mask(B, empty))
    h.run(300)
    output(h.hw)
    r = ask(h.app, h.hw, "challenge", target="finish")
    can = empty in finishes(start_mask(B, empty))
    assert r["ok"] and r["challenge"] == "finish:%d" % empty and r["reachable"] is can
    hints = follow_hints(h)
    if can:
        assert all(x["reachable"] for x in hints if x["move"]) and h.mask == 1 << (empty - 1)
    else:  # said at once, and lit as lost
        assert hints[0]["move"] is None and hints[0]["reachable"] is False and not hints[0]["solvable"]


def test_finish_in_any_hole_follows_the_hints_and_the_verdict_says_met():
    for empty, hole in ((1, 13), (4, 1), (6, 11), (13, 6)):
        h = Hands(FlashNvm())
        h.set(start_mask(B, empty))
        h.run(300)
        r = ask(h.app, h.hw, "challenge", target="finish:%d" % hole)
        assert r["reachable"] is (hole in finishes(start_mask(B, empty)))
        output(h.hw)
        hints = follow_hints(h)
        if not r["reachable"]:
            continue
        h.run(300)
        assert h.mask == 1 << (hole - 1)
        st = ask(h.app, h.hw, "state")
        assert st["challenge"] == "finish:%d" % hole and st["finish"] == hole
        kept = [g for g in ask(h.app, h.hw, "records")["games"]]
        assert kept[-1]["challenge"] == "finish:%d" % hole and kept[-1]["met"] is True
        assert ask(h.app, h.hw, "stats")["challenges_kept"] == {"set": 1, "met": 1}
        assert all(x["reachable"] for x in hints if x["move"])


def test_a_hint_says_when_the_challenge_can_no_longer_be_met():
    # a start, a finish hole reachable from it, and a first jump after which it is not
    empty, hole, j = next((e, f, k) for e in range(1, 16) for f in sorted(finishes(start_mask(B, e)))
                          for k in legal_jumps(B, start_mask(B, e))
                          if f not in finishes(start_mask(B, e) ^ B.flip[k]))
    h = Hands(FlashNvm())
    h.set(start_mask(B, empty))
    h.run(300)
    assert ask(h.app, h.hw, "challenge", target="finish:%d" % hole)["reachable"]
    h.jump(j)
    h.run(100)
    r = ask(h.app, h.hw, "hint")
    assert r["move"] is None and r["reachable"] is False and r["challenge"] == "finish:%d" % hole
    assert not r["solvable"]


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
def test_leave_k_pegs_by_the_hints(k):
    h = Hands(FlashNvm())
    h.set(start_mask(B, 5))
    h.run(300)
    r = ask(h.app, h.hw, "challenge", target="leave:%d" % k)
    assert r["reachable"] is (k in dead_ends(start_mask(B, 5)))
    output(h.hw)
    follow_hints(h)
    h.run(300)
    if r["reachable"]:
        assert popcount(h.mask) == k and not legal_jumps(B, h.mask)
        over = seen(h, "game_over")
        assert over and over[-1]["met"] is True and over[-1]["challenge"] == "leave:%d" % k


@pytest.mark.parametrize("empty", range(1, 16))
def test_the_reverse_games_verdict_matches_an_independent_search(empty):
    start = start_mask(B, empty)
    most = max(dead_ends(start))
    h = Hands(FlashNvm())
    h.set(start)
    h.run(300)
    r = ask(h.app, h.hw, "challenge", target="most")
    assert r["challenge"] == "most:%d" % most and r["reachable"]
    output(h.hw)
    follow_hints(h)
    h.run(300)
    over = seen(h, "game_over")
    assert popcount(h.mask) == most and over[-1]["met"] is True and over[-1]["wanted"] == most
    # and a game that stops short of it is judged not met
    h.set(0)
    h.run(1000)
    h.set(start)
    h.run(300)
    ask(h.app, h.hw, "challenge", target="most")
    mask = start
    while legal_jumps(B, mask):  # the ordinary game: as few pegs as possible (the board's hints)
        j = legal_jumps(B, mask)[0]
        h.jump(j)
        mask ^= B.flip[j]
        h.run(60)
    h.run(300)
    over = seen(h, "game_over")
    assert over[-1]["met"] is (popcount(mask) >= most) and over[-1]["pegs_left"] == popcount(mask)


def test_a_hand_set_puzzle_with_its_target_is_kept_in_the_record_and_survives_a_power_cut():
    nvm = FlashNvm()
    h = Hands(nvm)
    puzzle = sum(1 << (x - 1) for x in (1, 2, 4, 5, 7, 8, 12, 13))
    h.set(puzzle)
    h.run(1500)
    k = min(dead_ends(puzzle))
    r = ask(h.app, h.hw, "play", target="leave:%d" % k)
    assert r["ok"] and r["challenge"] == "leave:%d" % k and r["reachable"]
    assert stored(nvm).goal == 0x40 + k  # the game's challenge, in its start entry
    r = ask(h.app, h.hw, "hint")
    f, o, t = r["move"]
    j = [x for x in legal_jumps(B, h.mask) if B.move_of(x) == [f, o, t]][0]
    h.nvm.cut_after = 0  # a power cut at this move's write: the board starts again and resumes
    h.jump(j)
    h.run(300)
    assert h.cuts == 1
    resumed = [m for m in output(h.hw) if m.get("event") == "resumed"]
    assert resumed and resumed[-1]["finish"] is None  # a "leave" code is no finish hole
    h2 = h
    st = ask(h2.app, h2.hw, "state")
    assert st["challenge"] == "leave:%d" % k
    follow_hints(h2)
    h2.run(300)
    assert popcount(h2.mask) == k
    games = list(store_records.games(stored(nvm), True))
    assert games[-1][1] == 0x40 + k and games[-1][2] == k


def test_a_challenge_set_mid_game_is_logged_and_read_back():
    nvm = FlashNvm()
    h = Hands(nvm)
    h.set(start_mask(B, 4))
    h.run(300)
    j = legal_jumps(B, h.mask)[0]
    h.jump(j)
    h.run(100)
    r = ask(h.app, h.hw, "challenge", target="most")
    assert r["challenge"].startswith("most:")
    again = stored(nvm)
    assert again.goal == 0x60 + int(r["challenge"][5:]) and list(again.moves) == [j]
    assert ask(h.app, h.hw, "challenge", target="none")["challenge"] is None
    assert stored(nvm).goal == 0


def test_bad_challenges_are_refused_with_what_to_send():
    h = Hands(FlashNvm())
    r = ask(h.app, h.hw, "challenge", target="finish")
    assert r["error"] == "bad_args" and "game" in r["message"]  # no game in play yet
    r = ask(h.app, h.hw, "challenge", target="leave:99")
    assert r["error"] == "bad_args" and "1..15" in r["message"]  # a bad target is said first
    h.set(start_mask(B, 1))
    h.run(300)
    for bad, word in (("leave:99", "1..15"), ("finsh:3", "finish:H"), (3, "text"), ("leave", "leave:K")):
        r = ask(h.app, h.hw, "challenge", target=bad)
        assert r["error"] == "bad_args" and word in r["message"], r
    assert ask(h.app, h.hw, "state")["challenge"] is None


def test_a_double_press_before_the_first_move_sets_finish_where_it_started_empty():
    hw, app = make_app(HW())
    hw.sensors.set(start_mask(B, 13))
    run(app, hw, 300)
    output(hw)
    for _ in range(2):  # two short presses, 100 ms apart
        hw.button.set(1)
        run(app, hw, 60)
        hw.button.set(0)
        run(app, hw, 100)
    assert not events(hw, "challenge")  # not yet: a third press would make it a puzzle
    run(app, hw, 400)  # no third press
    got = events(hw, "challenge")
    assert got and got[-1]["challenge"] == "finish:13"
    for _ in range(2):  # and again: taken off
        hw.button.set(1)
        run(app, hw, 60)
        hw.button.set(0)
        run(app, hw, 100)
    run(app, hw, 400)
    assert events(hw, "challenge")[-1]["challenge"] is None


def test_on_21_holes_a_challenge_hint_is_searched_a_slice_a_pass():
    b6 = Board(6)
    hw, app = big_board(6)
    hw.sensors.set(start_mask(b6, 1))
    run(app, hw, 300)
    r = ask(app, hw, "challenge", target="leave:3")
    assert r["ok"] and r["reachable"] is None  # no table: unknown until searched
    r = ask(app, hw, "hint", passes=2000)
    assert r["reachable"] is True and r["move"] is not None and r["challenge"] == "leave:3"


def test_a_challenge_whose_code_did_not_fit_the_heap_is_tried_again_after_a_collection(monkeypatch):
    h = Hands(FlashNvm())
    h.set(start_mask(B, 1))
    h.run(300)
    real, calls = h.app.set_challenge, []

    def once_short(text, now):
        calls.append(text)
        if len(calls) == 1:
            raise MemoryError  # as a compile that found no room
        return real(text, now)

    monkeypatch.setattr(h.app, "set_challenge", once_short)
    r = ask(h.app, h.hw, "challenge", target="finish")
    assert r["ok"] and r["challenge"] == "finish:1" and calls == ["finish", "finish"]
