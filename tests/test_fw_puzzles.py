"""Graded puzzles on the board (issue "coach", item 4): the `puzzle` request and three quick presses
of the button light the next unsolved puzzle's position to be set; once the pegs match a game
starts from it (told as that puzzle's), a win from it is kept as solved (across a power cut), and
the next one skips it; the puzzle of the day is the same for a date on every board. The main loop
on fake hardware with flash-like NVM."""

import pytest
from fakehw import HW, FlashNvm, make_app, run
from support import ask, output, stored
from test_fw_app import big_board

from pegcore.geometry import Board, start_mask
from pegcore.puzzlefile import PuzzleTable, path_for
from pegcore.solver import Solver
from pegfw.puzzles import of_day

B = Board(5)
TABLE = PuzzleTable(path_for(5), 15)
PUZZLES = [TABLE.puzzle(i) for i in range(TABLE.count)]


def board(mask=None, nvm=None):
    hw, app = make_app(HW(nvm=nvm if nvm is not None else FlashNvm()))
    hw.sensors.set(start_mask(B, 1) if mask is None else mask)
    run(app, hw, 300)
    output(hw)
    return hw, app


def events(hw, name):
    return [e for e in output(hw) if e.get("event") == name]


def set_pegs(hw, app, mask):
    """The hand sets the pegs as lit (one change a pass apart, as a hand would)."""
    now = hw.sensors.state
    for h in range(15):
        if (now ^ mask) >> h & 1:
            now ^= 1 << h
            hw.sensors.set(now)
            run(app, hw, 40)
    run(app, hw, 200)


def play(hw, app, mask, finish):
    """Play the solver's winning line from `mask` (to `finish`, 0 anywhere) by hand."""
    from test_fw_powercut import hand, show

    for j in Solver(B, finish or None).solution(mask):
        show(hw, app, hand(mask, j, (0, 2, 1)))
        mask ^= B.flip[j]
        run(app, hw, 100)


def test_a_puzzle_is_lit_set_played_won_and_kept_solved_across_a_power_cut():
    nvm = FlashNvm()
    hw, app = board(nvm=nvm)
    r = ask(app, hw, "puzzle", n=4)
    mask, finish = PUZZLES[3]
    assert r["ok"] and (r["n"], r["grade"], r["solved"], r["count"]) == (4, TABLE.grade_of(3), False, TABLE.count)
    assert r["pegs"] == [h + 1 for h in range(15) if mask >> h & 1] and r["finish"] == (finish or None)
    st = ask(app, hw, "state")
    assert st["mode"] == "setup" and st["target"] == r["pegs"]
    assert sorted(r["to_fill"] + r["to_remove"]) == [h + 1 for h in range(15) if (mask ^ start_mask(B, 1)) >> h & 1]
    set_pegs(hw, app, mask)
    new = [e for e in output(hw) if e.get("event") == "new_game"]
    assert new and new[-1]["puzzle"] == 4 and new[-1]["start"] == r["pegs"]
    play(hw, app, mask, finish)
    seen = output(hw)
    over = [e for e in seen if e.get("event") == "game_over"]
    assert over and over[-1]["pegs_left"] == 1
    assert [e["n"] for e in seen if e.get("event") == "puzzle_solved"] == [4]
    assert ask(app, hw, "stats")["puzzles_solved"] == 1
    # the power goes: the board keeps it, and the next unsolved one from its place skips it
    assert stored(nvm).is_solved(3)
    from pegfw import store_records

    store_records.compact(stored(nvm))  # and a compaction carries it over
    assert stored(nvm).is_solved(3) and not stored(nvm).is_solved(2)
    hw2, app2 = board(mask=hw.sensors.state, nvm=nvm)
    assert ask(app2, hw2, "puzzle", n=4)["solved"] is True
    app2.puzzle_at = 2
    assert ask(app2, hw2, "puzzle")["n"] == 5  # puzzle 4 (after the place, 3) is solved: the next
    app2.puzzle_at = -1
    assert ask(app2, hw2, "puzzle")["n"] == 1


def presses(hw, app, n, apart_ms):
    """n short presses (60 ms down), `apart_ms` between a release and the next press."""
    for _ in range(n):
        hw.button.set(1)
        run(app, hw, 60)
        hw.button.set(0)
        run(app, hw, apart_ms)


def test_three_quick_presses_set_up_the_next_unsolved_puzzle_and_two_still_set_a_challenge():
    hw, app = board()
    presses(hw, app, 3, 100)
    got = output(hw)
    puzzle = [e for e in got if e.get("event") == "puzzle"]
    assert len(puzzle) == 1 and puzzle[0]["n"] == 1
    assert ask(app, hw, "state")["target"] == puzzle[0]["pegs"]
    # slow presses are hints, never a puzzle
    hw, app = board()
    presses(hw, app, 3, 600)
    got = output(hw)
    assert not [e for e in got if e.get("event") == "puzzle"] and len([e for e in got if e.get("event") == "hint"]) == 3


def test_three_more_quick_presses_set_up_a_puzzle_again():
    """Six quick presses are two threes (a count starts again after three), never a fourth press."""
    hw, app = board()
    presses(hw, app, 6, 100)
    assert len([e for e in output(hw) if e.get("event") == "puzzle"]) == 2


def test_the_puzzle_of_the_day_and_a_grade_are_what_the_table_says():
    hw, app = board()
    for day in (0, 1, 20000, 20421):
        r = ask(app, hw, "puzzle", day=day)
        assert r["n"] == of_day(TABLE, day) + 1
        assert r["grade"] == 1 + day % TABLE.grades
    days = {of_day(TABLE, d) for d in range(TABLE.count * TABLE.grades)}
    assert len(days) == TABLE.count  # every puzzle comes round
    for g in range(1, TABLE.grades + 1):
        r = ask(app, hw, "puzzle", grade=g)
        assert r["grade"] == g and r["n"] - 1 in TABLE.of_grade(g)
    for bad in ({"grade": 0}, {"grade": TABLE.grades + 1}, {"n": 0}, {"n": TABLE.count + 1}, {"day": -1},
                {"n": True}, {"grade": "2"}):
        r = ask(app, hw, "puzzle", **bad)
        assert r["error"] == "bad_args", (bad, r)


@pytest.mark.parametrize("rows", [6, 7])
def test_21_holes_have_puzzles_and_28_say_they_have_none(rows):
    hw, app = big_board(rows)
    run(app, hw, 300)
    r = ask(app, hw, "puzzle", grade=1)
    if rows == 6:
        t6 = PuzzleTable(path_for(6), 21)
        assert r["ok"] and r["grades"] == t6.grades and r["n"] - 1 in t6.of_grade(1)
    else:
        assert r["error"] == "not_supported" and "28-hole" in r["message"]
