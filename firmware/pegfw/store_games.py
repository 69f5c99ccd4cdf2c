"""The games the board keeps, read back from its NVM record (pegfw.store_records writes them): for
the `records` request, a compaction, a review, and the `stats` request's challenge totals. A module
of its own so that `stats` compiles this much and not the rewriting too (a compile is the chip's
longest pass). Loaded for that work and dropped after."""

from pegcore.rules import popcount
from pegfw.nvm_format import ABANDON, BEST, FREE, GOAL, LEAVE_CODE, MOST_CODE, OVER, REC, RECT, SOLVED, TIME, UNDO
from pegfw.store_tokens import entries, head


def games(store, current=False):
    """The finished and abandoned games the record holds, oldest first: (start, finish, result,
    moves, seconds), result the pegs left (0: abandoned unfinished), seconds its time on (-1: not
    kept, a game from before the board kept time). Those carried over by compactions (REC
    entries), then those the log has played since, each once it ended for good (the board emptied,
    a new game); `current`: the game in progress too once it is scored. A game with no move is
    none. Read from the NVM itself, a chunk at a time: the chip keeps no list of them; up to where
    start-up's replay stops (pegfw.store_tokens: a damaged log ends at its first bad entry)."""
    rec = head(store)
    if not rec or rec[2] == 1:  # a log only behind a sound header of a version with one
        return
    out = [0, 0, 0, 0, 0]  # type: list
    start = finish = 0
    secs = -1
    moves = []  # type: list
    scored = False
    over, carried, undo, goal, end, clock = OVER, REC, UNDO, GOAL, FREE, TIME  # locals: read at every entry
    for kind in entries(store, out):  # it ends where the log does, or where it makes no sense
        if kind == clock:
            secs = out[4]
        elif kind == over:
            scored = True
        elif kind == carried or kind == RECT:  # carried over (the game in progress goes on after it)
            yield out[0], out[1], out[3], out[2], out[4]
        elif kind == undo:  # (its move is off `moves` already)
            scored = False
        elif kind == goal:
            finish = out[1]
        elif kind == BEST or kind == SOLVED:
            pass
        elif kind != end:  # ABANDON, or a game begins: the game before ended for good
            if start and (moves or scored):
                yield start, finish, (popcount(start) - len(moves) if scored else 0), moves, secs
            scored = False
            secs = -1  # (a game of this firmware has a TIME entry with its first move)
            start = 0 if kind == ABANDON else out[0]  # (one assignment each: no tuple made)
            finish = out[1]
            moves = out[2]  # entries() puts the game's moves there
    if current and start and scored:
        yield start, finish, popcount(start) - len(moves), moves, secs


def met(board, start, code, moves):
    """Did the game from `start` with `moves` meet its challenge `code` (pegfw.nvm_format)? None
    for a reverse game whose best was not known (21 and 28 holes). Without the tables: the end
    position says it."""
    from pegcore.rules import has_move

    mask = start
    for j in moves:
        mask ^= board.flip[j]
    if has_move(board, mask):
        return False
    if code < LEAVE_CODE:
        return mask == 1 << (code - 1)
    left = popcount(mask)
    if code < MOST_CODE:
        return left == code - LEAVE_CODE
    return left >= code - MOST_CODE if code > MOST_CODE else None


def challenge_totals(store, board, out):
    """Counts into `out` ([set, met]) the kept games that had a challenge (the `stats` request), a
    game at a time: a generator that yields after each (the request's slices, pegfw.commands.Slices)."""
    for start, code, result, moves, _secs in games(store, True):
        if code:
            out[0] += 1
            if result and met(board, start, code, moves):
                out[1] += 1
        yield None
