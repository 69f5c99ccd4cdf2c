"""The game tracker against a reference model, with hypothesis-driven hands: every order of
lift/place/remove, hovering, bounces, wrong holes put right again, put-backs (undo)."""

import sys
from pathlib import Path

from hypothesis import assume, event, example, given, settings, strategies as st

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))  # last: firmware/code.py must not shadow the stdlib's code

from pegcore.geometry import Board, start_mask  # noqa: E402
from pegcore.rules import has_move, holes_of, legal_jumps, popcount, verdict  # noqa: E402
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


def placements_explained(mask, last):
    """The empty holes of `mask` where a placement is explained (the reference model, from the
    tracker's docstring): the landing hole of a legal jump, or one of the two holes the last move
    (jump `last`) emptied (a peg put back there is an undo in progress)."""
    ok = (1 << B.jump_from[last]) | (1 << B.jump_over[last])
    for k in legal_jumps(B, mask):
        ok |= B.land[k]
    return ok & ~mask


@st.composite
def games_in_play(draw, min_moves=2):
    """(empty, the jumps made, the position): min_moves or more moves from a start (fewer when the
    game would end), the game still going
    (a placement after game over is setup, not a flag)."""
    empty = draw(st.integers(1, 15))
    mask = start_mask(B, empty)
    made = []
    for _ in range(draw(st.integers(min_moves, 11))):
        going = [j for j in legal_jumps(B, mask) if has_move(B, mask ^ B.flip[j])]
        if not going:
            break
        j = draw(st.sampled_from(going))
        made.append(j)
        mask ^= B.flip[j]
    return empty, made, mask


@st.composite
def wrong_placements(draw):
    """A game in play, a peg moved from `src` into an empty hole `dst` that nothing explains, and how
    the hand puts it right: "back" (the peg back in src) or "lift" (the stray peg lifted off)."""
    empty, made, _ = draw(games_in_play(min_moves=5))
    # the positions along the game where some empty hole is neither a landing nor the last move's
    # (never after the first move; rare after the second): one of them is the position
    where, mask = [], start_mask(B, empty)
    for k, j in enumerate(made):
        mask ^= B.flip[j]
        wrong = B.full & ~mask & ~placements_explained(mask, j)
        if wrong:
            where.append((k + 1, mask, wrong))
    assume(where)
    n, mask, wrong = draw(st.sampled_from(where))
    made = made[:n]
    dst = draw(st.sampled_from(holes_of(wrong))) - 1
    src = draw(st.sampled_from(holes_of(mask))) - 1
    return empty, made, src, dst, draw(st.sampled_from(("back", "lift")))


def play_out(empty, made):
    """A tracker that has followed the jumps `made` from the start with hole `empty` empty, and the position."""
    t = Tracker(B)
    mask = start_mask(B, empty)
    t.reset(mask)
    for j in made:
        mask ^= B.flip[j]
        feed(t, [mask])
    assert t.position == mask and t.mode == "play" and t.moves == made
    return t, mask


J = B.find_jump


@settings(max_examples=200, deadline=None)
@given(wrong_placements())
# 4-2-1, 6-5-4, 1-3-6, 7-4-2: hole 1 is no jump's landing and not the last move's; peg 15 goes there
@example((1, [J(4, 2, 1), J(6, 5, 4), J(1, 3, 6), J(7, 4, 2)], 14, 0, "back"))
@example((1, [J(4, 2, 1), J(6, 5, 4), J(1, 3, 6), J(7, 4, 2)], 14, 0, "lift"))
@example((13, [J(4, 8, 13), J(1, 2, 4), J(3, 5, 8)], 5, 0, "lift"))
def test_a_wrong_placement_is_flagged_then_recovers(case):
    empty, made, src, dst, fix = case
    t, mask = play_out(empty, made)
    ev = t.sense((mask & ~(1 << src)) | (1 << dst))
    assert ("illegal", [dst + 1]) in ev and t.mode == "illegal", ev  # flagged: that hole alone
    event("flagged, put right by " + fix)
    ev = t.sense(mask if fix == "back" else mask & ~(1 << src))
    assert ("recovered",) in ev and t.mode == "play" and t.position == mask and t.moves == made, ev
    assert not [e for e in ev if e[0] in ("move", "undo", "illegal", "new_game")]


@st.composite
def explained_placements(draw):
    """A game in play and a peg moved from `src` into an empty hole `dst` a legal jump lands in
    ("landing") or the last move emptied ("undo")."""
    empty, made, mask = draw(games_in_play())
    dst = draw(st.sampled_from(holes_of(placements_explained(mask, made[-1])))) - 1
    src = draw(st.sampled_from(holes_of(mask))) - 1
    return empty, made, src, dst


@settings(max_examples=200, deadline=None)
@given(explained_placements())
@example((1, [J(4, 2, 1), J(6, 5, 4)], 0, 5))  # peg 1 put back in 6: the undo of 6-5-4 begun
@example((1, [J(4, 2, 1), J(6, 5, 4)], 12, 1))  # peg 13 into 2: where 7-4-2 lands
def test_a_placement_a_jump_or_an_undo_explains_is_not_flagged(case):
    empty, made, src, dst = case
    t, mask = play_out(empty, made)
    last = made[-1]
    event("an undo begun" if dst in (B.jump_from[last], B.jump_over[last]) else "a jump's landing")
    ev = t.sense((mask & ~(1 << src)) | (1 << dst))
    assert not [e for e in ev if e[0] == "illegal"] and t.mode == "play", ev


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
