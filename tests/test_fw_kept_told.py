"""What the board keeps, read back as a player's `records`, `stats` and `state` show it, at the
edges a plain game never reaches: a game's seconds whose low byte is 127, a kept game claiming
more pegs left than the board has holes, challenges counted met only when met, a board with no NVM at all."""

from fakehw import HW, make_app, run
from support import ask, output
from test_fw_log_tokens import won, written

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps, popcount
from pegfw import store_records
from pegfw.nvm_format import LEAVE_CODE
from pegfw.store import Store

B = Board(5)


def greedy(start):
    """The first legal jump each time, to the end: (moves, pegs left)."""
    mask, moves = start, []
    while legal_jumps(B, mask):
        j = legal_jumps(B, mask)[0]
        moves.append(j)
        mask ^= B.flip[j]
    return moves, popcount(mask)


def kept(*entries):
    return written(b"".join(bytes(e) for e in entries))


def test_a_kept_games_seconds_read_back_whatever_their_bytes():
    moves, left = greedy(start_mask(B, 1))
    times = (127, 128, 127 * 128 + 127, 5)
    nvm = kept(*(store_records.record_entry(Store(None, 5), start_mask(B, 1), 0, left, moves, secs) for secs in times))
    hw, app = make_app(HW(nvm=nvm))
    got = ask(app, hw, "records")
    assert [g["seconds"] for g in got["games"]] == list(times), got


def test_a_kept_game_claiming_more_pegs_left_than_holes_ends_the_record():
    moves, left = greedy(start_mask(B, 1))
    good = store_records.record_entry(Store(None, 5), start_mask(B, 1), 0, left, moves, 30)
    bad = store_records.record_entry(Store(None, 5), start_mask(B, 1), 0, B.holes + 1, moves, 30)
    hw, app = make_app(HW(nvm=kept(good, bad, won(3))))
    got = ask(app, hw, "records")
    assert got["total"] == 1 and [g["result"] for g in got["games"]] == [left], got


def test_challenges_kept_are_counted_and_listed_met_only_when_met():
    moves, left = greedy(start_mask(B, 1))
    assert left > 1
    met = store_records.record_entry(Store(None, 5), start_mask(B, 1), LEAVE_CODE + left, left, moves, 30)
    missed = store_records.record_entry(Store(None, 5), start_mask(B, 1), LEAVE_CODE + left - 1, left, moves, 30)
    # abandoned at the same position (no result): it did not meet the challenge, though its end would have
    left_off = store_records.record_entry(Store(None, 5), start_mask(B, 1), LEAVE_CODE + left, 0, moves, 30)
    hw, app = make_app(HW(nvm=kept(met, missed, left_off, won(3))))
    st = ask(app, hw, "stats")
    assert st["challenges_kept"] == {"set": 3, "met": 1}, st
    games = ask(app, hw, "records")["games"]
    assert [(g["challenge"], g["met"]) for g in games[:3]] == [
        ("leave:%d" % left, True), ("leave:%d" % (left - 1), False), ("leave:%d" % left, False)], games


def test_a_board_with_no_nvm_plays_and_keeps_nothing():
    hw = HW()
    hw.nvm = None  # a board whose CircuitPython has no microcontroller.nvm
    hw.sensors.state = start_mask(B, 1)
    hw, app = make_app(hw)
    run(app, hw, 300)
    output(hw)
    st = ask(app, hw, "state")
    assert st["mode"] == "play", st
    assert ask(app, hw, "records")["total"] == 0
