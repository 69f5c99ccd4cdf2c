"""The `pegs` theme: each peg of a game keeps its colour as it jumps, goes back with it on an undo
and after a power cut (pegcore.pegcolours, a pure function of the start and the moves). The
firmware's lights are checked against pegs followed in the hand one by one (which peg is where),
not against the pegcore function; then the function itself, the host's pictures and the current."""

import math
import random
import re

import pytest
from fakehw import FlashNvm, HW, make_app, run
from support import ask

from pegcore.geometry import Board, start_mask
from pegcore.pegcolours import HUES, hue, peg_ids
from pegcore.rules import legal_jumps
from pegfw import colors
from pegfw.lights import CURRENT_MA_DEFAULT, Limiter, estimate_ma

B = Board(5)
PEGS = {"PEGBOARD_THEME": "pegs"}
ROLE_COLOURS = (colors.SETUP, colors.PENDING, colors.LANDING, colors.ERROR, colors.EMPTY, colors.PEG, colors.OFF)


class Hands:
    """The board as the hands see it: which starting peg (numbered in hole order) stands where,
    the one in the hand, and the pegs jumped off the board (for undos), moved one at a time."""

    def __init__(self, start, rnd):
        self.rnd = rnd
        self.at = {}  # 0-based hole -> peg number
        for i in range(B.holes):
            if start >> i & 1:
                self.at[i] = len(self.at)
        self.made = []  # (jump, the jumped peg's number)
        self.pictures = []

    def mask(self):
        m = 0
        for i in self.at:
            m |= 1 << i
        return m

    def _do(self, steps):
        """`steps`: ("lift", hole) takes the peg into the hand; ("place", hole) puts the hand's
        peg down; ("off", hole) takes a jumped peg off the board; ("back", hole, peg) puts one
        back. Each change is a picture."""
        hand = None
        for s in steps:
            if s[0] == "lift":
                hand = self.at.pop(s[1])
            elif s[0] == "place":
                self.at[s[1]] = hand
            elif s[0] == "off":
                del self.at[s[1]]
            else:
                self.at[s[1]] = s[2]
            self.pictures.append(self.mask())
            yield

    def jump(self, j):
        f, o, t = B.jump_from[j], B.jump_over[j], B.jump_to[j]
        orders = ([("lift", f), ("place", t), ("off", o)], [("lift", f), ("off", o), ("place", t)],
                  [("off", o), ("lift", f), ("place", t)])
        self.made.append((j, self.at[o]))
        return self._do(self.rnd.choice(orders))

    def undo(self):
        j, peg = self.made.pop()
        f, o, t = B.jump_from[j], B.jump_over[j], B.jump_to[j]
        orders = ([("lift", t), ("place", f), ("back", o, peg)], [("back", o, peg), ("lift", t), ("place", f)],
                  [("lift", t), ("back", o, peg), ("place", f)])
        return self._do(self.rnd.choice(orders))


def lit(app, hw):
    """The colours the LEDs show now, as frame colours before the brightness (the steady picture
    the limiter passed unchanged: a game's frame at 40 % is under the budget); while a show runs
    over it (the game over's), the steady picture it returns to."""
    if app.shows.show is not None:
        return list(app.base)
    shown = hw.frames[-1]
    pct = app.limiter.brightness
    back = {colors.scale(c, pct, 100): c for c in HUES + ROLE_COLOURS}
    return [back.get(c, c) for c in shown]


def check(app, hw, hands, settled):
    """Every peg on the board is lit in its colour, unless its hole has another meaning for now
    (the jumped peg to pull out, an illegal placement); when the picture is a position of the
    game (settled), every peg is lit in its colour. No empty hole is lit in a peg's colour."""
    shown = lit(app, hw)
    for i in range(B.holes):
        if i in hands.at and (settled or shown[i] not in (colors.PENDING, colors.LANDING, colors.ERROR)):
            assert shown[i] == hue(hands.at[i]), (i + 1, hex(shown[i]), hands.at[i], hands.pictures[-3:])
        if i not in hands.at:
            assert shown[i] not in HUES, (i + 1, hex(shown[i]))


def steps(app, hw, gen, hands, settled=True):
    for _ in gen:
        hw.sensors.set(hands.pictures[-1])
        run(app, hw, 40)
        check(app, hw, hands, False)
    check(app, hw, hands, settled)


def boot(nvm, picture):
    hw = HW(PEGS, nvm=nvm)
    hw.sensors.state = picture
    hw, app = make_app(hw)
    run(app, hw, 200)
    return hw, app


@pytest.mark.parametrize("seed", range(8))
def test_every_peg_keeps_its_colour_through_hands_undos_and_a_power_cut(seed):
    rnd = random.Random(seed)
    nvm = FlashNvm()
    hw, app = make_app(HW(PEGS, nvm=nvm))
    empty = rnd.randrange(1, B.holes + 1)
    hands = Hands(start_mask(B, empty), rnd)
    hw.sensors.set(hands.mask())
    run(app, hw, 200)
    assert app.tracker.mode == "play"
    check(app, hw, hands, True)
    cut_at = rnd.randrange(3, 8)
    n = 0
    while legal_jumps(B, hands.mask()) and len(hands.made) < 9:
        n += 1
        if hands.made and rnd.random() < 0.3:
            steps(app, hw, hands.undo(), hands)
        else:
            steps(app, hw, hands.jump(rnd.choice(legal_jumps(B, hands.mask()))), hands)
        assert [j for j, _ in hands.made] == app.tracker.moves
        if n == cut_at:  # a power cut, sometimes with a peg in the hand
            g = hands.jump(rnd.choice(legal_jumps(B, hands.mask())))
            half = rnd.randrange(0, 3)
            for _ in range(half):
                next(g)
            hw, app = boot(nvm, hands.mask())
            check(app, hw, hands, half == 0)
            steps(app, hw, g, hands)
            assert [j for j, _ in hands.made] == app.tracker.moves
    assert n > cut_at


def test_the_theme_request_and_setting_and_the_lazy_module():
    import sys

    sys.modules.pop("pegcore.pegcolours", None)
    hw, app = make_app()
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 200)
    assert "pegcore.pegcolours" not in sys.modules  # plain: the module stays off the heap
    assert ask(app, hw, "theme", name="pegs") == {"id": 7, "ok": True, "name": "pegs"}
    run(app, hw, 40)
    assert lit(app, hw)[1:] == [hue(n) for n in range(14)] and lit(app, hw)[0] == colors.EMPTY
    assert ask(app, hw, "state")["theme"] == "pegs"
    r = ask(app, hw, "theme", name="neon")
    assert r["error"] == "bad_args" and "pegs" in r["message"]
    assert ask(app, hw, "theme", name="plain")["name"] == "plain"
    run(app, hw, 40)
    assert lit(app, hw)[1:] == [colors.PEG] * 14
    hw, app = make_app(HW(PEGS))
    assert app.theme == "pegs"
    hw.sensors.set(start_mask(B, 5))
    run(app, hw, 200)
    assert lit(app, hw) == [hue(n) if n >= 0 else colors.EMPTY for n in peg_ids(B, start_mask(B, 5), [])]


def test_free_play_lights_no_game_colours():
    hw, app = make_app(HW(PEGS))
    hw.sensors.set(0b111)
    run(app, hw, 200)
    assert app.tracker.mode == "setup" and lit(app, hw)[:3] == [colors.SETUP] * 3


# -- the pegcore function ----------------------------------------------------------------------
def test_peg_ids_number_the_start_in_hole_order_and_move_with_the_jumps():
    start = start_mask(B, 1)
    assert peg_ids(B, start, []) == [-1] + list(range(14))
    j = B.find_jump(4, 2, 1)
    assert peg_ids(B, start, [j]) == [2, -1, 1, -1] + list(range(3, 14))
    k = B.find_jump(6, 5, 4)
    assert peg_ids(B, start, [j, k]) == [2, -1, 1, 4, -1, -1] + list(range(5, 14))
    # a hand-set start: the pegs it has, numbered in hole order
    assert peg_ids(B, 0b1010110, []) == [-1, 0, 1, -1, 2, -1, 3] + [-1] * 8


@pytest.mark.parametrize("seed", range(20))
def test_peg_ids_follow_every_peg_of_random_games(seed):
    rnd = random.Random(seed)
    b = Board(rnd.choice((4, 5, 6, 7)))
    start = start_mask(b, rnd.randrange(1, b.holes + 1))
    where = {i: n for n, i in enumerate(i for i in range(b.holes) if start >> i & 1)}
    moves, m = [], start
    while legal_jumps(b, m):
        j = rnd.choice(legal_jumps(b, m))
        where[b.jump_to[j]] = where.pop(b.jump_from[j])
        del where[b.jump_over[j]]
        moves.append(j)
        m ^= b.flip[j]
        ids = peg_ids(b, start, moves)
        assert ids == [where.get(i, -1) for i in range(b.holes)]
        assert [i for i in range(b.holes) if ids[i] >= 0] == [i for i in range(b.holes) if m >> i & 1]


def test_the_hues_stay_apart_from_each_other_and_from_every_meaning_colour():
    def direction(c):
        rgb = (c >> 16, c >> 8 & 255, c & 255)
        return tuple(x / max(rgb) for x in rgb)

    meanings = [getattr(colors, n) for n in dir(colors) if n.isupper() and isinstance(getattr(colors, n), int)]
    bright = [c for c in meanings if max(c >> 16, c >> 8 & 255, c & 255) > 0x80]
    assert len(set(HUES)) == 6 and all(c < 1 << 24 for c in HUES)
    for a in HUES:
        assert min(math.dist(direction(a), direction(c)) for c in bright) > 0.35, hex(a)
        assert min(math.dist(direction(a), direction(c)) for c in HUES if c != a) > 0.35, hex(a)


def test_all_pegs_lit_in_hues_stay_within_the_current_budget():
    """A full board of hues (the brightest six-peg cycle included) at the default brightness is
    under the default budget before the limiter scales anything; at full brightness the limiter
    brings it under."""
    frame = [hue(n) for n in range(B.holes)]
    default = Limiter(CURRENT_MA_DEFAULT, 40)
    assert default.limit(frame) == [colors.scale(c, 40, 100) for c in frame]
    assert estimate_ma(default.limit(frame)) <= CURRENT_MA_DEFAULT
    assert estimate_ma(Limiter(CURRENT_MA_DEFAULT, 100).limit(frame)) <= CURRENT_MA_DEFAULT
    big = Board(8)
    assert estimate_ma(Limiter(CURRENT_MA_DEFAULT, 40).limit([hue(n) for n in range(big.holes)])) <= CURRENT_MA_DEFAULT


# -- the host's pictures -----------------------------------------------------------------------
def _solution():
    from pegcore.solver import Solver

    start = start_mask(B, 1)
    return start, Solver(B).solution(start)


def test_the_svg_draws_each_peg_in_its_colour():
    from pegboard.pictures.svg import solution_svg

    start, jumps = _solution()
    svg = solution_svg(B, start, jumps, colours="pegs")
    cells = svg.split('<text x=')  # a step's title, then its holes
    steps = [c for c in cells if 'class="hole"' in c]
    assert len(steps) == len(jumps) + 1
    for k, cell in enumerate(steps):
        ids = peg_ids(B, start, jumps[:k])
        fills = dict((int(h), f) for h, f in re.findall(r'data-hole="(\d+)"[^>]*fill="(#[0-9a-f]{6})"', cell))
        for i in range(B.holes):
            if ids[i] >= 0:
                assert fills[i + 1] == "#%06x" % hue(ids[i]), (k, i + 1)
    assert solution_svg(B, start, jumps) != svg  # plain pictures stay as they were


def test_the_gif_draws_each_peg_in_its_colour(tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    from pegboard.pictures.svg import _hole_xy, gif_layout, solution_gif

    start, jumps = _solution()
    path = str(tmp_path / "s.gif")
    assert solution_gif(B, start, jumps, path, colours="pegs") == len(jumps) + 1
    pitch, r, top = gif_layout(B)
    img = Image.open(path)
    for k in (0, 5, len(jumps)):
        img.seek(k)
        rgb = img.convert("RGB")
        ids = peg_ids(B, start, jumps[:k])
        for i in range(B.holes):
            if ids[i] < 0:
                continue
            x, y = _hole_xy(B, i + 1, pitch)
            px = rgb.getpixel((int(x + 20 + pitch / 2 - r * 0.6), int(y + top + r)))
            want = hue(ids[i])
            near = zip(px, (want >> 16, want >> 8 & 255, want & 255), strict=True)
            assert max(abs(a - b) for a, b in near) <= 24, (k, i + 1, px)


# -- the terminal UI ---------------------------------------------------------------------------
def test_the_tui_reads_each_hue_as_a_peg_shown_in_its_own_colour():
    from textual.color import Color

    from pegboard.tui.roles import hole_look, hole_role

    for brightness in (5, 40, 100):
        frame = [colors.EMPTY] + [hue(n) for n in range(14)]  # a full board of hues, current-limited
        lights = [[c >> 16, c >> 8 & 255, c & 255] for c in Limiter(400, brightness).limit(frame)]
        st = {"lights": lights, "brightness": brightness, "theme": "pegs", "pegs": list(range(2, 16))}
        for h in range(2, 16):
            symbol, bg, _ = hole_look(h, st)
            c = hue(h - 2)
            assert symbol == "●" and bg == Color(c >> 16, c >> 8 & 255, c & 255), (h, brightness)
        assert hole_role(1, st) == "empty"
    # a hint over pegs in their colours: its three holes by the state's show, the rest pegs
    st = {"lights": lights, "theme": "pegs", "pegs": list(range(2, 16)), "show": {"kind": "hint", "move": [3, 2, 1]}}
    assert [hole_role(h, st) for h in (1, 2, 3, 4)] == ["to", "over", "from", "peg"]
