"""One reading of the board's NVM log (issue "honest", item 5): start-up's replay (pegfw.store_log)
and the games the board keeps (`records`, pegfw.store_records.games) end a damaged log at the same
entry and read the same games before it, so `records` never lists a game the replay never read.

Where the replay stops is found from outside: the longest cut of the log (its bytes from there on
erased) that the replay reads to its end cleanly. The replay of the damaged log must be the replay of
that cut, and `records` of the damaged log must be `records` of that cut."""

import random

import pytest
from fakehw import FlashNvm, HW, make_app
from hypothesis import given, settings, strategies as st
from support import ask, stored

from pegcore.geometry import Board, start_mask
from pegcore.rules import legal_jumps, popcount
from pegcore.solver import Solver
from pegfw import store_records
from pegfw.nvm_format import ABANDON, GOAL, HEAD, NEW, OVER, REC, RECT, SET
from pegfw.store import Store

B = Board(5)
LINE = Solver(B).solution(start_mask(B, 1))  # a won game from hole 1: 13 jumps
HAND = start_mask(B, 5)  # a start set by hand (SET entry): its first mask byte is 0x6f


class Replay(Store):
    """A Store that notes each game the replay ends, as `records` lists a game: (start, finish,
    result, moves), result the pegs left (0: abandoned)."""

    def __init__(self, nvm):
        super().__init__(nvm, 5)
        self.ended = []

    def note(self):
        if self.start and (self.moves or self.scored):
            result = popcount(self.start) - len(self.moves) if self.scored else 0
            self.ended.append((self.start, self.goal, result, list(self.moves)))

    def begin(self, start, goal, counted):
        self.note()
        super().begin(start, goal, counted)

    def end_unfinished(self):
        self.note()
        super().end_unfinished()


def played(nvm):
    """The games the replay played to their end, and the game in progress once scored."""
    from pegfw.store_log import load

    s = Replay(nvm)
    load(s)
    if s.scored:
        s.note()
    return s.ended


def listed(nvm):
    """The games `records` lists."""
    return [(g[0], g[1], g[2], list(g[3])) for g in store_records.games(stored(nvm), True)]


def cut(nvm, at):
    """The record with its bytes from `at` on erased."""
    out = FlashNvm(len(nvm))
    out.data[:at] = nvm.data[:at]
    return out


def stop(nvm):
    """Where the replay stops: the longest cut it reads cleanly to its end (None: not one)."""
    for at in range(len(nvm.data.rstrip(b"\xff")), HEAD - 1, -1):
        if stored(cut(nvm, at)).end == at:
            return at
    return None


def view(s):
    return s.games, s.wins, s.best, s.abandoned, s.corrupt, s.start, s.goal, s.moves, s.scored


def assert_one_reading(nvm, kept=0):
    """The replay and `records` stop at the same entry and read the same games; `kept`: games
    carried over by a compaction first (REC entries: `records` lists them, the replay skips
    them), None: as many as `records` lists beyond the replay's."""
    at = stop(nvm)
    games = listed(nvm)
    if at is None:  # no log the replay reads (a header it refuses): `records` lists none either
        assert stored(nvm).end is None and games == []
        return games
    assert view(stored(nvm)) == view(stored(cut(nvm, at)))  # the replay stopped there
    assert games == listed(cut(nvm, at))  # and so did `records`
    mine = played(nvm)
    if kept is None:
        kept = max(0, len(games) - len(mine))
    assert games[kept:] == mine
    return games


def written(log):
    """A record with a sound header and `log` (its bytes as given)."""
    nvm = FlashNvm()
    store_records.compact(Store(nvm, 5))  # a blank sector: the header alone
    nvm.data[HEAD:HEAD + len(log)] = log
    return nvm


def won(empty=1):
    """A game's entries: won from hole `empty`."""
    return bytes((NEW, empty)) + bytes(LINE) + bytes((OVER,))


def abandoned(empty=4, n=3):
    """A game's entries: n moves, then the board emptied."""
    mask, moves = start_mask(B, empty), []
    for _ in range(n):
        j = legal_jumps(B, mask)[0]
        mask ^= B.flip[j]
        moves.append(j)
    return bytes((NEW, empty)) + bytes(moves) + bytes((ABANDON,))


def hand_set(mask=HAND, first=None):
    """A game's start set by hand (`first`: its first mask byte instead), and a move."""
    out = bytearray((SET,))
    for _ in range(3):
        out.append(mask & 127)
        mask >>= 7
    out.append(0)
    if first is not None:
        out[1] = first
    j = legal_jumps(B, HAND)[0]
    return bytes(out) + bytes((j,))


def too_long():
    """A REC entry, its check sound, of 14 moves: a game on 15 holes has 13 at most."""
    return bytes(store_records.record_entry(Store(None, 5), HAND, 0, 1, [0] * 14))


CASES = {  # the damaged log, and the games listed before where it ends (a won game in progress counts)
    "a mask byte over 127": (won() + hand_set(first=0x6F | 0x80) + bytes((OVER,)) + abandoned(), 1),
    "a second game over": (won() + bytes((OVER,)) + abandoned() + won(), 1),
    "an abandon outside a game": (abandoned() + bytes((ABANDON,)) + won(), 1),
    "a torn hand-set start": (won() + bytes((SET, 0x6F, 0xFF, 0xFF, 0xFF)) + abandoned(), 1),
    "a torn challenge after a won game": (won() + bytes((GOAL, 0xFF)), 1),
    "a challenge out of range": (won() + bytes((GOAL, 0x7F)) + abandoned(), 1),
    "a byte no entry begins with": (won() + bytes((0xFA,)) + abandoned(), 1),
    "a second game over in a later chunk": (won() * 5 + bytes((OVER,)) + won(), 5),  # (CHUNK: 64 bytes)
    "a carried game too short for its fields": (won() + bytes((REC, 2, 2, 2)) + abandoned(), 1),  # (its check holds)
    "a carried game with more moves than a game has": (won() + too_long() + abandoned(), 1),
}


@pytest.mark.parametrize("case", list(CASES))
def test_replay_and_records_end_a_damaged_log_at_the_same_entry(case):
    log, n = CASES[case]
    nvm = written(log)
    assert len(assert_one_reading(nvm)) == n
    assert stored(nvm).end is None  # damaged: the next write compacts it


def test_bytes_after_the_end_are_read_by_neither():
    nvm = written(won() + abandoned() + b"\xff\xff" + won())
    assert len(assert_one_reading(nvm)) == 2
    assert stored(nvm).end == HEAD + len(won() + abandoned())


def kept_games(after=0, scored=True):
    """A compacted record: 6 games carried over as REC entries behind a won game in progress,
    then `after` more games; the offset of the second REC entry."""
    nvm = FlashNvm()
    s = Store(nvm, 5)
    store_records.compact(s)
    rnd = random.Random(5)
    for g in range(6):
        m = start_mask(B, 1 + g)
        s.new_game(m)
        for _ in range(3):
            j = rnd.choice(legal_jumps(B, m))
            s.move(j)
            m ^= B.flip[j]
        s.abandon()
    s.new_game(start_mask(B, 1))
    for j in LINE:
        s.move(j)
    if scored:
        s.game_over(1)
    store_records.compact(s)
    first = nvm.data.index(RECT, HEAD)  # (carried with their time: RECT)
    second = first + 2 + nvm.data[first + 1]
    assert nvm.data[second] == RECT
    for g in range(after):
        s.new_game(start_mask(B, 2 + g))
        s.move(legal_jumps(B, start_mask(B, 2 + g))[0])
        s.abandon()
    return nvm, second


@pytest.mark.parametrize("scored", [True, False])
def test_a_kept_game_whose_check_fails_ends_the_log_for_both(scored):
    nvm, second = kept_games(after=3, scored=scored)
    nvm.data[second + 10] ^= 1  # a move of the second carried game: its check fails
    games = assert_one_reading(nvm, kept=1)
    assert len(games) == 1 + scored  # the first carried game; the won game in progress once scored


def test_another_boards_record_lists_no_game():
    """A 21-hole board's record read by a 15-hole firmware: the replay refuses it (its rows), so
    `records` lists none of its games."""
    nvm = FlashNvm()
    big = Board(6)
    s = Store(nvm, 6)
    store_records.compact(s)
    m = start_mask(big, 1)
    s.new_game(m)
    for j in Solver(big).solution(m):
        s.move(j)
    s.game_over(1)
    assert stored(nvm).corrupt and listed(nvm) == []


def test_a_move_off_the_board_ends_the_log_and_records_still_answer():
    """A byte below the kinds but no jump of this board (36 on 15 holes) is no move: the log ends
    before it, and the board, which compacts such a log at start-up, answers `records`."""
    nvm = written(won() + abandoned()[:-1] + bytes((200, ABANDON)) + won(3))
    games = assert_one_reading(nvm)
    assert stored(nvm).end is None and all(j < 36 for g in games for j in g[3])
    hw, app = make_app(HW(nvm=nvm))
    r = ask(app, hw, "records")
    assert r["ok"] and r["total"] == 1, r


def plays(rnd, s, n):
    for _ in range(n):
        e = rnd.randrange(1, 16)
        m = start_mask(B, e)
        s.new_game(m)
        k = rnd.randrange(0, 6)
        while legal_jumps(B, m) and k:
            j = rnd.choice(legal_jumps(B, m))
            s.move(j)
            m ^= B.flip[j]
            k -= 1
            if rnd.random() < 0.2:
                s.undo()
                m ^= B.flip[j]
        if not legal_jumps(B, m) or rnd.random() < 0.5:
            s.game_over(popcount(m))
        if rnd.random() < 0.7:
            s.abandon()


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**16), st.booleans(), st.lists(st.tuples(st.integers(0, 999), st.integers(0, 255)),
                                                      min_size=1, max_size=3))
def test_any_damaged_bytes_end_the_log_at_the_same_entry_for_both(seed, compacted, damage):
    """A record of random games (with games carried over by a compaction, or none), then bytes of
    its log written over at random."""
    rnd = random.Random(seed)
    nvm = FlashNvm()
    s = Store(nvm, 5)
    store_records.compact(s)
    plays(rnd, s, 4)
    if compacted:
        store_records.compact(s)
        plays(rnd, s, 3)
    used = len(nvm.data.rstrip(b"\xff")) + 2
    for where, value in damage:
        nvm.data[HEAD + where * (used - HEAD) // 1000] = value
    assert_one_reading(nvm, kept=None if compacted else 0)



def test_the_readers_code_leaves_the_heap_after_start_up_and_compactions():
    """The log's reader is loaded with start-up's replay and the rewriting of the record, and
    dropped with them (pegfw.ondemand): the chip's heap keeps only what appends entries."""
    import sys

    from pegfw.ondemand import unload

    readers = ("pegfw.store_log", "pegfw.store_records", "pegfw.store_tokens")
    for name in readers:  # (this module and others imported them)
        unload(name)
    make_app(HW(nvm=written(won())))  # read, not rewritten
    assert [m for m in readers if m in sys.modules] == []
    nvm = written(won() + bytes((OVER,)))  # damaged: start-up rewrites the record
    hw, app = make_app(HW(nvm=nvm))
    assert nvm.erases == 1 and [m for m in readers if m in sys.modules] == []
    app.store.compact()
    assert nvm.erases == 2 and [m for m in readers if m in sys.modules] == []
    assert not app.store.compact_step()  # a rewrite under way, then given up (someone plays)
    assert "pegfw.store_tokens" in sys.modules
    app.store.compact_stop()
    assert [m for m in readers if m in sys.modules] == []
