"""What each show lights and tells the host, at the moments a player or a view meets it: the first
picture of a review, a hint's words while its lights run, the watched search's try, a bring-up
pixel, a set challenge's finish hole, the end of a demonstration; a lifted peg's landings in free
play and after a move; the "pegs" theme's colour of a peg landing in hole 1."""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))  # last: firmware/code.py must not shadow the stdlib's code

from pegcore import search  # noqa: E402
from pegcore.geometry import Board, start_mask  # noqa: E402
from pegcore.rules import legal_jumps  # noqa: E402
from pegfw import colors  # noqa: E402
from pegfw.challenge import TargetShow  # noqa: E402
from pegfw.show_chase import RGB, ChaseShow  # noqa: E402
from pegfw.show_demo import DemoShow  # noqa: E402
from pegfw.show_review import PHASE_MS, ReviewShow  # noqa: E402
from pegfw.show_watch import SolverShow  # noqa: E402
from pegfw.shows import HintShow  # noqa: E402
from pegfw.tracker import Tracker  # noqa: E402

B = Board(5)


def jump(f, o, t):
    return next(j for j in range(len(B.flip)) if B.move_of(j) == [f, o, t])


def test_a_review_shows_the_move_played_first_then_the_better_one():
    before = start_mask(B, 1)
    played, better = jump(4, 2, 1), jump(6, 3, 1)
    show = ReviewShow(B, 1000, before, played, better)
    assert show.describe(1000) == {"pegs": [i + 1 for i in range(15) if before >> i & 1], "move": [4, 2, 1],
                                   "lost": True}
    first = show.frame(1000, None)
    assert [first[h - 1] for h in (4, 2, 1)] == [colors.LOST] * 3
    later = show.frame(1000 + PHASE_MS, None)
    assert [later[h - 1] for h in (6, 3, 1)] == [colors.HINT_FROM, colors.HINT_OVER, colors.HINT_TO]
    assert show.describe(1000 + PHASE_MS)["lost"] is False


def test_a_solvable_hint_names_its_move_from_the_first_moment():
    j = jump(4, 2, 1)
    told = HintShow(B, 500, j, True).describe(500)
    assert told["move"] == [4, 2, 1] and told["lost"] is False
    lost = HintShow(B, 500, j, False).describe(500)
    assert lost["move"] is None and lost["lost"] is True  # a lost position blinks its pegs first


def test_the_watched_search_lights_the_hole_it_tries():
    mask = start_mask(B, 1)
    show = SolverShow(B, 0, mask, speed_ms=0)
    show.step()
    out = show.frame(0, None)
    assert show.kind == search.TRY
    to = B.jump_to[show.jump]
    assert out[to] == colors.TRY and show.describe(0)["tried"] == to + 1
    assert out.count(colors.TRY) == 1


def test_the_bring_up_light_is_the_asked_holes_pixel():
    show = ChaseShow(15, 0, hole=7)
    out = show.frame(0, None)
    assert out[6] == RGB[0] and [c for i, c in enumerate(out) if i != 6] == [colors.OFF] * 14
    assert show.frame(1000, None)[6] == RGB[1]


def test_a_finish_challenge_lights_its_hole():
    show = TargetShow(B, 0, 5)  # finish:5 (the code of a finish is its hole)
    out = show.frame(0, [colors.PEG] * 15)
    assert [i + 1 for i, c in enumerate(out) if c == colors.HINT_TO] == [5]


def test_a_demonstration_past_its_last_jump_lights_no_move():
    mask = start_mask(B, 1)
    jumps = [jump(4, 2, 1), jump(6, 5, 4)]
    show = DemoShow(B, 0, mask, jumps, step_ms=1200)
    assert show.describe(0)["move"] == [4, 2, 1]
    end = show.describe(2 * 1200)
    after = mask ^ B.flip[jumps[0]] ^ B.flip[jumps[1]]
    assert end["move"] is None and end["pegs"] == [i + 1 for i in range(15) if after >> i & 1]


def test_a_lifted_peg_lights_its_landings_in_free_play_and_after_a_move():
    t = Tracker(B)
    free = start_mask(B, 1) & ~(1 << 5) & ~(1 << 12)  # 12 pegs: no game, the hands set freely
    t.reset(free)
    assert t.mode == "setup"
    t.sense(free & ~(1 << 3))  # lift 4: 4 → 1 over 2 is open
    assert t.lifted == 4 and t.landing & 1
    t = Tracker(B)
    mask = start_mask(B, 1)
    t.reset(mask)
    for f, o, to in ((4, 2, 1), (6, 5, 4)):
        mask = mask & ~(1 << f - 1) | 1 << to - 1
        t.sense(mask)
        mask &= ~(1 << o - 1)
        t.sense(mask)
    assert t.mode == "play" and len(t.moves) == 2
    t.sense(mask & ~(1 << 0))  # lift 1: 1 → 6 over 3 lands in 6
    assert t.lifted == 1 and t.landing == 1 << 5
    assert any(B.jump_from[j] == 0 for j in legal_jumps(B, mask))
