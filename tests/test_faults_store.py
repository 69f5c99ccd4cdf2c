"""What the board keeps and takes back, as a player sees it, where the suite did not yet say so:
a kept game with a move one past the board's last jump ends the record (never listed); a game
replaced before its first move is no abandoned game; an undo after the end, or mid-game after a
pause, keeps the game's clock running and counting; a challenge on a full board less one survives
a power cycle, with or without a rewrite of the record between; a game's clock stops at its end (a rewrite long after
keeps the time it was played in); a resume keeps only the legal part of a damaged log; moves made
while the board was down are found when the picture is the next jump begun by placing its peg; a
review with no game named, during a new game, reviews the newest kept game; a review of game 0 is
refused as no game number. The firmware's main loop on fake hardware (fakehw), the pegs by hand
(test_fw_scored.Hands), the clock advanced by the test (no sleeping)."""

import random

import pytest
from fakehw import FlashNvm, HW, boot, make_app, run
from support import ask, output
from test_fw_log_tokens import won, written
from test_fw_review import check_review, lost_game, play
from test_fw_scored import Hands

from pegcore.geometry import Board, start_mask
from pegcore.moves import validate_moves
from pegcore.rules import holes_of, legal_jumps, mask_of
from pegcore.solver import Solver
from pegfw import store_records
from pegfw.resume import Catchup, adopt
from pegfw.store import Store
from pegfw.tracker import Tracker

B = Board(5)
PAUSE_MS = 10_000  # a player's pause: far longer than a game played at the test hands' pace


def events(seen, name):
    return [e for e in seen if e.get("event") == name]


def won_game():
    """Hands on a fresh board that have just won a game from hole 1: (hands, the winning line, the
    game over event)."""
    h = Hands(FlashNvm())
    start = start_mask(B, 1)
    h.set(start)
    line = Solver(B).solution(start)
    for j in line:
        h.jump(j)
    h.run(200)
    over = events(output(h.hw), "game_over")
    assert len(over) == 1 and over[0]["pegs_left"] == 1, over
    return h, line, over[0]


def pause(h, ms=PAUSE_MS):
    """The player stops for `ms`: the board's clock moves on (no test time spent)."""
    h.hw.advance(ms)
    h.run(30)


# -- 1. a kept game's moves are the board's jumps ------------------------------------------------

def carried(start, moves, result):
    """A game carried over by a compaction: its REC entry, its check sound."""
    return bytes(store_records.record_entry(Store(None, 5), start, 0, result, moves))


def test_a_kept_game_with_a_move_one_past_the_last_jump_ends_the_record_and_is_never_listed():
    """A carried game (REC entry, its check sound) whose last move is the index one past the
    board's last jump: the record ends before it, so `records` lists only the game before it, and
    every game listed replays legally."""
    jumps = len(B.need)  # the triangle's jumps: a move is one's index, 0..jumps - 1
    line = Solver(B).solution(start_mask(B, 1))
    good = carried(start_mask(B, 1), line, 1)
    bad = carried(start_mask(B, 1), line[:3] + [jumps], 0)
    nvm = written(good + bad + won(3))
    hw, app = make_app(HW(nvm=nvm))
    r = ask(app, hw, "records")
    assert r["ok"], r
    assert r["total"] == 1, r
    for g in r["games"]:
        validate_moves(B, mask_of(g["start"]), g["moves"])  # raises on a move that is no legal jump


# -- 2. a game replaced before its first move is not abandoned -----------------------------------

def test_a_game_replaced_before_its_first_move_is_not_counted_abandoned():
    h = Hands(FlashNvm())
    h.set(start_mask(B, 4))  # a game from hole 4 ...
    h.set(start_mask(B, 15))  # ... replaced, no move made, by one from hole 15 (no jump between the two)
    seen = output(h.hw)
    assert [e["empty"] for e in events(seen, "new_game")] == [4, 15]
    st = h.stats()
    assert (st["games"], st["abandoned"]) == (2, 0), st
    # the same kept across a power cycle (the record replays both starts)
    h._boot()
    st = h.stats()
    assert (st["games"], st["abandoned"]) == (2, 0), st
    # and a game replaced after a move is abandoned
    j = legal_jumps(B, start_mask(B, 15))[0]
    h.jump(j)
    h.set(start_mask(B, 2))
    assert [e["empty"] for e in events(output(h.hw), "new_game")] == [2]
    assert h.stats()["abandoned"] == 1


# -- 3. an undo keeps the clock counting ----------------------------------------------------------

def test_an_undo_after_the_end_sets_the_clock_running_again():
    """Won, the last jump put back, a pause, the jump made again: the game's time counts the pause."""
    h, line, first = won_game()
    h.jump(line[-1], back=True)
    pause(h)
    h.jump(line[-1])
    again = events(output(h.hw), "game_over")
    assert again and again[-1]["pegs_left"] == 1
    assert again[-1]["seconds"] >= first["seconds"] + PAUSE_MS // 1000, again


def test_a_pause_before_an_undo_mid_game_still_counts():
    """Mid-game: a move, a pause, the move put back and made again, the game played to its win:
    the pause is part of the game's time (the undo does not restart the clock from itself)."""
    h = Hands(FlashNvm())
    start = start_mask(B, 1)
    h.set(start)
    line = Solver(B).solution(start)
    h.jump(line[0])
    pause(h)
    h.jump(line[0], back=True)
    h.jump(line[0])
    for j in line[1:]:
        h.jump(j)
    over = events(output(h.hw), "game_over")
    assert over and over[-1]["pegs_left"] == 1
    assert over[-1]["seconds"] >= PAUSE_MS // 1000, over


# -- 4. a challenge on a full board less one is kept ------------------------------------------------

@pytest.mark.parametrize("rewrite", [True, False])
def test_a_challenge_on_a_full_board_less_one_survives_a_power_cycle_with_or_without_a_rewrite(rewrite):
    h = Hands(FlashNvm())
    start = start_mask(B, 1)
    h.set(start)
    h.run(300)
    r = ask(h.app, h.hw, "challenge", target="finish")
    assert r["ok"], r
    h.jump(legal_jumps(B, start)[0])
    assert ask(h.app, h.hw, "state")["challenge"] == r["challenge"]
    if rewrite:
        h.app.store.compact()  # the record rewritten, as the board does in a quiet pass once its log is nearly full
    h._boot()  # a power cycle: the game comes back from the record (rewritten, or its log's entries)
    st = ask(h.app, h.hw, "state")
    assert st["mode"] == "play" and len(st["moves"]) == 1
    assert st["challenge"] == r["challenge"], st


# -- 5. the clock stops at the end ---------------------------------------------------------------

def test_a_games_time_stops_at_its_end_and_a_later_rewrite_keeps_it():
    """A won game's time is what it took to play: the board left standing at its end for long,
    then its record rewritten (the game over still the game in progress, carried with its clock)
    and the power cycled, `records` still gives the time it had at its end."""
    h, _line, over = won_game()
    kept = ask(h.app, h.hw, "records")["games"]
    assert [g["seconds"] for g in kept] == [over["seconds"]], (kept, over)
    secs = over["seconds"]
    pause(h, 10 * PAUSE_MS)  # the board left as it ended
    h.app.store.compact()  # the record rewritten (as in a quiet pass once the log is nearly full)
    kept = ask(h.app, h.hw, "records")["games"]
    assert [g["seconds"] for g in kept] == [secs], (kept, secs)
    h._boot()
    kept = ask(h.app, h.hw, "records")["games"]
    assert [g["seconds"] for g in kept] == [secs], (kept, secs)


# -- 6. a resume keeps the legal part of a damaged log ---------------------------------------------

def test_a_resume_keeps_only_the_legal_moves_of_a_damaged_log():
    """The log's third move is a jump of the board but not a legal one there (damage the reader
    cannot see: it checks the range only). The pegs stand after the first two: the game resumes
    with those two, in step, nothing illegal."""
    nvm = FlashNvm()
    s = Store(nvm, 5)
    mask = start_mask(B, 1)
    s.new_game(mask)
    for j in Solver(B).solution(mask)[:2]:
        s.move(j)
        mask ^= B.flip[j]
    legal = [B.move_of(j) for j in s.moves]
    s.move([j for j in range(len(B.need)) if j not in legal_jumps(B, mask)][0])
    hw, app = boot(nvm, mask)
    seen = output(hw)
    resumed = events(seen, "resumed")
    assert resumed and resumed[0]["moves"] == legal, resumed
    assert not events(seen, "illegal")
    st = ask(app, hw, "state")
    assert st["mode"] == "play" and st["position"] == holes_of(mask) and st["moves"] == legal, st


# -- 7. moves made while down, then the next jump begun by placing its peg ---------------------------

def test_moves_made_while_down_are_found_when_the_next_jump_is_begun_by_placing_its_peg():
    """Two moves played with the board on; unpowered, more moves, and the next jump begun by its
    peg placed in the landing hole first (nothing lifted yet). On start-up the search finds the
    moves (the picture: their position and one peg placed), and the jump finished by hand is one
    more move: nothing is flagged illegal."""
    start = start_mask(B, 1)
    line = Solver(B).solution(start)
    positions = [start]
    for j in line:
        positions.append(positions[-1] ^ B.flip[j])

    def unexplained(k):
        """The picture after k moves and the next one's peg placed is one the resumed game (two
        moves) cannot explain, a placement: the search runs, and takes a jump begun as a fit."""
        t = Tracker(B)
        adopt(t, start, list(line[:2]), positions[2], picture_at(k))
        c = Catchup(t, t.base[1], t.sensed)
        return not c.done and c.accept == 1

    def picture_at(k):
        return positions[k] | 1 << B.jump_to[line[k]]

    k = next(k for k in range(3, len(line)) if unexplained(k))
    picture = picture_at(k)
    nvm = FlashNvm()
    hw, app = make_app(HW(nvm=nvm))
    run(app, hw, 200)
    for p in positions[:3]:
        hw.sensors.set(p)
        run(app, hw, 40)
    assert len(ask(app, hw, "state")["moves"]) == 2
    hw, app = boot(nvm, picture)
    passes = app.loops
    while (app.chase is not None and not app.chase.done) or len(app.tracker.moves) < k:
        run(app, hw, 100)
        assert app.loops - passes < 20000, "the search did not finish"
        if events(output(hw), "illegal"):
            raise AssertionError("the picture was flagged illegal: the moves made while down were not found")
    for hole in (B.jump_from[line[k]], B.jump_over[line[k]]):  # the jump finished: its two pegs lifted
        hw.sensors.set(hw.sensors.state & ~(1 << hole))
        run(app, hw, 40)
    run(app, hw, 200)
    seen = output(hw)
    assert not events(seen, "illegal"), seen
    st = ask(app, hw, "state")
    assert st["position"] == holes_of(positions[k + 1]) and len(st["moves"]) == k + 1, st
    validate_moves(B, start, st["moves"])


# -- 8, 9. review: which game, and which numbers ---------------------------------------------------

def lost_then_new_game(h):
    """A lost game, kept (the board emptied after it), then a new game in play with two moves;
    the lost game as (start, jumps, k)."""
    start, jumps, k = lost_game(random.Random(9), empty=4)
    play(h, start, jumps)
    h.set(0)
    h.run(2000)  # emptied: over for good, kept
    mask = start_mask(B, 1)
    h.set(mask)
    h.run(300)
    for j in Solver(B).solution(mask)[:2]:
        h.jump(j)
        h.run(60)
    output(h.hw)
    st = ask(h.app, h.hw, "state")
    assert st["mode"] == "play" and len(st["moves"]) == 2, st
    return start, jumps, k


def test_a_review_during_a_new_game_reviews_the_newest_kept_game():
    h = Hands(FlashNvm())
    start, jumps, k = lost_then_new_game(h)
    r = ask(h.app, h.hw, "review")
    assert r["ok"] and r["moves"] == len(jumps), r
    check_review(r, B, start, jumps, k)


def test_a_review_of_game_0_is_refused_as_no_game_number():
    h = Hands(FlashNvm())
    lost_then_new_game(h)
    r = ask(h.app, h.hw, "review", game=0)
    assert not r["ok"] and r["error"] == "bad_args", r
    assert "1 or more" in r["message"] and "not kept" not in r["message"], r
    assert ask(h.app, h.hw, "review", game=1)["ok"]  # game 1 is the lost game kept
