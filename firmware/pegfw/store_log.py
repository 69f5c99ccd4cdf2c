"""Start-up's reading of the board's NVM record (pegfw.store): the header's totals, then the
log replayed entry by entry, so a resume has the game in progress with its very moves (the games
carried over as REC entries are checked and skipped: pegfw.store_records). Loaded for that work and
dropped after."""

from pegcore.rules import popcount
from pegfw.nvm_format import (ABANDON, CHUNK, CONT, CSET, FREE, GOAL, HEAD, MAGIC, NEW, OVER, REC, SET, UNDO,
                              VERSION, crc32, goal_ok, mask_bytes)


def load(store):
    """Read the header and replay the log into `store` (a pegfw.store.Store)."""
    nvm = store.nvm
    if nvm is None or len(nvm) < HEAD:
        return
    rec = bytes(nvm[0:HEAD])
    if rec[0:2] != MAGIC:
        return  # blank or foreign: start fresh
    body, crc = rec[:HEAD - 4], rec[HEAD - 4:]
    if rec[2] not in (1, 2, VERSION) or crc32(body) != int.from_bytes(crc, "little") or rec[10] != store.rows:
        store.corrupt = True
        return
    store.games = rec[3] | rec[4] << 8
    store.wins = rec[5] | rec[6] << 8
    store.best = rec[7]
    if rec[2] == 1:  # the record before the log: a start hole, no moves (rewritten at the next write)
        if 1 <= rec[8] <= store.holes:
            store.begin(store.full() & ~(1 << (rec[8] - 1)), 0, False)
        return
    store.abandoned = rec[8] | rec[9] << 8  # v2 wrote zeros there
    _replay(store)



def _replay(store):
    nvm, n = store.nvm, len(store.nvm)
    at = HEAD
    want = 0  # an entry waiting for its data bytes
    data = []
    size = 0
    nmask = mask_bytes(store.holes)
    while at < n:
        chunk = bytes(nvm[at:min(n, at + CHUNK)])
        for i in range(len(chunk)):
            b = chunk[i]
            if want:
                data.append(b)
                if len(data) < size:
                    continue
                if want == REC:
                    if size == 1:  # its length byte: now the rest
                        size = 1 + data[0]
                        continue
                    from pegfw.store_records import parse_record  # only a log with kept games needs it

                    if parse_record(store, data) is None:
                        return  # torn or damaged: the log ends here; compact at the next write
                    want = 0
                    continue
                if want == GOAL:
                    if not store.start or not goal_ok(data[0], store.holes):
                        return
                    store.goal = data[0]
                    want = 0
                    continue
                if not _start_entry(store, want, data):
                    return  # torn or damaged: the log ends here; compact at the next write
                want = 0
            elif b == FREE:
                store.end = at + i
                return
            elif b == NEW or b == CONT:
                want, data, size = b, [], 1
            elif b == SET or b == CSET:
                want, data, size = b, [], nmask + 1
            elif b == REC:  # a game carried over: the game in progress and the totals skip it
                want, data, size = b, [], 1
            elif b == GOAL:
                want, data, size = b, [], 1
            elif not store.start:
                return  # a move, undo, game over or abandon outside a game: damaged
            elif b == OVER:
                if store.scored:
                    return  # scored twice: damaged
                store.score(popcount(store.start) - len(store.moves))
            elif b == ABANDON:
                store.end_unfinished()
            elif b == UNDO:
                if not store.moves:
                    return
                store.unscore()  # an undo after the end takes the score back
                store.moves.pop()
            elif b < NEW:
                store.moves.append(b)
            else:
                return
        at += len(chunk)



def _start_entry(store, kind, data):
    """A new or carried-over game's entry, complete: False if its bytes make no sense."""
    if kind == NEW or kind == CONT:
        if not 1 <= data[0] <= store.holes:
            return False
        start, finish = store.full() & ~(1 << (data[0] - 1)), 0
    else:
        start = 0
        for k in range(len(data) - 1):
            if data[k] > 127:
                return False
            start |= data[k] << (7 * k)
        finish = data[-1]
        if not start or start & ~store.full() or not goal_ok(finish, store.holes):
            return False
    store.begin(start, finish, kind == NEW or kind == SET)
    return True
