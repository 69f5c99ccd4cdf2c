"""Start-up's reading of the board's NVM record (pegfw.store): the header's totals, then the
log replayed entry by entry (pegfw.store_tokens reads it), so a resume has the game in progress with
its very moves (the games carried over as REC entries are skipped). Loaded for that work and
dropped after."""

from pegcore.rules import popcount
from pegfw.bests import note as note_best
from pegfw.nvm_format import ABANDON, BEST, FREE, GOAL, NEW, OVER, REC, RECT, SET, SOLVED, TIME, UNDO
from pegfw.store_tokens import entries, head


def load(store):
    """Read the header and replay the log into `store` (a pegfw.store.Store)."""
    rec = head(store)
    if not rec:
        store.corrupt = rec is False  # damaged (else blank or foreign: start fresh)
        return
    store.games = rec[3] | rec[4] << 8
    store.wins = rec[5] | rec[6] << 8
    store.best = rec[7]
    if rec[2] == 1:  # the record before the log: a start hole, no moves (rewritten at the next write)
        if 1 <= rec[8] <= store.holes:
            store.begin(store.full() & ~(1 << (rec[8] - 1)), 0, False)
        return
    store.abandoned = rec[8] | rec[9] << 8  # v2 wrote zeros there
    out = [0, 0, 0, 0, 0]  # type: list
    for kind in entries(store, out):  # it ends where the log does, or where it makes no sense
        if kind == FREE:
            store.end = out[0]  # else None: the next write compacts the record
        elif kind == OVER:
            store.score(popcount(store.start) - len(store.moves))
        elif kind == UNDO:  # (its move is off store.moves already)
            store.unscore()  # an undo after the end takes the score back
        elif kind == ABANDON:
            store.end_unfinished()
        elif kind == GOAL:
            store.goal = out[1]
        elif kind == TIME:
            store.played = out[4] * 1000
        elif kind == BEST:
            note_best(store, out[0], out[1], out[3], out[4])
        elif kind == SOLVED:
            store.solved[out[0] >> 3] |= 1 << (out[0] & 7)
        elif kind != REC and kind != RECT:  # a game begins: NEW and SET counted, CONT and CSET carried over
            store.begin(out[0], out[1], kind == NEW or kind == SET)
            store.moves = out[2]  # entries() puts its moves there
    store.since = None
    if store.start and not store.scored:
        store.run_clock()  # from now: the time the board was off is not the game's
