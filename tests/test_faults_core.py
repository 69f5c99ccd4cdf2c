"""Regression tests for faults the rest of the suite let through, each named by what a player or a
caller sees: a move list with an illegal step refused (pegcore.moves), the step-wise search for
the "watch the solver" show honouring a finish hole (pegcore.search.steps), the reverse game's
search on boards without tables taking a dead end with more pegs than asked (LeaveSearch with
at_least), and the tracker (pegfw.tracker) remembering three tried starts, leaving a jumpless
`setup` position in free play, and keeping a finish in the last hole. The core tests are plain
function calls (milliseconds); the firmware's run the App's real main loop on fake hardware."""

import json
from pathlib import Path

import pytest
from fakehw import FlashNvm, HW, make_app, run
from support import ask, output

from pegcore import search
from pegcore import targets as T
from pegcore.geometry import Board, start_mask
from pegcore.hintfile import load
from pegcore.moves import MoveError, validate_moves
from pegcore.rules import has_move, holes_of, legal_jumps, mask_of, popcount
from pegcore.solver import Solver
from pegfw.tracker import Tracker

B = Board(5)
HINTS = str(Path(__file__).resolve().parent.parent / "firmware" / "pegcore" / "t5_hints.bin")


def replay(board, mask, jumps):
    """The position after `jumps` from `mask`, each checked legal where it is made."""
    for j in jumps:
        assert j in legal_jumps(board, mask), (holes_of(mask), board.move_of(j))
        mask ^= board.flip[j]
    return mask


# -- pegcore.moves: an uploaded move list -------------------------------------------------------
def test_a_move_list_is_refused_at_a_jump_into_a_peg_or_over_a_hole():
    """Every jump of the board, tried as the next step at each position of a game: the move list
    is accepted exactly when the rules allow that jump there, else the step is named."""
    mask = start_mask(B, 1)
    played = []
    for j in Solver(B).solution(mask):
        legal = legal_jumps(B, mask)
        for k in range(len(B.need)):
            moves = [B.move_of(i) for i in played] + [B.move_of(k)]
            if k in legal:
                final, jumps = validate_moves(B, start_mask(B, 1), moves)
                assert jumps == played + [k] and final == mask ^ B.flip[k]
            else:
                with pytest.raises(MoveError) as e:
                    validate_moves(B, start_mask(B, 1), moves)
                assert e.value.step == len(played), (holes_of(mask), B.move_of(k))
                assert "not legal here" in e.value.why
        played.append(j)
        mask ^= B.flip[j]
    # the two ways a jump can be wrong, by name: into a peg (4 is full at the start), and over a
    # hole (after 4 over 2 into 1, hole 2 is empty and 4 free)
    with pytest.raises(MoveError) as e:
        validate_moves(B, start_mask(B, 1), [[11, 7, 4]])
    assert e.value.step == 0
    with pytest.raises(MoveError) as e:
        validate_moves(B, start_mask(B, 1), [[4, 2, 1], [1, 2, 4]])
    assert e.value.step == 1


# -- pegcore.search.steps: the "watch the solver" search with a finish hole ---------------------
def test_the_step_wise_search_ends_in_the_finish_hole_it_was_given():
    start = start_mask(B, 1)
    plain = [m for kind, _j, m, _s in search.steps(B, start) if kind == search.SOLVED]
    finishes = [f for f in range(1, B.holes + 1) if Solver(B, finish=f).solution(start) is not None]
    # a test only where the finish matters: some reachable finish hole is not where the plain search ends
    assert [f for f in finishes if 1 << (f - 1) != plain[0]]
    for f in finishes:
        stack = [start]
        last = None
        for kind, j, m, _step in search.steps(B, start, finish=f):
            if kind == search.TRY:
                stack.append(replay(B, stack[-1], [j]))
            elif kind == search.BACK:
                stack.pop()
            last = kind, m
        assert last == (search.SOLVED, 1 << (f - 1)), (f, last)
        assert stack[-1] == 1 << (f - 1)


# -- pegcore.search.LeaveSearch(at_least=True): the reverse game without tables -----------------
def test_the_reverse_game_without_tables_takes_a_dead_end_with_more_pegs_than_asked():
    """(MOST, n) is met by a dead end with n pegs or more. Searched as on the boards without tables
    (Targets(board)), checked against the 15-hole ends table: from every start and every n up to
    the most a dead end can hold there is a line, also where no dead end holds exactly n."""
    tables = T.open_tables(B, load(B, HINTS))
    bare = T.Targets(B)
    more_only = 0
    try:
        for e in range(1, B.holes + 1):
            start = start_mask(B, e)
            most = tables.ends.most(start)
            for n in range(1, most + 2):
                line = bare.line((T.MOST, n), start)
                if n > most:
                    assert line is None, (e, n)
                    continue
                assert line is not None, (e, n)
                end = replay(B, start, line)
                assert not has_move(B, end) and popcount(end) >= n
                assert bare.met((T.MOST, n), end) is True
                more_only += not tables.ends.can_leave(start, n)
    finally:
        tables.close()
    assert more_only  # some (start, n) had no dead end of exactly n pegs: the "or more" was needed


# -- pegfw.tracker: starts tried by hand before the first move ----------------------------------
def test_a_move_from_the_oldest_of_three_tried_starts_starts_its_game():
    """Before the first move the player tries other empty holes (a peg into the empty hole, one
    out next to it: half a jump to the board). The board remembers the last three such starts: a
    jump made from the first of the three starts that start's game, and the move is followed."""
    t = Tracker(B)
    t.reset(0)
    first = start_mask(B, 1)
    assert ("new_game", 1, first) in t.sense(first)
    # the holes next to 1 that a jump into 1 lifts from: each tried as the empty hole
    into_1 = [j for j in legal_jumps(B, first) if B.jump_to[j] == 0]
    tried = []
    for j in into_1:
        for h in (B.jump_from[j] + 1, B.jump_over[j] + 1):
            if len(tried) < 3:
                tried.append(h)
    assert len(tried) == 3
    seen = []
    for h in tried:
        seen += t.sense(B.full)  # the peg put back: the board full
        seen += t.sense(start_mask(B, h))  # this hole lifted: the start tried
    assert not [e for e in seen if e[0] in ("new_game", "move", "illegal")], seen
    assert t.start == first
    # the last try's peg put back (the board full), then a jump into the first hole tried, as if
    # it were empty: its jumper lifted, its jumped peg pulled
    oldest = tried[0]
    j = next(k for k in legal_jumps(B, start_mask(B, oldest)) if B.jump_to[k] == oldest - 1)
    mask = start_mask(B, oldest)
    seen = t.sense(B.full)
    for hole in (B.jump_from[j], B.jump_over[j]):
        mask &= ~(1 << hole)
        seen += t.sense(mask | 1 << (oldest - 1))
    assert ("new_game", oldest, start_mask(B, oldest)) in seen, seen
    assert ("move", j, popcount(start_mask(B, oldest)) - 1) in seen, seen
    assert t.start == start_mask(B, oldest) and t.moves == [j] and t.mode == "play"


# -- the App on fake hardware --------------------------------------------------------------------
def fresh():
    hw, app = make_app(HW(nvm=FlashNvm()))
    run(app, hw, 200)
    output(hw)
    return hw, app


def sense(app, hw, mask, ms=40):
    hw.sensors.set(mask)
    run(app, hw, ms)


def events(hw, name):
    return [e for e in output(hw) if e.get("event") == name]


def request(app, hw, cmd, **args):
    """A request's reply and the events that came with it (support.ask drops the events)."""
    hw.serial.rx += (json.dumps(dict(id=1, cmd=cmd, **args)) + "\n").encode()
    run(app, hw, 20)
    out = output(hw)
    return [r for r in out if "event" not in r][0], [e for e in out if "event" in e]


def test_setup_of_a_position_with_no_jump_stays_free_play():
    """`setup` of pegs no jump can be made from: once they are set the board says so
    (setup_done) but starts no game (nothing to score); the pegs stay free play."""
    hw, app = fresh()
    pegs = [1, B.holes]
    assert not has_move(B, mask_of(pegs))
    r = ask(app, hw, "setup", pegs=pegs)
    assert r["ok"] and r["to_fill"] == pegs and not r["done"]
    mask = 0
    seen = []
    for h in pegs:
        mask |= 1 << (h - 1)
        sense(app, hw, mask)
        seen += [e for e in output(hw) if "event" in e]
    names = [e["event"] for e in seen]
    assert "setup_done" in names and "new_game" not in names, names
    st = ask(app, hw, "state")
    assert st["mode"] == "setup" and st["start"] is None and st["target"] is None and st["pegs"] == pegs


def test_a_finish_in_the_last_hole_is_kept_and_judged():
    """`play` with the board's last hole as the finish: the game has that finish (state, new_game)
    and its game over says the last peg ended there."""
    hw, app = fresh()
    last = B.holes
    line = start = None
    for e in range(1, B.holes + 1):
        line = Solver(B, finish=last).solution(start_mask(B, e))
        if line:
            start = start_mask(B, e)
            break
    assert line, "some start can end in the last hole"
    sense(app, hw, start, 200)
    output(hw)
    r, seen = request(app, hw, "play", finish=last)
    assert r["ok"] and r["finish"] == last
    assert [e.get("finish") for e in seen if e["event"] == "new_game"] == [last]
    assert ask(app, hw, "state")["finish"] == last
    mask = start
    for j in line:
        for hole in (B.jump_from[j], B.jump_to[j], B.jump_over[j]):
            mask ^= 1 << hole
            sense(app, hw, mask)
    assert mask == 1 << (last - 1)
    over = events(hw, "game_over")
    assert len(over) == 1 and over[0]["pegs_left"] == 1 and over[0]["in_finish"] is True, over


# -- pegcore.hintfile: a damaged table refused at start-up --------------------------------------

@pytest.mark.parametrize("k", [1 << 14, (1 << 14) + 1])
def test_a_hint_table_whose_hash_multiplier_is_out_of_range_is_refused(k):
    import io

    from pegcore.hintfile import read

    data = bytearray(Path(HINTS).read_bytes())
    read(B, io.BytesIO(bytes(data)))  # the table as made loads
    for at in (12, 14):  # k1, then k2: each must stay under 2**14
        bad = bytearray(data)
        bad[at], bad[at + 1] = k & 0xFF, k >> 8
        with pytest.raises(ValueError, match="corrupt"):
            read(B, io.BytesIO(bytes(bad)))
