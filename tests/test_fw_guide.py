"""A guide that forgives (issue "coach", item 3): a different move is lit to be put back and
guidance goes on; a player who plays on instead is followed with a new line from there (said when
none ends with one peg); an undo steps the guidance back; it ends only when its line is played
out, the game ends, or stop. On 15 holes with the hint table, and on 21 by the sliced search.
Checked against an independent search, not the board's tables."""

import random

from fakehw import FlashNvm, run
from support import ask, output
from test_fw_app import big_board
from test_fw_review import winnable
from test_fw_scored import Hands

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps
from pegcore.solver import Solver

B = Board(5)


def guided(h, board=B, empty=1):
    h.set(start_mask(board, empty))
    h.run(300)
    line = Solver(board).solution(start_mask(board, empty))
    r = ask(h.app, h.hw, "guide", moves=[board.move_of(j) for j in line])
    assert r["ok"]
    output(h.hw)
    return line


def lit(h):
    show = ask(h.app, h.hw, "state")["show"]
    assert show["kind"] == "guide"
    return show


def events(h, name):
    return [e for e in output(h.hw) if e.get("event") == name]


def test_a_different_move_is_lit_to_be_put_back_and_guidance_goes_on():
    h = Hands(FlashNvm())
    line = guided(h)
    h.jump(line[0])
    h.run(50)
    other = [j for j in legal_jumps(B, h.mask) if j != line[1]][0]
    h.jump(other)
    h.run(50)
    ev = output(h.hw)
    assert [e["move"] for e in ev if e.get("event") == "guide_astray"] == [B.move_of(other)]
    assert not [e for e in ev if e.get("event") == "guide_off"]
    show = lit(h)
    assert show["put_back"] and show["move"] == B.move_of(other)
    frame = h.hw.frames[-1]
    f, o, t = B.move_of(other)
    assert frame[f - 1] == frame[o - 1] != frame[t - 1]  # fill the two, take the landed one out
    h.jump(other, back=True)  # put back: the guided move is lit again
    h.run(50)
    assert [e["step"] for e in events(h, "guide_back")] == [1]
    show = lit(h)
    assert not show["put_back"] and show["move"] == B.move_of(line[1])
    for j in line[1:]:  # and the rest of the line, to its end
        h.jump(j)
        h.run(50)
    ev = output(h.hw)
    assert [e["reason"] for e in ev if e.get("event") == "guide_off"] == ["done"]


def test_an_undo_steps_the_guidance_back():
    h = Hands(FlashNvm())
    line = guided(h)
    for j in line[:3]:
        h.jump(j)
        h.run(50)
    output(h.hw)
    h.jump(line[2], back=True)
    h.run(50)
    assert [e["step"] for e in events(h, "guide_back")] == [2]
    assert lit(h)["move"] == B.move_of(line[2]) and ask(h.app, h.hw, "state")["mode"] == "guide"


def test_playing_on_is_followed_with_a_new_line_from_there_to_the_end():
    rnd = random.Random(1)
    followed = 0
    for _ in range(6):
        h = Hands(FlashNvm())
        line = guided(h, empty=rnd.choice([1, 4, 5, 13]))
        h.jump(line[0])
        h.run(50)
        off = rnd.choice([j for j in legal_jumps(B, h.mask) if j != line[1]])
        h.jump(off)  # off the line ...
        h.run(50)
        if not legal_jumps(B, h.mask):
            continue
        h.jump(rnd.choice(legal_jumps(B, h.mask)))  # ... and on past it
        h.run(50)
        new = events(h, "guide_line")
        if not legal_jumps(B, h.mask):
            continue
        assert new and new[-1]["solvable"] == winnable(B, h.mask), (new, h.mask)
        # the new line is legal from here and the guide lights its first move
        show = lit(h)
        assert not show["put_back"] and show["move"] == new[-1]["moves"][0]
        while legal_jumps(B, h.mask):  # follow it to the game's end
            f, o, t = lit(h)["move"]
            j = [k for k in legal_jumps(B, h.mask) if B.move_of(k) == [f, o, t]][0]
            h.jump(j)
            h.run(50)
        ends = [e["reason"] for e in output(h.hw) if e.get("event") == "guide_off"]
        assert ends == ["done"], ends  # the new line played out: the game's last move
        followed += 1
    assert followed >= 3, "most of the games had a new line to follow"


def test_on_21_holes_the_new_line_comes_from_the_sliced_search():
    board = Board(6)
    hw, app = big_board(6)
    mask = start_mask(board, 1)
    hw.sensors.set(mask)
    run(app, hw, 300)
    line = Solver(board).solution(mask)
    assert ask(app, hw, "guide", moves=[board.move_of(j) for j in line])["ok"]

    def jump(j):
        nonlocal mask
        for hole in (board.jump_from[j], board.jump_to[j], board.jump_over[j]):
            mask ^= 1 << hole
            hw.sensors.set(mask)
            run(app, hw, 30)

    jump(line[0])
    others = [j for j in legal_jumps(board, mask) if j != line[1]]
    jump(others[0])
    j2 = [j for j in legal_jumps(board, mask)][0]
    jump(j2)
    for _ in range(400):
        run(app, hw, 20)
        new = [e for e in output(hw) if e.get("event") == "guide_line"]
        if new:
            break
    assert new, "a new line from the sliced search"
    assert new[-1]["solvable"] == winnable(board, mask)
    if new[-1]["solvable"]:
        m = mask
        for f, o, t in new[-1]["moves"]:
            j = [k for k in legal_jumps(board, m) if board.move_of(k) == [f, o, t]][0]
            m ^= board.flip[j]
        assert bin(m).count("1") == 1
