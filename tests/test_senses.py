"""Issue "senses", the lights: with PEGBOARD_ROLES = "motion" every role's light follows a pattern
in time (pegcore.rolemotion), so a player who cannot tell the hues apart tells the roles apart.
The proof sees only each hole's brightness over time, never its hue: it names each hole's role
from its brightness alone and must name the role the board's own state gives."""

import json

import pytest
from fakehw import HW, make_app, run
from support import ask, output

from pegcore.geometry import Board, start_mask
from pegcore.rolemotion import FULL, PATTERNS, level
from pegfw import colors
from pegfw.clock import ticks_diff
from pegfw.lights import estimate_ma

B = Board(5)
START = start_mask(B, 1)
TICK = 1 << 29
STEADY = "steady"


def recording(hw):
    """Every frame the App sends, with the tick it was sent at."""
    got = []
    show = hw.show

    def record(frame):
        got.append((hw.now, list(frame)))
        show(frame)

    hw.show = record
    return got


def brightness(c):
    return (c >> 16) + (c >> 8 & 255) + (c & 255)


def series(got, start, ms, every=16):
    """Each hole's brightness (the sum of its channels: no hue) every `every` ms from `start`,
    as the pixels hold it (the last frame sent), with the tick of each sample."""
    out = []
    k = 0
    last = None
    for t in range(0, ms, every):
        tick = (start + t) % TICK
        while k < len(got) and ticks_diff(got[k][0], start) <= t:
            last = got[k][1]
            k += 1
        out.append((tick, [brightness(c) for c in last]))
    return out


def classify(samples, hole):
    """The role whose pattern the hole's brightness follows best, normalised to its brightest
    (so a hue's own brightness says nothing): a role of pegcore.rolemotion, or "steady"."""
    top = max(s[1][hole] for s in samples)
    if top == 0:
        return STEADY
    seen = [s[1][hole] / top for s in samples]
    best, err = STEADY, sum((1 - v) ** 2 for v in seen)
    for role in PATTERNS:
        want = [level(role, s[0]) / FULL for s in samples]
        e = sum((a - b) ** 2 for a, b in zip(seen, want, strict=True))
        if e < err:
            best, err = role, e
    return best


def motion_game():
    hw = HW({"PEGBOARD_ROLES": "motion"})
    hw, app = make_app(hw)
    got = recording(hw)
    hw.sensors.set(START)
    run(app, hw, 200)
    output(hw)
    return hw, app, got


def roles_seen(hw, app, got, ms):
    """Each hole's role named from its brightness over `ms` ms from now."""
    start = hw.now
    run(app, hw, ms, step=4)
    samples = series(got, start, ms)
    return {h + 1: classify(samples, h) for h in range(B.holes)}


def test_a_hint_seen_as_brightness_alone_names_jump_this_over_this_and_into_here():
    hw, app, got = motion_game()
    hw.button.set(1)
    run(app, hw, 60)
    hw.button.set(0)
    run(app, hw, 60)
    move = [e for e in output(hw) if e.get("event") == "hint"][0]["move"]
    seen = roles_seen(hw, app, got, 3800)
    assert [seen[h] for h in move] == ["from", "over", "to"]
    assert all(seen[h] == STEADY for h in range(1, 16) if h not in move)  # pegs and the empty hole


def test_a_lifted_pegs_landing_a_peg_to_pull_and_an_illegal_one_are_told_by_brightness_alone():
    hw, app, got = motion_game()
    mask = START & ~(1 << 3)  # 4 lifted and put into 1: 2 still to pull out
    hw.sensors.set(mask)
    run(app, hw, 60)
    mask |= 1
    hw.sensors.set(mask)
    run(app, hw, 60)
    assert ask(app, hw, "state")["pull"] == [2]
    seen = roles_seen(hw, app, got, 2100)
    assert seen[2] == "pull"
    assert {seen[h] for h in range(1, 16) if h != 2} == {STEADY}
    mask &= ~(1 << 1)  # 2 pulled out; then 6 lifted: it may land in 4 (over 5)
    hw.sensors.set(mask)
    run(app, hw, 60)
    mask &= ~(1 << 5)
    hw.sensors.set(mask)
    run(app, hw, 60)
    assert ask(app, hw, "state")["landing"] == [4]
    seen = roles_seen(hw, app, got, 4200)
    assert seen[4] == "landing"
    assert {seen[h] for h in range(1, 16) if h != 4} == {STEADY}
    # an illegal placement (as tests/test_fw_app.py makes one): four moves, then 15 dropped into 1
    hw, app, got = motion_game()
    mask = START
    for move in ([4, 2, 1], [6, 5, 4], [1, 3, 6], [7, 4, 2]):
        for step in (~(1 << move[0] - 1), 1 << move[2] - 1, ~(1 << move[1] - 1)):
            mask = mask & step if step < 0 else mask | step
            hw.sensors.set(mask)
            run(app, hw, 40)
    hw.sensors.set(mask & ~(1 << 14) | 1)
    run(app, hw, 60)
    st = ask(app, hw, "state")
    assert st["illegal"] == [1], st
    seen = roles_seen(hw, app, got, 2100)
    assert seen[1] == "illegal"
    assert {seen[h] for h in range(1, 16) if h != 1} == {STEADY}


def test_every_role_has_a_pattern_of_its_own_and_steady_pegs_and_holes_differ_by_level():
    ticks = range(0, 8192, 16)
    shapes = {role: tuple(level(role, t) for t in ticks) for role in PATTERNS}
    assert len(set(shapes.values())) == len(shapes)
    assert all(len(set(s)) > 1 for s in shapes.values())  # none is steady: a peg is
    assert brightness(colors.PEG) > 10 * brightness(colors.EMPTY)


def test_colour_mode_is_steady_and_the_request_switches_motion_on_and_off():
    hw, app = make_app(HW())
    got = recording(hw)
    hw.sensors.set(START)
    run(app, hw, 200)
    hw.sensors.set(START & ~(1 << 3))  # 4 lifted: 1 is a landing
    run(app, hw, 60)
    st = ask(app, hw, "state")
    assert st["roles"] == "colour" and st["landing"] == [1]
    seen = roles_seen(hw, app, got, 4200)
    assert seen[1] == STEADY
    assert ask(app, hw, "roles", name="motion") == {"id": 7, "ok": True, "name": "motion"}
    assert roles_seen(hw, app, got, 4200)[1] == "landing"
    assert ask(app, hw, "roles", name="colour")["name"] == "colour"
    assert roles_seen(hw, app, got, 4200)[1] == STEADY
    bad = ask(app, hw, "roles", name="blink")
    assert bad["ok"] is False and bad["error"] == "bad_args"


def test_a_pattern_only_dims_so_no_frame_draws_more_than_its_steady_self():
    hw = HW({"PEGBOARD_ROLES": "motion", "PEGBOARD_BRIGHTNESS": 100, "PEGBOARD_CURRENT_MA": 200})
    hw, app = make_app(hw)
    got = recording(hw)
    hw.sensors.set(START)
    run(app, hw, 200)
    hw.sensors.set(START & ~(1 << 3))
    run(app, hw, 60)
    hw.button.set(1)
    run(app, hw, 60)
    hw.button.set(0)
    run(app, hw, 4000)  # the hint, the brightest frames
    assert max(estimate_ma(f) for _, f in got) <= 200
    hint_over = len(got)
    run(app, hw, 6000)  # then the steady picture, its landing breathing
    assert app.shows.show is None
    steady = app.limiter.limit(app.base)
    late = [f for _, f in got[hint_over + 2:]]
    assert len({tuple(f) for f in late}) > 1  # the landing breathes
    for f in late:
        for a, b in zip(f, steady, strict=True):
            assert all((a >> k & 255) <= (b >> k & 255) for k in (0, 8, 16)), (hex(a), hex(b))


@pytest.mark.parametrize("theme", colors.THEMES)
def test_no_themes_peg_takes_a_roles_colour(theme):
    from pegcore.pegcolours import HUES
    from pegfw.motion import BY_COLOUR

    pegs = {"plain": (colors.PEG,), "wooden": colors.WOODEN, "pegs": HUES}[theme]
    assert not set(pegs) & set(BY_COLOUR)
    assert colors.EMPTY not in BY_COLOUR and colors.SETUP not in BY_COLOUR


def test_a_bad_roles_setting_is_refused_by_name():
    from pegfw.config import ConfigError, load

    with pytest.raises(ConfigError) as e:
        load(lambda k: {"PEGBOARD_ROWS": 5, "PEGBOARD_ROLES": "blinky"}.get(k))
    assert "PEGBOARD_ROLES must be one of colour, motion" in json.dumps(e.value.lines)


# -- sound ----------------------------------------------------------------------------------------

class FakePWM:
    """pwmio.PWMOut's two attributes the player sets, each change noted with the App's tick."""

    def __init__(self, hw):
        self.hw, self.log, self._f, self._d = hw, [], 4000, 0

    @property
    def frequency(self):
        return self._f

    @frequency.setter
    def frequency(self, f):
        self._f = f
        self.log.append((self.hw.now, "f", f))

    @property
    def duty_cycle(self):
        return self._d

    @duty_cycle.setter
    def duty_cycle(self, d):
        self._d = d
        self.log.append((self.hw.now, "d", d))


def piezo_app(settings=None):
    s = {"PEGBOARD_PIEZO_PIN": "GP17"}
    s.update(settings or {})
    hw = HW(s)
    hw.piezo = FakePWM(hw)
    hw, app = make_app(hw)
    hw.sensors.set(START)
    run(app, hw, 200)
    output(hw)
    return hw, app


def test_a_tune_plays_a_note_a_pass_without_waiting_and_ends_silent():
    from pegfw.sound import DUTY_PER_PCT, TUNES

    hw, app = piezo_app({"PEGBOARD_VOLUME": 40})
    assert ask(app, hw, "sound", play="win")["played"] is True
    run(app, hw, 1000, step=2)
    freqs = [v for _, k, v in hw.piezo.log if k == "f"]
    assert freqs == [f for f, _ in TUNES["win"]]
    duties = [(t, v) for t, k, v in hw.piezo.log if k == "d"]
    assert {v for _, v in duties[:-1]} == {40 * DUTY_PER_PCT} and duties[-1][1] == 0
    lasted = ticks_diff(duties[-1][0], duties[0][0])
    assert sum(ms for _, ms in TUNES["win"]) <= lasted <= sum(ms for _, ms in TUNES["win"]) + 4 * 2


def test_volume_zero_and_quiet_hours_keep_the_board_silent_and_a_board_without_a_piezo_says_so():
    hw, app = piezo_app()
    assert ask(app, hw, "sound", volume=0)["silent"] is True
    assert ask(app, hw, "sound", play="click")["played"] is False
    assert ask(app, hw, "sound", volume=50, quiet="22-7")["silent"] is False  # no clock yet: it plays
    r = ask(app, hw, "sound", clock=23 * 60 + 30)
    assert r["silent"] is True and r["quiet"] == "22-7" and r["clock"] == 23 * 60 + 30
    run(app, hw, 100)
    hw.piezo.log.clear()
    assert ask(app, hw, "sound", play="buzz")["played"] is False
    assert ask(app, hw, "sound", clock=7 * 60)["silent"] is False
    assert ask(app, hw, "sound", play="buzz")["played"] is True
    for bad in ({"volume": 101}, {"quiet": "7"}, {"quiet": "25-3"}, {"clock": 1440}, {"play": "fanfare"}):
        r = ask(app, hw, "sound", **bad)
        assert r["ok"] is False and r["error"] == "bad_args", bad
    hw, app = make_app(HW())
    assert ask(app, hw, "sound") == {"id": 7, "ok": True, "piezo": False}
    assert ask(app, hw, "sound", play="click")["error"] == "not_supported"
    assert ask(app, hw, "info")["piezo"] is False


def test_a_bad_piezo_setting_is_refused_by_name():
    from pegfw.config import ConfigError, load

    for key, value, words in (("PEGBOARD_VOLUME", 120, "PEGBOARD_VOLUME must be 0..100"),
                              ("PEGBOARD_QUIET_HOURS", "late", "PEGBOARD_QUIET_HOURS must be")):
        with pytest.raises(ConfigError) as e:
            load({"PEGBOARD_ROWS": 5, key: value}.get)
        assert words in json.dumps(e.value.lines)
