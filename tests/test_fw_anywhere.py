"""Any position a hand sets (issue "anywhere"): game boundaries the hands make (refills for any
start after a game of any length, an emptied board ending the game), free play in setup, `play`
from here, `setup` (the board asks for a position) and their NVM records, on the firmware's real
main loop with fake hardware. The same scenarios on the simulated board (chip VM) are in
test_e2e_anywhere.py."""

import pytest
from fakehw import FlashNvm, HW, make_app, run
from support import ask, output

from pegcore.geometry import Board, start_mask
from pegcore.rules import holes_of, legal_jumps, mask_of
from pegcore.solver import Solver
from pegfw import colors
from pegfw.app import EMPTY_SETTLE_MS, PLAY_PRESS_MS

B = Board(5)
SOLVER = Solver(B)


def sense(app, hw, mask, ms=40):
    hw.sensors.set(mask)
    run(app, hw, ms)


def jump(app, hw, mask, j, order=(0, 2, 1)):
    """Jump j by hand: lift the jumper, place it, pull the jumped peg (in `order`)."""
    steps = [1 << B.jump_from[j], 1 << B.jump_to[j], 1 << B.jump_over[j]]
    for k in order:
        mask ^= steps[k]
        sense(app, hw, mask)
    return mask


def empty_board(app, hw, mask):
    """Take every peg off, one at a time, and leave the board empty past the settle time."""
    for h in holes_of(mask):
        mask &= ~(1 << (h - 1))
        sense(app, hw, mask, 30)
    run(app, hw, EMPTY_SETTLE_MS + 100)
    return 0


def events(hw, name=None):
    out = [e for e in output(hw) if "event" in e]
    return out if name is None else [e for e in out if e["event"] == name]


def request(app, hw, cmd, **args):
    """A request's reply and the events that came with it."""
    import json

    hw.serial.rx += (json.dumps(dict(id=1, cmd=cmd, **args)) + "\n").encode()
    run(app, hw, 20)
    out = output(hw)
    return [r for r in out if "event" not in r][0], [e for e in out if "event" in e]


def fresh(nvm=None):
    hw, app = make_app(HW(nvm=nvm if nvm is not None else FlashNvm()))
    run(app, hw, 200)
    return hw, app


def game_moves(empty, n, seed=0):
    """n legal jumps from start `empty` (the solver's line while it lasts, then any legal jump)."""
    mask = start_mask(B, empty)
    line = SOLVER.solution(mask) or []
    out = []
    for k in range(n):
        legal = legal_jumps(B, mask)
        if not legal:
            break
        j = line[k] if k < len(line) and line[k] in legal else legal[(seed + k) % len(legal)]
        out.append(j)
        mask ^= B.flip[j]
    return out, mask


@pytest.mark.parametrize("played", [0, 1, 2, 5, 13])
def test_a_refill_for_any_other_start_after_a_game_starts_it(played):
    """After a game of 0-13 moves, the board cleared and filled for another start (a hole at a
    time, as hands do) gives new_game for that start, and its first move is followed."""
    for old in (1, 3, 4, 6, 13):
        hw, app = fresh()
        mask = start_mask(B, old)
        sense(app, hw, mask, 200)
        jumps, _ = game_moves(old, played)
        for j in jumps:
            mask = jump(app, hw, mask, j)
        for new in range(1, 16):
            if new == old:
                continue
            h2, a2 = hw, app
            m = empty_board(a2, h2, mask)
            events(h2)
            for h in range(1, 16):
                if h != new:
                    m |= 1 << (h - 1)
                    sense(a2, h2, m, 30)
            news = events(h2, "new_game")
            assert [e["empty"] for e in news] == [new], (old, played, new, news)
            first = legal_jumps(B, m)[0]
            m = jump(a2, h2, m, first)
            assert [e["move"] for e in events(h2, "move")] == [B.move_of(first)], (old, played, new)
            st = ask(a2, h2, "state")
            assert st["empty_start"] == new and st["moves"] == [B.move_of(first)]
            mask = m
            break  # one new start per old game here; test_refill_without_clearing covers every pair


@pytest.mark.parametrize("old", range(1, 16))
def test_refill_without_clearing_for_every_start(old):
    """The issue's cases: after a game (two moves here), pegs put back until every hole but
    another is filled starts that game (not an undo, not an old-game illegal)."""
    jumps, _ = game_moves(old, 2)
    for new in range(1, 16):
        hw, app = fresh()
        mask = start_mask(B, old)
        sense(app, hw, mask, 200)
        for j in jumps:
            mask = jump(app, hw, mask, j)
        events(hw)
        target = start_mask(B, new)
        for h in holes_of(mask & ~target):  # take out what the new start lacks ...
            mask &= ~(1 << (h - 1))
            sense(app, hw, mask, 30)
        for h in holes_of(target & ~mask):  # ... and fill the rest
            mask |= 1 << (h - 1)
            sense(app, hw, mask, 30)
        st = ask(app, hw, "state")
        if st["empty_start"] != new:  # the refill was also an undo in progress: settled by the move
            assert st["empty_start"] == old, (old, new, st)
        first = legal_jumps(B, mask)[-1]
        mask = jump(app, hw, mask, first)
        st = ask(app, hw, "state")
        assert st["empty_start"] == new and st["moves"] == [B.move_of(first)], (old, new, st)
        assert st["mode"] == "play"


def test_the_issues_refill_cases():
    """Fill for 3, 8 over 5 into 3, clear, fill for 6: a new game whose 13 over 9 into 6 is
    followed. Start 4, 1-2-4, 7-4-2, fill for 1: 6 over 3 into 1 is that game's first move."""
    hw, app = fresh()
    mask = start_mask(B, 3)
    sense(app, hw, mask, 200)
    mask = jump(app, hw, mask, B.find_jump(8, 5, 3))
    mask = empty_board(app, hw, mask)
    sense(app, hw, start_mask(B, 6), 100)
    mask = jump(app, hw, start_mask(B, 6), B.find_jump(13, 9, 6))
    st = ask(app, hw, "state")
    assert st["empty_start"] == 6 and st["moves"] == [[13, 9, 6]]

    hw, app = fresh()
    mask = start_mask(B, 4)
    sense(app, hw, mask, 200)
    mask = jump(app, hw, mask, B.find_jump(1, 2, 4))
    mask = jump(app, hw, mask, B.find_jump(7, 4, 2))
    for h in (4, 7):
        mask |= 1 << (h - 1)
        sense(app, hw, mask)
    mask = jump(app, hw, mask, B.find_jump(6, 3, 1))
    seen = events(hw)
    assert not [e for e in seen if e["event"] == "illegal"], seen
    st = ask(app, hw, "state")
    assert st["empty_start"] == 1 and st["moves"] == [[6, 3, 1]]


def test_putting_a_move_back_is_still_an_undo():
    """Undo of the second move by putting both pegs back first passes through a full board less
    one: it stays an undo, no new game."""
    hw, app = fresh()
    mask = start_mask(B, 1)
    sense(app, hw, mask, 200)
    jumps, _ = game_moves(1, 2)
    for j in jumps:
        mask = jump(app, hw, mask, j)
    events(hw)
    j = jumps[-1]
    for bit in (1 << B.jump_over[j], 1 << B.jump_from[j], 1 << B.jump_to[j]):
        mask ^= bit
        sense(app, hw, mask)
    seen = events(hw)
    assert [e["event"] for e in seen if e["event"] in ("undo", "new_game")] == ["undo"], seen
    st = ask(app, hw, "state")
    assert st["moves"] == [B.move_of(jumps[0])] and st["empty_start"] == 1


def test_an_emptied_board_ends_the_game_and_hand_set_pegs_get_true_hints():
    nvm = FlashNvm()
    hw, app = fresh(nvm)
    mask = start_mask(B, 1)
    sense(app, hw, mask, 200)
    for j in game_moves(1, 4)[0]:
        mask = jump(app, hw, mask, j)
    mask = empty_board(app, hw, mask)
    seen = events(hw)
    assert [e for e in seen if e["event"] == "setup"] == [{"event": "setup", "seq": seen[-1]["seq"],
                                                           "reason": "emptied"}], seen
    st = ask(app, hw, "state")
    assert st["mode"] == "setup" and st["position"] == [] and st["start"] is None
    assert ask(app, hw, "stats")["abandoned"] == 1
    pegs = [2, 4, 5, 7, 9, 12, 13]
    for h in pegs:
        mask |= 1 << (h - 1)
        sense(app, hw, mask, 30)
    st = ask(app, hw, "state")
    assert st["mode"] == "setup" and st["position"] == pegs
    r = ask(app, hw, "hint")
    assert r["move"] is not None and B.find_jump(*r["move"]) in legal_jumps(B, mask)
    assert r["solvable"] == bool(SOLVER.solution(mask)) == st["solvable"]
    # a power cycle: the board comes back in setup, the saved game gone
    hw2 = HW(nvm=nvm)
    hw2.sensors.state = mask
    hw2, app2 = make_app(hw2)
    run(app2, hw2, 200)
    st = ask(app2, hw2, "state")
    assert st["mode"] == "setup" and st["position"] == pegs
    assert not [e for e in events(hw2) if e["event"] in ("resumed", "move", "new_game")]


def test_the_last_jump_in_the_hand_is_not_an_abandoned_game():
    """Two pegs left with a jump between them: both in the hand for a long time is that jump."""
    hw, app = fresh()
    mask = start_mask(B, 1)
    sense(app, hw, mask, 200)
    line = SOLVER.solution(mask)
    for j in line[:-1]:
        mask = jump(app, hw, mask, j)
    last = line[-1]
    mask &= ~(1 << B.jump_from[last])
    sense(app, hw, mask)
    mask &= ~(1 << B.jump_over[last])
    sense(app, hw, mask)
    run(app, hw, 5000)  # a slow player
    assert ask(app, hw, "state")["mode"] == "play"
    sense(app, hw, 1 << B.jump_to[last])
    seen = events(hw)
    assert [e["event"] for e in seen if e["event"] in ("move", "game_over", "setup")] == ["move", "game_over"]
    assert ask(app, hw, "stats")["wins"] == 1


def test_after_game_over_a_new_picture_is_setup():
    hw, app = fresh()
    mask = start_mask(B, 1)
    sense(app, hw, mask, 200)
    for j in SOLVER.solution(mask):
        mask = jump(app, hw, mask, j)
    assert ask(app, hw, "state")["mode"] == "over"
    other = next(h for h in range(1, 16) if not mask >> (h - 1) & 1)
    sense(app, hw, mask | 1 << (other - 1))
    st = ask(app, hw, "state")
    assert st["mode"] == "setup" and st["illegal"] == [] and len(st["position"]) == 2
    assert ask(app, hw, "stats")["abandoned"] == 0  # the game was finished and scored


def test_play_from_a_hand_set_position_resumes_after_a_power_cut_and_ends():
    nvm = FlashNvm()
    hw, app = fresh(nvm)
    pegs = [2, 4, 5, 7, 9, 12, 13, 14]
    mask = mask_of(pegs)
    sense(app, hw, mask, 200)
    assert ask(app, hw, "state")["mode"] == "setup"
    r, seen = request(app, hw, "play")
    assert r["ok"] and r["start"] == pegs and r["empty"] is None
    assert [e["start"] for e in seen if e["event"] == "new_game"] == [pegs]
    line = SOLVER.solution(mask) or []
    jumps = line if line else [legal_jumps(B, mask)[0]]
    mask = jump(app, hw, mask, jumps[0])
    # an illegal placement, flagged, then put right
    t = app.tracker
    bad = next(h for h in range(1, 16) if not mask >> (h - 1) & 1
               and t.fit(mask, mask | 1 << (h - 1), t.previous()) == 3)  # no jump or undo explains it
    sense(app, hw, mask | 1 << (bad - 1))
    assert ask(app, hw, "state")["illegal"] == [bad]
    sense(app, hw, mask)
    assert ask(app, hw, "state")["mode"] == "play"
    # power cut: the hand-set game comes back with its move
    hw2 = HW(nvm=nvm)
    hw2.sensors.state = mask
    hw2, app2 = make_app(hw2)
    run(app2, hw2, 300)
    seen = events(hw2)
    assert [e["start"] for e in seen if e["event"] == "resumed"] == [pegs], seen
    st = ask(app2, hw2, "state")
    assert st["start"] == pegs and st["moves"] == [B.move_of(jumps[0])] and st["mode"] == "play"
    while legal_jumps(B, mask):
        mask = jump(app2, hw2, mask, SOLVER.hint(mask)[0] if SOLVER.hint(mask)[0] >= 0 else legal_jumps(B, mask)[0])
    over = events(hw2, "game_over")
    assert len(over) == 1 and over[0]["pegs_left"] == len(holes_of(mask))
    assert ask(app2, hw2, "stats")["games"] == 1


def test_play_with_a_finish_says_whether_the_last_peg_ended_there():
    hw, app = fresh()
    mask = start_mask(B, 1)
    r = None
    sense(app, hw, mask, 200)
    line = SOLVER.solution(mask)
    for j in line[:-3]:
        mask = jump(app, hw, mask, j)
    end = mask
    for j in line[-3:]:
        end ^= B.flip[j]
    finish = holes_of(end)[0]
    r = ask(app, hw, "play", finish=finish)
    assert r["finish"] == finish and ask(app, hw, "state")["finish"] == finish
    for j in line[-3:]:
        mask = jump(app, hw, mask, j)
    assert events(hw, "game_over")[0]["in_finish"] is True


def test_play_refuses_pegs_with_no_jump_and_bad_finish():
    hw, app = fresh()
    sense(app, hw, mask_of([1, 15]), 200)
    r = ask(app, hw, "play")
    assert not r["ok"] and r["error"] == "not_solvable"
    assert not ask(app, hw, "play", finish=16)["ok"]
    assert ask(app, hw, "state")["mode"] == "setup"


def test_the_button_held_three_seconds_plays_from_here():
    hw, app = fresh()
    pegs = mask_of([4, 5, 13])
    sense(app, hw, pegs, 200)
    hw.button.set(1)
    run(app, hw, PLAY_PRESS_MS - 100)
    green = app.limiter.limit([colors.LANDING])[0]
    assert hw.frames[-1][3] != green  # not yet
    run(app, hw, 200)
    assert [hw.frames[-1][h - 1] == green for h in (4, 5, 13)] == [True] * 3  # held long enough: release to play
    hw.button.set(0)
    run(app, hw, 50)
    assert [e["start"] for e in events(hw, "new_game")] == [[4, 5, 13]]
    assert ask(app, hw, "state")["mode"] == "play"


def test_setup_lights_what_to_fill_and_what_to_take_out_until_the_pegs_match():
    hw, app = fresh()
    mask = start_mask(B, 1)
    sense(app, hw, mask, 200)
    mask = jump(app, hw, mask, B.find_jump(4, 2, 1))
    want = [2, 4, 5, 7, 9, 12, 13]
    r = ask(app, hw, "setup", pegs=want)
    assert r["to_fill"] == [2, 4] and r["to_remove"] == sorted(set(holes_of(mask)) - set(want)) and not r["done"]
    st = ask(app, hw, "state")
    assert st["target"] == want and st["mode"] == "setup"
    lit = {h: (c[0] << 16 | c[1] << 8 | c[2]) for h, c in enumerate(st["lights"], 1)}
    assert app.limiter.limit([colors.LANDING])[0] == lit[2]
    assert app.limiter.limit([colors.PENDING])[0] == lit[3]
    assert ask(app, hw, "hint")["ok"]
    target = mask_of(want)
    for h in holes_of(mask & ~target):
        mask &= ~(1 << (h - 1))
        sense(app, hw, mask, 30)
    assert not events(hw, "new_game")
    for h in holes_of(target & ~mask):
        mask |= 1 << (h - 1)
        sense(app, hw, mask, 30)
    seen = events(hw)
    names = [e["event"] for e in seen if e["event"] in ("setup_done", "new_game")]
    assert names == ["setup_done", "new_game"] and seen[-1]["start"] == want
    st = ask(app, hw, "state")
    assert st["mode"] == "play" and st["start"] == want and st["target"] is None


def test_setup_and_play_arguments_are_checked():
    hw, app = fresh()
    for bad in ([], [0], [16], [1, 1], "1,2", [True], None):
        r = ask(app, hw, "setup", pegs=bad)
        assert not r["ok"] and r["error"] == "bad_args", bad
    assert not ask(app, hw, "demo", empty=1, start=[1, 2])["ok"]


def test_stop_ends_a_setup_request():
    hw, app = fresh()
    ask(app, hw, "setup", pegs=[1, 2, 3])
    assert ask(app, hw, "stop")["stopped"] == "setup"
    assert ask(app, hw, "state")["target"] is None


def test_a_demo_of_a_hand_set_start():
    hw, app = fresh()
    jumps, mask = game_moves(1, 6)  # on the solver's line: a position with a win
    pegs = holes_of(mask)
    line = SOLVER.solution(mask)
    r = ask(app, hw, "demo", start=pegs, moves=[B.move_of(j) for j in line])
    assert r["ok"] and len(r["moves"]) == len(line)


def test_nvm_keeps_a_hand_set_start_and_abandoned_games_through_a_compaction():
    from pegfw.store import Store, mask_bytes
    from support import stored as read

    nvm = FlashNvm()
    st = Store(nvm, 5)
    st.new_game(start_mask(B, 1))
    st.move(3)
    st.abandon()
    st.new_game(mask_of([2, 4, 5, 7]), 4)
    st.move(1)
    again = read(nvm, 5)
    assert again.start == mask_of([2, 4, 5, 7]) and again.goal == 4 and again.moves == [1]
    assert again.abandoned == 1 and again.games == 2
    writes = st.writes
    for _ in range(2100):  # fill the 4 KB log: the compaction carries the hand-set game over
        st.undo()
        st.move(1)
    assert st.erases >= 1 and st.writes > writes
    third = read(nvm, 5)
    assert (third.start, third.goal, third.moves, third.abandoned) == (mask_of([2, 4, 5, 7]), 4, [1], 1)
    assert mask_bytes(15) == 3 and mask_bytes(21) == 3 and mask_bytes(28) == 4


def test_a_torn_hand_set_start_entry_ends_the_log():
    from pegfw.store import HEAD, Store
    from support import stored as read

    nvm = FlashNvm()
    st = Store(nvm, 5)
    st.new_game(mask_of([2, 4, 5, 7]))
    nvm.data[HEAD + 2] = 0xFF  # the entry's second byte never programmed
    nvm.data[HEAD + 3] = 0xFF
    nvm.data[HEAD + 4] = 0xFF
    again = read(nvm, 5)
    assert again.start == 0 and again.end is None


@pytest.mark.parametrize("rows", [6, 7])
def test_free_play_hints_on_the_bigger_boards_search_in_slices(rows):
    """21 and 28 holes have no table: the hint on hand-set pegs is the sliced search's, legal and
    true (a position a few jumps from a win, so the search ends within its budget)."""
    from test_fw_app import big_board

    big = Board(rows)
    hw, app = big_board(rows)
    run(app, hw, 200)
    mask = 0
    for h in (1, 2, 4, 5, 7, 8):  # a small position with a win
        mask |= 1 << (h - 1)
        hw.sensors.set(mask)
        run(app, hw, 30)
    assert ask(app, hw, "state")["mode"] == "setup"
    r = ask(app, hw, "hint", passes=4000)
    assert r["ok"] and big.find_jump(*r["move"]) in legal_jumps(big, mask)
    assert r["solvable"] is (Solver(big).solution(mask) is not None)
    assert app.job is None  # the search ended and let go
