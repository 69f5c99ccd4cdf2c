"""The games the board keeps, and the rewriting of its NVM record (pegfw.store): a compaction
(at start-up when the record is new, foreign or damaged, else in quiet loop passes when the log is
nearly full) writes the totals, the game in progress and the newest finished and abandoned games
as REC entries; pegfw.store_games reads them back (through pegfw.store_tokens, as start-up's replay
does), for the rare `records` request (cmd_records: a handler as those of pegfw.commands, (app, rid, req,
now)). Loaded for that work and dropped after: the chip's heap keeps only what appends entries.
Apart from pegfw.store_log (start-up's replay), so that neither is too big to compile in the heap a
game leaves."""

from pegcore.rules import holes_of
from pegfw.commands import Slices
from pegfw.protocol import ProtocolError
from pegfw.nvm_format import (CHUNK, HEAD, MAGIC, OVER, REC, RECT, SOLVED, TIME, VERSION, check2, crc32, mask_bytes,
                              seconds_bytes)
from pegfw.store_games import games, met

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)


def record_bytes(holes, moves):
    """Bytes of a RECT entry for a game of `moves` moves (docs/protocol.md, "What the board keeps")."""
    return 9 + mask_bytes(holes) + moves


def records_kept(holes, size):
    """How many of the newest finished or abandoned games a compaction carries over: as many of
    the longest (holes - 2 moves) as fit in half the log less 64 bytes; the other half is the game
    in progress's and the new games' (4096 bytes, 15 holes: 79)."""
    return max(0, (size - HEAD) // 2 - 64) // record_bytes(holes, holes - 2)


def record_entry(store, start, finish, result, moves, secs=-1):
    """The REC entry of a game, RECT if its seconds are known (docs/protocol.md, "What the board
    keeps")."""
    out = bytearray((REC if secs < 0 else RECT, 0))
    for _ in range(mask_bytes(store.holes)):
        out.append(start & 127)
        start >>= 7
    out.append(finish)
    out.append(result)
    if secs >= 0:
        out.extend(seconds_bytes(secs))
    out.extend(bytes(moves))
    out[1] = len(out)  # what follows the length byte, its 2 check bytes included
    a, b = check2(out[1:])
    out.append(a)
    out.append(b)
    return out


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


SLICE = 16  # games read between two yields of rewrite(): tens of ms of the chip's time at most


def rewrite(store, sector=None):
    """Rewrite the record, a slice at a time: a generator that yields between slices (the App
    steps it once a quiet loop pass, pegfw.store.Store.compact_step; compact() runs it through).
    The totals go in the header; the game in progress (with its clock), the personal bests and the
    puzzles solved after it; then the newest finished and
    abandoned games (records_kept) as REC entries, oldest first. A blank sector (a new chip) is
    programmed in place, with no erase and no buffer; any other is erased and rewritten whole (one
    assignment: one erase) from a 4 KB buffer, in the last step. Should an entry be appended
    between two steps (a peg moved), the rewrite gives up without writing: it would lose it."""
    log = bytearray()
    if store.start:  # first: a cut just after the header loses as little as it did before bests
        log.extend(store.start_bytes(False))
        log.extend(bytes(store.moves))
        if store.scored:
            log.append(OVER)
        log.append(TIME)
        log.extend(seconds_bytes(store.seconds()))
    b = store.bests
    if b:  # (its code only then: `stats` and `records` load this module without it)
        from pegfw.bests import entry as best_entry

        for i in range(0, len(b), 3):  # the personal bests, oldest set first (as replayed)
            log.extend(best_entry(store, b[i], b[i + 1], b[i + 2]))
    for p in range(128):
        if store.is_solved(p):
            log.append(SOLVED)
            log.append(p)
    nvm, n = store.nvm, len(store.nvm)
    if _blank(store):
        nvm[0:HEAD + len(log)] = header(store) + bytes(log)  # into 0xFF bytes: programmed, no erase
        store.end = HEAD + len(log)
        store.writes += 1
        return  # (a blank sector holds no games to carry over)
    was = store.end
    if sector is None:
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
    end = HEAD + len(log)
    sector[HEAD:end] = log
    keep = records_kept(store.holes, n)
    skip = -keep
    if keep:
        for _ in games(store):
            skip += 1
            if skip % SLICE == 0:
                yield
        k = 0
        for rec in games(store):  # before the erase: the old log is still there to read
            k += 1
            if k % SLICE == 0:
                yield
            if skip > 0:
                skip -= 1
                continue
            entry = record_entry(store, rec[0], rec[1], rec[2], rec[3], rec[4])
            sector[end:end + len(entry)] = entry
            end += len(entry)
        yield
    if store.end != was:
        return  # an entry came meanwhile: the App starts again in a later quiet pass
    store.erases += 1
    nvm[0:n] = sector
    store.end = end
    store.writes += 1


def compact(store, sector=None):
    """The whole rewrite at once (start-up; a log with no room left); `sector`: a buffer of the
    NVM's size to build it in (made before this code was compiled, while the heap was whole)."""
    for _ in rewrite(store, sector):
        pass


def _blank(store):
    """All 0xFF (a new chip's sector): written without an erase."""
    nvm, n = store.nvm, len(store.nvm)
    free = b"\xff" * CHUNK
    for at in range(0, n, CHUNK):
        chunk = bytes(nvm[at:min(n, at + CHUNK)])
        if chunk != free[:len(chunk)]:
            return False
    return True


PAGE = 5  # games a reply: a game is at most ~250 bytes of JSON (13 moves), a page under 1.5 KB


def cmd_records(app, rid, req, now):
    # type: (App, object, dict, int) -> Slices
    """The finished and abandoned games the board keeps, oldest first, PAGE a reply: `n` (1 the
    oldest kept), `start` (the pegs), `finish` (the challenge: the hole the last peg should end in,
    or null), `moves`, `result` (pegs left, or "abandoned"), `seconds` (its time on; null for a game
    kept before the board kept time). The game in progress counts once it is over."""
    page = req.get("page", 0)
    if isinstance(page, bool) or not isinstance(page, int) or page < 0:
        raise ProtocolError("bad_args", "page must be 0 or more")
    return Slices(_records(app, page))


def _records(app, page):
    """cmd_records's reply, a kept game a pass: reading them all is the chip's longest request."""
    board = app.board
    out = []
    total = 0
    for start, code, result, moves, secs in games(app.store, True):
        if page * PAGE <= total < (page + 1) * PAGE:
            game = {"n": total + 1, "start": holes_of(start), "finish": code if 0 < code <= board.holes else None,
                    "moves": [board.move_of(j) for j in moves], "result": result if result else "abandoned",
                    "challenge": None, "met": None, "seconds": secs if secs >= 0 else None}
            if code:
                _judge(board, game, start, code, moves, result)
            out.append(game)
        total += 1
        yield None
    yield {"games": out, "page": page, "pages": (total + PAGE - 1) // PAGE, "total": total, "rows": board.rows}


def _judge(board, game, start, code, moves, result):
    """A kept game's challenge, and whether its end met it (an abandoned game did not)."""
    from pegfw.challenge import text_of

    game["challenge"] = text_of(code)
    game["met"] = met(board, start, code, moves) if result else False
