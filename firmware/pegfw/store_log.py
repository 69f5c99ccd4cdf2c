"""The rare work on the board's NVM record (pegfw.store): reading it at start-up (the header's
totals, then the log replayed entry by entry, so a resume has the game in progress with its very
moves), and rewriting it (a compaction: at start-up when the record is new, foreign or damaged,
else in an idle pass when the log is nearly full). Loaded for that work and dropped after: the
chip's heap keeps only what appends entries."""

from pegcore.rules import popcount
from pegfw.nvm_format import ABANDON, CHUNK, CONT, CSET, FREE, HEAD, MAGIC, NEW, OVER, SET, UNDO, VERSION, mask_bytes


def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


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
        if not start or start & ~store.full() or finish > store.holes:
            return False
    store.begin(start, finish, kind == NEW or kind == SET)
    return True


def header(store):
    body = bytearray(HEAD - 4)
    body[0:2] = MAGIC
    body[2] = VERSION
    # the totals without the game carried over in the log: its OVER entry scores it on replay
    wins, best = (store.wins - store.won, store.best_before) if store.scored else (store.wins, store.best)
    body[3], body[4] = store.games & 255, store.games >> 8 & 255
    body[5], body[6] = wins & 255, wins >> 8 & 255
    body[7] = best
    body[8], body[9] = store.abandoned & 255, store.abandoned >> 8 & 255
    body[10] = store.rows
    return bytes(body) + crc32(body).to_bytes(4, "little")


def compact(store):
    """Rewrite the record: the totals in the header, the game in progress after it. A blank sector
    (a new chip) is programmed in place, with no erase and no buffer; any other is erased and
    rewritten whole (one assignment: one erase), from a 4 KB buffer."""
    log = bytearray()
    if store.start:
        log.extend(store.start_bytes(False))
        log.extend(bytes(store.moves))
        if store.scored:
            log.append(OVER)
    nvm, n = store.nvm, len(store.nvm)
    if _blank(store):
        nvm[0:HEAD + len(log)] = header(store) + bytes(log)  # into 0xFF bytes: programmed, no erase
    else:
        store.erases += 1
        try:
            sector = bytearray(n)  # the one 4 KB block this needs (no concatenated copies)
        except MemoryError:  # the heap in pieces: collect, then try once more
            import gc

            gc.collect()
            sector = bytearray(n)
        ff = b"\xff" * CHUNK
        for at in range(0, n, CHUNK):  # erased flash reads 0xFF
            sector[at:at + CHUNK] = ff[:min(CHUNK, n - at)]
        sector[0:HEAD] = header(store)
        sector[HEAD:HEAD + len(log)] = log
        nvm[0:n] = sector
    store.end = HEAD + len(log)
    store.writes += 1


def _blank(store):
    """All 0xFF (a new chip's sector): written without an erase."""
    nvm, n = store.nvm, len(store.nvm)
    free = b"\xff" * CHUNK
    for at in range(0, n, CHUNK):
        chunk = bytes(nvm[at:min(n, at + CHUNK)])
        if chunk != free[:len(chunk)]:
            return False
    return True
