"""The game tracker against a reference model, with hypothesis-driven hands: every order of
lift/place/remove, hovering, bounces, wrong holes put right again, put-backs (undo)."""

import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))  # last: firmware/code.py must not shadow the stdlib's code

from pegcore.geometry import Board, start_mask  # noqa: E402
from pegcore.rules import legal_jumps, popcount, verdict  # noqa: E402
from pegfw.tracker import Tracker  # noqa: E402

B = Board(5)


def feed(t, pictures):
    out = []
    for p in pictures:
        out += t.sense(p)
    return out


def hand_pictures(mask, j, order, hover, bounce):
    """The stable pictures a hand produces making jump j from mask, in `order` (a permutation of
    the three hole changes), with an optional hover (lift and put back first) and a bounce."""
    holes = [B.jump_from[j], B.jump_over[j], B.jump_to[j]]
    pics = []
    m = mask
    if hover:
        f = 1 << holes[0]
        pics += [m & ~f, m]
    for k in order:
        m ^= 1 << holes[k]
        pics.append(m)
        if bounce == k:
            pics += [m ^ (1 << holes[k]), m]
    return pics


def play_plan(t, mask, plan):
    """The jumps `plan` picks ((pick, order, hover, bounce) each), made by hand from `mask` into
    tracker t; returns (jumps made, the tracker's events, the final mask). The tracker's position
    follows every jump."""
    made, seen = [], []
    for pick, order, hover, bounce in plan:
        legal = legal_jumps(B, mask)
        if not legal:
            break
        j = legal[pick % len(legal)]
        seen += feed(t, hand_pictures(mask, j, order, hover, bounce))
        mask ^= B.flip[j]
        made.append(j)
        assert t.position == mask
    return made, seen, mask


games = st.tuples(
    st.integers(1, 15),
    st.lists(st.tuples(st.integers(0, 1000), st.permutations([0, 1, 2]), st.booleans(), st.integers(-1, 2)),
             min_size=1, max_size=13),
)


@settings(max_examples=300, deadline=None)
@given(games)
def test_every_hand_order_makes_exactly_the_intended_moves(game):
    empty, plan = game
    t = Tracker(B)
    t.reset(0)
    mask = start_mask(B, empty)
    ev = t.sense(mask)
    assert ("new_game", empty, mask) in ev
    made, seen, mask = play_plan(t, mask, plan)
    moves = [e[1] for e in seen if e[0] == "move"]
    assert moves == made
    assert not [e for e in seen if e[0] in ("illegal", "undo", "new_game")]
    if not legal_jumps(B, mask):
        assert t.mode == "over"
        assert ("game_over", verdict(popcount(mask)), popcount(mask)) in seen


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 15), st.integers(0, 1000), st.integers(0, 14), st.integers(0, 14))
def test_a_wrong_placement_is_flagged_then_recovers(empty, pick, src, dst):
    t = Tracker(B)
    mask = start_mask(B, empty)
    t.reset(mask)
    legal = legal_jumps(B, mask)
    j = legal[pick % len(legal)]
    mask = mask ^ B.flip[j]
    feed(t, [mask])
    assert t.position == mask
    # move a peg from src to an empty dst: legal only if it is part of some jump in progress
    if not mask >> src & 1 or mask >> dst & 1:
        return
    pic = (mask & ~(1 << src)) | (1 << dst)
    # the board sees pictures, not which peg went where: a placement is fine when some legal
    # jump lands where the peg was placed (the peg missing elsewhere is a peg in the hand)
    explained = any(B.land[k] == 1 << dst for k in legal_jumps(B, mask))
    prev = mask ^ B.flip[j]
    undoing = (prev & ~mask) >> dst & 1
    ev = t.sense(pic)
    if popcount(pic) == B.holes - 1:
        return  # all but one filled: that is a new game by the rules
    if explained or undoing:
        assert not [e for e in ev if e[0] == "illegal"]
    else:
        assert ("illegal", [dst + 1]) in ev and t.mode == "illegal"
        ev = t.sense(mask)
        assert ("recovered",) in ev and t.mode == "play" and t.position == mask


def test_put_back_undoes_several_moves():
    t = Tracker(B)
    mask = start_mask(B, 1)
    t.reset(mask)
    path = []
    for mv in ([4, 2, 1], [6, 5, 4], [1, 3, 6]):
        j = B.find_jump(*mv)
        feed(t, hand_pictures(mask, j, [0, 2, 1], False, -1))
        path.append(mask)
        mask ^= B.flip[j]
    for expect in ([1, 3, 6], [6, 5, 4]):
        prev = path.pop()
        j = B.find_jump(*expect)
        # put the jumper back where it came from, then the jumped peg
        pics = [mask & ~(1 << B.jump_to[j]), (mask & ~(1 << B.jump_to[j])) | 1 << B.jump_from[j], prev]
        ev = feed(t, pics)
        assert ("undo", j) in ev and not [e for e in ev if e[0] == "illegal"]
        mask = prev
    assert [B.move_of(j) for j in t.moves] == [[4, 2, 1]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, (1 << 15) - 1), min_size=1, max_size=40))
def test_no_picture_whatever_crashes_it(pictures):
    t = Tracker(B)
    t.reset(pictures[0])
    for p in pictures:
        t.sense(p)
        assert t.mode in ("setup", "play", "illegal", "over")


def test_half_done_jump_lights_the_peg_to_remove():
    t = Tracker(B)
    mask = start_mask(B, 1)
    t.reset(mask)
    t.sense(mask & ~(1 << 3))           # lift 4
    assert t.lifted == 4 and t.landing == 1
    t.sense((mask & ~(1 << 3)) | 1)     # place it in 1
    assert t.pending == 1 << 1          # 2 still to pull out


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 15), st.lists(st.integers(0, 1000), min_size=2, max_size=12), st.integers(1, 3))
def test_quick_hands_two_moves_in_one_picture(empty, picks, merge):
    """Scans can miss the moment between two moves: the tracker still sees both."""
    t = Tracker(B)
    mask = start_mask(B, empty)
    t.reset(mask)
    made = []
    seen = []
    for k, pick in enumerate(picks):
        legal = legal_jumps(B, mask)
        if not legal:
            break
        j = legal[pick % len(legal)]
        pics = hand_pictures(mask, j, [0, 1, 2], False, -1)
        # a slow scan misses the picture of a finished move now and then (never twice in a
        # row within one peg's chain of jumps: no hand is that fast)
        chained = made and B.jump_to[made[-1]] == B.jump_from[j]
        if k % merge == 0 and seen and not chained:
            seen.pop()
        seen += pics
        mask ^= B.flip[j]
        made.append(j)
    ev = feed(t, seen)
    assert [e[1] for e in ev if e[0] == "move"] == made
    assert t.position == mask
