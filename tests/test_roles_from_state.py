"""Every view takes each hole's role from the board's state, never back from the LEDs' colours
(issue "welcome"): on the firmware's main loop, at each moment of a game (a peg lifted, where it
may land, a jump half done, an illegal placement, a hint, the guide, a position being set, a
demonstration, the solver's search) the role the terminal UI reads from the `state` reply is the
role of the colour the firmware lights in that hole; through the game-over celebration the roles
are the true pegs. The page's port (static/roles.js) reads the same states the same way: test_page_twins."""

import json
from pathlib import Path

from fakehw import HW, make_app, run
from support import output

from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver
from pegfw import colors, commands
from pegboard.tui.roles import hole_role

B = Board(5)
ROLES_JS = Path(__file__).resolve().parent.parent / "host" / "pegboard" / "web" / "static" / "roles.js"
# what each colour of pegfw.colors means (the hole dark for a lifted peg: "lifted" or "empty")
COLOUR_ROLE = {colors.EMPTY: "empty", colors.OFF: "empty", colors.PEG: "peg", colors.SETUP: "peg",
               colors.LANDING: "landing", colors.TRY: "landing", colors.PENDING: "pull", colors.ERROR: "illegal",
               colors.LOST: "illegal", colors.BACK: "illegal", colors.HINT_FROM: "from", colors.HINT_OVER: "over",
               colors.HINT_TO: "to", colors.DEMO: "demo"}


def state(app, hw):
    return json.loads(json.dumps(commands.cmd_state(app, None, {}, hw.ticks_ms())))


def lit_roles(app, hw, st):
    frame = app._frame(hw.ticks_ms())  # before the brightness: the colours as pegfw.colors names them
    out = []
    for h, c in enumerate(frame, 1):
        role = COLOUR_ROLE[c]
        out.append("lifted" if role == "empty" and st.get("lifted") == h else role)
    return out


def check(app, hw, seen):
    st = state(app, hw)
    assert [hole_role(h, st) for h in range(1, 16)] == lit_roles(app, hw, st), st
    seen.append(st)


def toggle(hw, hole):
    hw.sensors.set(hw.sensors.state ^ (1 << (hole - 1)))


def every_moment():
    """The states of a game's every kind of moment, each checked against the lights."""
    seen = []
    hw, app = make_app(HW())
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 200)
    check(app, hw, seen)
    toggle(hw, 4)  # lifted: where it may land
    run(app, hw, 30)
    check(app, hw, seen)
    toggle(hw, 1)  # landed: the jumped peg to pull out
    run(app, hw, 30)
    check(app, hw, seen)
    toggle(hw, 2)
    run(app, hw, 30)
    toggle(hw, 2)  # a peg put where none may be: illegal
    run(app, hw, 30)
    check(app, hw, seen)
    toggle(hw, 2)
    run(app, hw, 30)
    hw.serial.rx += b'{"cmd": "hint"}\n'
    run(app, hw, 30)
    check(app, hw, seen)
    assert seen[-1]["show"]["kind"] == "hint"
    hw.serial.rx += b"stop\n"
    run(app, hw, 30)
    line = [B.move_of(j) for j in Solver(B).solution(hw.sensors.state)]
    hw.serial.rx += (json.dumps({"cmd": "guide", "moves": line}) + "\n").encode()
    run(app, hw, 30)
    check(app, hw, seen)
    assert seen[-1]["show"]["kind"] == "guide"
    from pegcore.rules import legal_jumps

    pos = hw.sensors.state
    other = [j for j in legal_jumps(B, pos) if B.move_of(j) != line[0]][0]
    for hole in (B.jump_from[other], B.jump_to[other], B.jump_over[other]):  # off the guide's line
        toggle(hw, hole + 1)
        run(app, hw, 30)
    check(app, hw, seen)  # lit to be put back: the two to fill, the landed peg to take out
    assert seen[-1]["show"]["put_back"]
    for hole in (B.jump_to[other], B.jump_from[other], B.jump_over[other]):  # put back
        toggle(hw, hole + 1)
        run(app, hw, 30)
    hw.serial.rx += b"stop\n"
    hw.serial.rx += b'{"cmd": "demo", "moves": %s}\n' % json.dumps(line[:3]).encode()
    for _ in range(12):  # through its steps: each jump lit, then its result
        run(app, hw, 300)
        check(app, hw, seen)
    hw.serial.rx += b'stop\n{"cmd": "watch", "speed": 50}\n'
    for _ in range(8):
        run(app, hw, 120)
        check(app, hw, seen)
    hw.serial.rx += b'stop\n{"cmd": "setup", "pegs": [2, 4, 5, 7]}\n'  # a position to set by hand
    run(app, hw, 60)
    check(app, hw, seen)
    hw.serial.rx += b"stop\n"  # a lost game (2 over 5 into 9 leaves 3, 4, 9), then its review
    hw.sensors.set(0b11110)
    run(app, hw, 700)
    hw.serial.rx += b"play\n"
    run(app, hw, 50)
    for hole in (2, 9, 5):
        toggle(hw, hole)
        run(app, hw, 30)
    hw.serial.rx += b'{"cmd": "review"}\n'
    run(app, hw, 30)
    check(app, hw, seen)  # the move that lost the win
    assert seen[-1]["show"]["kind"] == "review" and seen[-1]["show"]["lost"]
    run(app, hw, 1500)
    check(app, hw, seen)  # one that would have kept it
    assert seen[-1]["show"]["kind"] == "review" and not seen[-1]["show"]["lost"]
    output(hw)
    return hw, app, seen


def test_the_roles_read_from_the_state_are_the_roles_the_lights_show():
    _, _, seen = every_moment()
    kinds = {(s.get("show") or {}).get("kind") for s in seen}
    assert {None, "hint", "guide", "demo", "watch", "review"} <= kinds
    roles = {hole_role(h, s) for s in seen for h in range(1, 16)}
    assert roles == {"empty", "peg", "lifted", "landing", "pull", "illegal", "from", "over", "to", "demo"}


def test_the_celebration_shows_the_true_pegs():
    """Two pegs, the winning jump: the rainbow lights every hole; the views show one peg."""
    hw, app = make_app(HW())
    hw.sensors.set(0b11)  # pegs in 1 and 2 (free play), then a game from them
    run(app, hw, 700)
    hw.serial.rx += b"play\n"
    run(app, hw, 50)
    for hole in (1, 4, 2):  # 1 over 2 into 4
        toggle(hw, hole)
        run(app, hw, 30)
    run(app, hw, 100)
    st = state(app, hw)
    assert st["mode"] == "over" and st["show"]["kind"] == "over"
    assert sum(1 for c in app._frame(hw.ticks_ms()) if c != colors.EMPTY) > 1  # the rainbow
    assert [h for h in range(1, 16) if hole_role(h, st) == "peg"] == [4]
    assert {hole_role(h, st) for h in range(1, 16)} == {"peg", "empty"}
