"""The tracker against an independent model of a hand: it holds pegs, places only pegs it holds
(or jumped pegs put aside earlier), makes each jump's three changes in any order, and lifts a
stray peg anywhere and puts it back at any moment, mid-jump included. The model knows which
moves were meant; the tracker sees only pictures. Also the start-hole rule: changing the start of
an unplayed board by one peg, then playing on, is a game from the new start."""

import itertools
import sys
from pathlib import Path

from hypothesis import example, given, settings, strategies as st

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))

from pegcore.geometry import Board, start_mask  # noqa: E402
from pegcore.rules import legal_jumps  # noqa: E402
from pegfw.tracker import Tracker  # noqa: E402

B = Board(5)
ORDERS = list(itertools.permutations([0, 1, 2]))  # 0 lift the jumper, 1 remove the jumped peg, 2 place


class Hand:
    """Pegs on the board, in the hand and put aside; the pictures the sensors see."""

    def __init__(self, mask):
        self.mask = mask
        self.held = 0
        self.aside = 0
        self.pictures = []

    def lift(self, h):
        assert self.mask >> h & 1
        self.mask &= ~(1 << h)
        self.held += 1
        self.pictures.append(self.mask)

    def place(self, h):
        assert not self.mask >> h & 1
        if self.held:
            self.held -= 1
        else:
            assert self.aside, "the hand has no peg to place"
            self.aside -= 1
        self.mask |= 1 << h
        self.pictures.append(self.mask)

    def can_place(self):
        return self.held or self.aside

    def jump(self, j, order, stray_at, stray_pick):
        holes = (B.jump_from[j], B.jump_over[j], B.jump_to[j])
        for k in range(4):
            pegs = [h for h in range(B.holes) if self.mask >> h & 1]
            if k == stray_at and pegs:  # (mid-jump on the last two pegs, none may be on the board)
                h = pegs[stray_pick % len(pegs)]
                self.lift(h)
                self.place(h)
            if k < 3:
                step = order[k]
                if step == 2:
                    self.place(holes[2])
                else:
                    self.lift(holes[step])
        # the jumped peg leaves the hand: put aside
        self.held -= 1
        self.aside += 1

    def valid(self, order):
        """A placement needs a peg in the hand or one put aside."""
        return self.can_place() or order.index(2) > 0


def play(t, hand, plan):
    made, seen = [], []
    for pick, order_k, stray_at, stray_pick in plan:
        legal = legal_jumps(B, hand.mask)
        if not legal:
            break
        j = legal[pick % len(legal)]
        order = ORDERS[order_k % 6]
        if not hand.valid(order):
            order = (0, 2, 1)
        hand.pictures = []
        hand.jump(j, order, stray_at, stray_pick)
        for p in hand.pictures:
            seen += t.sense(p)
        made.append(j)
    return made, seen


plans = st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 5), st.integers(-1, 3), st.integers(0, 100)),
                 min_size=1, max_size=13)


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 15), plans)
@example(12, [(1, 0, 0, 0)] * 3 + [(177, 0, 0, 0), (1, 0, 0, 0), (2, 0, 0, 0), (3, 0, 0, 0), (3, 0, 0, 0)]
         + [(0, 0, 0, 0)] * 3 + [(1, 0, 0, 0), (0, 0, 2, 0)])  # a stray hand mid-jump with no peg left to lift
def test_stray_hands_anywhere_make_exactly_the_meant_moves(empty, plan):
    t = Tracker(B)
    start = start_mask(B, empty)
    assert ("new_game", empty, start) in t.reset(start)
    made, seen = play(t, Hand(start), plan)
    assert [e[1] for e in seen if e[0] == "move"] == made
    assert not [e for e in seen if e[0] in ("illegal", "undo", "new_game")], seen


def test_the_issues_stray_hand_cases():
    t = Tracker(B)
    start = start_mask(B, 1)
    t.reset(start)
    # start 1; lift 4, place 1, lift 15: 15 is a peg in the hand, not an illegal placement
    ev = [e for p in (start & ~8, start & ~8 | 1, start & ~8 & ~(1 << 14) | 1) for e in t.sense(p)]
    assert not [e for e in ev if e[0] == "illegal"]
    t.sense(start & ~8 | 1)
    assert [e for e in t.sense(start & ~8 & ~2 | 1) if e[0] == "move"] == [("move", B.find_jump(4, 2, 1), 13)]
    # after 4-2-1 and 6-5-4: lift 9, place 6, lift 15: no move while 13, the jumper, is in place
    m = t.position
    t.sense(m & ~(1 << 5) & ~(1 << 4))
    m = m & ~(1 << 5) & ~(1 << 4) | 1 << 3
    assert ("move", B.find_jump(6, 5, 4), 12) in t.sense(m)
    ev = []
    for p in (m & ~(1 << 8), m & ~(1 << 8) | 1 << 5, m & ~(1 << 8) & ~(1 << 14) | 1 << 5):
        ev += t.sense(p)
    assert not [e for e in ev if e[0] in ("move", "illegal")]
    ev = t.sense(m & ~(1 << 8) | 1 << 5)  # 15 back
    ev += t.sense(m & ~(1 << 8) & ~(1 << 12) | 1 << 5)  # 13 leaves: now the move is made
    assert [e for e in ev if e[0] == "move"] == [("move", B.find_jump(13, 9, 6), 11)]


def old_moves(start):
    return [B.flip[k] for k in legal_jumps(B, start)]


def test_changing_the_start_by_one_peg_then_playing_on_in_every_hand_order():
    """Every start E, every peg X moved into E (the new start is X), every first jump from X in
    every order a hand can make it, then two more moves: a game from X, no move lost. Orders
    that pass through the old start's first move made are that move (docstring of the tracker)."""
    cases = 0
    for e in range(B.holes):
        for x in range(B.holes):
            if x == e:
                continue
            board = B.full & ~(1 << x)
            for j in legal_jumps(B, board):
                for order in ORDERS:
                    t = Tracker(B)
                    t.reset(B.full & ~(1 << e))
                    hand = Hand(B.full & ~(1 << e))
                    hand.lift(x)
                    hand.place(e)
                    if not hand.valid(order):
                        continue
                    hand.jump(j, order, -1, 0)
                    old = B.full & ~(1 << e)
                    if any(p ^ old in old_moves(old) for p in hand.pictures):
                        continue  # a picture on the way is the old start's first move made: that game

                    seen = [ev for p in hand.pictures for ev in t.sense(p)]
                    made = [j]
                    plan = [(cases, cases % 6, -1, 0), (cases * 7, cases % 5, -1, 0)]
                    more, seen2 = play(t, hand, plan)
                    seen += seen2
                    made += more
                    assert [ev for ev in seen if ev[0] == "new_game"] == [("new_game", x + 1, start_mask(B, x + 1))], (e + 1, x + 1, order)
                    # the game from the new start: what follows its new_game (a picture may have
                    # been the old start's first move too, until the next one settled it)
                    after = seen[seen.index(("new_game", x + 1, start_mask(B, x + 1))):]
                    assert [ev[1] for ev in after if ev[0] == "move"] == made, (e + 1, x + 1, order, seen)
                    assert not [ev for ev in seen if ev[0] in ("illegal", "undo")], (e + 1, x + 1, order, seen)
                    assert t.empty_start == x + 1 and t.position == hand.mask
                    cases += 1
    assert cases > 1800


def test_the_issues_start_change_from_6_to_4():
    t = Tracker(B)
    t.reset(start_mask(B, 6))
    hand = Hand(start_mask(B, 6))
    hand.lift(3)   # 4
    hand.place(5)  # into 6: also half of 4 over 5 into 6
    hand.jump(B.find_jump(1, 2, 4), (0, 2, 1), -1, 0)
    seen = [ev for p in hand.pictures for ev in t.sense(p)]
    assert ("new_game", 4, start_mask(B, 4)) in seen and ("move", B.find_jump(1, 2, 4), 13) in seen
    assert t.empty_start == 4 and not [ev for ev in seen if ev[0] == "illegal"]
