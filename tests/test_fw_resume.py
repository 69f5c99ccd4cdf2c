"""Resets at every kind of point in a game (between moves, mid-jump, a peg in the hand, the first
and the last move, moves made while the firmware is down): the game comes back with every move,
and is scored once. The main loop with plain fake hardware and flash-like NVM (fakehw.FlashNvm)."""

import random

import pytest
from fakehw import HW, FlashNvm, boot, make_app, run
from support import ask, output

from pegcore.geometry import Board, start_mask
from pegcore.rules import holes_of, legal_jumps
from pegcore.solver import Solver

B = Board(5)


def hand(mask, j, rnd, first):
    """Pictures of a hand making jump j from mask: its three changes in a random order (a peg is
    placed only once one is in the hand on the first move), sometimes with a stray peg lifted
    elsewhere and put back, mid-jump included."""
    holes = [B.jump_from[j], B.jump_over[j], B.jump_to[j]]
    orders = [o for o in ([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0])
              if not first or o.index(2) > min(o.index(0), o.index(1))]
    order = rnd.choice(orders)
    stray_at = rnd.choice([None, 0, 1, 2, 3])
    pics, m = [], mask
    for k in range(4):
        others = [h for h in range(B.holes) if m >> h & 1 and h not in holes]
        if stray_at == k and others:
            h = rnd.choice(others)
            pics += [m & ~(1 << h), m]
        if k < 3:
            m ^= 1 << holes[order[k]]
            pics.append(m)
    return pics


def game(seed, empty=1):
    rnd = random.Random(seed)
    mask = start_mask(B, empty)
    jumps = Solver(B).solution(mask) if seed % 2 else []
    pics, made = [mask], []
    while True:
        legal = legal_jumps(B, mask)
        if not legal:
            break
        j = jumps[len(made)] if jumps else rnd.choice(legal)
        pics += hand(mask, j, rnd, not made)
        mask ^= B.flip[j]
        made.append(j)
    return pics, made, mask



def show(hw, app, pics):
    seen = []
    for p in pics:
        hw.sensors.set(p)
        run(app, hw, 20)
        seen += output(hw)
    return seen


@pytest.mark.parametrize("seed,offline", [
    (2, "alternate"),  # make test: each cut once, the hand going on for a picture at every other cut
    pytest.param(1, 0, marks=pytest.mark.soak), pytest.param(1, 1, marks=pytest.mark.soak),
    pytest.param(2, 0, marks=pytest.mark.soak), pytest.param(2, 1, marks=pytest.mark.soak)])
def test_a_reset_at_every_picture_of_a_game_loses_no_move(seed, offline):
    """`offline`: pictures the hand goes on for while the firmware is down (0 or 1, or 0 and 1
    by turns). Seed 1 plays the solver's solution to a win, seed 2 a random game."""
    pics, made, final = game(seed)
    for cut in range(1, len(pics)):
        offline_here = cut % 2 if offline == "alternate" else offline
        nvm = FlashNvm()
        hw, app = make_app(HW(nvm=nvm))
        run(app, hw, 200)
        show(hw, app, pics[:cut])
        # the firmware is down; the hand goes on for `offline` pictures
        back = min(cut - 1 + offline_here, len(pics) - 1)
        hw, app = boot(nvm, pics[back])
        seen = output(hw) + show(hw, app, pics[back + 1:])
        while app.chase is not None and not app.chase.done:  # the pegs at rest: the search ends
            run(app, hw, 100)
        seen += output(hw)
        assert not [e for e in seen if e.get("event") in ("new_game", "illegal")], (cut, seen)
        st = ask(app, hw, "state")
        assert st["empty_start"] == 1 and st["position"] == holes_of(final), cut
        assert len(st["moves"]) == len(made) and st["mode"] == "over", cut
        if offline_here == 0:
            assert st["moves"] == [B.move_of(j) for j in made], cut
        stats = ask(app, hw, "stats")
        assert stats["games"] == 1 and stats["wins"] == (1 if len(made) == 13 else 0), cut
        # and again: a finished game comes back over (its last move can still be undone), never
        # scored again
        hw, app = boot(nvm, final)
        seen = output(hw)
        assert [e["event"] for e in seen if e.get("event") in ("resumed", "game_over")] == ["resumed"]
        assert ask(app, hw, "stats")["wins"] == stats["wins"] and ask(app, hw, "state")["mode"] == "over"


def test_a_cut_mid_first_move_resumes_the_saved_start():
    """Start 6, the jumped peg 10 moved into 6 (half of 15 over 10 into 6), cut: still start 6."""
    nvm = FlashNvm()
    hw, app = make_app(HW(nvm=nvm))
    run(app, hw, 200)
    start = start_mask(B, 6)
    show(hw, app, [start, start & ~(1 << 9), start & ~(1 << 9) | 1 << 5])
    hw, app = boot(nvm, start & ~(1 << 9) | 1 << 5)
    seen = output(hw) + show(hw, app, [start & ~(1 << 9) & ~(1 << 14) | 1 << 5])
    assert not [e for e in seen if e.get("event") == "new_game"]
    assert [e["move"] for e in seen if e.get("event") == "move"] == [[15, 10, 6]]
    assert ask(app, hw, "stats")["games"] == 1


def test_many_moves_made_while_down_are_found_in_slices():
    """The board played on unpowered: the catch-up search finds a line to the pegs, a few positions
    per pass, and the game goes on from there."""
    pics, made, final = game(3)
    nvm = FlashNvm()
    hw, app = make_app(HW(nvm=nvm))
    run(app, hw, 200)
    mask = start_mask(B, 1)
    shown = [mask]
    for j in made[:2]:
        mask ^= B.flip[j]
        shown.append(mask)
    show(hw, app, shown)
    # a line of moves made unpowered whose picture has a placement the resumed game cannot explain
    # (one the game explains with pegs in the hand is taken as that: see the search's docstring)
    from pegfw.tracker import Tracker

    t = Tracker(B)
    depth, later = 0, mask
    for k in range(2, len(made)):
        later ^= B.flip[made[k]]
        if k - 1 >= 4 and t.fit(mask, later, -1) == 3:
            depth = k - 1
            break
    assert depth >= 4
    # the search runs a few positions per pass of the loop
    from pegfw.app import CATCHUP_STEPS
    from pegfw.resume import Catchup, adopt

    adopt(t, 1, list(made[:2]), mask, later)
    c = Catchup(t, mask, later)
    calls = 1
    while c.run(CATCHUP_STEPS) is None:
        calls += 1
    assert c.done and calls > 10
    hw, app = boot(nvm, later)
    passes = app.loops
    while app.tracker.mode not in ("play", "over") or len(app.tracker.moves) < 2 + depth:
        run(app, hw, 100)
        assert app.loops - passes < 20000, "the search did not finish"
    seen = output(hw)
    assert [e for e in seen if e.get("event") == "resumed"][0]["moves"] == [B.move_of(j) for j in made[:2]]
    st = ask(app, hw, "state")
    assert st["position"] == holes_of(later) and len(st["moves"]) == 2 + depth


def test_nvm_log_survives_a_compaction_and_counts_erases():
    """Hundreds of games fill the log; the sector is rewritten (one erase) with the totals and the
    game in progress, which resumes."""
    from pegfw.store import Store
    from support import stored as read

    nvm = FlashNvm()
    st = Store(nvm, 5)
    for g in range(600):
        st.new_game(start_mask(B, 1))
        moves = 2 if g % 3 else 13  # the log is replayed by count: pegs left = 14 - moves
        for j in range(moves + 1):
            st.move(j)
        st.undo()
        st.game_over(14 - moves)
    st.new_game(start_mask(B, 4))
    st.move(9)
    again = read(nvm, 5)
    assert (again.games, again.wins, again.best) == (601, 200, 1)
    assert again.empty_start() == 4 and again.moves == [9]
    # log bytes a game: its start 2, each move 5 (with its clock), the undo 1, the game over 5 (with the
    # clock); a compaction leaves at least half the log less ROOM for the games played after it
    assert nvm.erases == st.erases >= 1
    assert nvm.erases <= (200 * (2 + 14 * 5 + 1 + 5) + 400 * (2 + 3 * 5 + 1 + 5)) // ((4096 - 16) // 2 - 256) + 1


def test_damaged_log_entry_ends_the_log_and_is_compacted():
    from pegfw.store import HEAD, Store
    from support import stored as read

    nvm = FlashNvm()
    st = Store(nvm, 5)
    st.new_game(start_mask(B, 1))
    st.move(3)
    nvm.data[HEAD + 3] = 0xFE  # not an entry (the move's clock entry was there)
    again = read(nvm, 5)
    assert again.empty_start() == 1 and again.moves == [3] and again.end is None
    again.move(5)
    third = read(nvm, 5)
    assert third.moves == [3, 5] and third.games == 1


def test_quick_soak_random_games_with_hovers_and_resets():
    from soak_games import soak

    out = soak(25, 2026)
    assert out["games"] == 25 and out["resets"] >= 25
