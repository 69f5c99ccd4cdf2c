"""The one reader of the board's NVM record (docs/protocol.md, "What the board keeps"): its header,
then its log an entry at a time, for start-up's replay (pegfw.store_log) and the games kept
(pegfw.store_records), so that both end the log at the same byte by the same rules. Loaded with
them and dropped after."""

from pegfw.nvm_format import (BEST, CHUNK, CONT, FREE, GOAL, HEAD, LAST_KIND, MAGIC, NEW, OVER, REC, RECT,
                              SOLVED, TIME, UNDO, VERSION, check2, crc32, goal_ok, mask_bytes)


def head(store):
    """The record's 16-byte header if it is sound: None if blank or foreign (no magic), False if
    it fails its checks (a version this firmware does not read, its CRC, another board's rows)."""
    nvm = store.nvm
    if nvm is None or len(nvm) < HEAD:
        return None
    rec = bytes(nvm[0:HEAD])
    if rec[0:2] != MAGIC:
        return None
    if rec[2] not in (1, 2, 3, VERSION) or crc32(rec[:HEAD - 4]) != int.from_bytes(rec[HEAD - 4:], "little") or \
            rec[10] != store.rows:
        return False
    return rec


def entries(store, out):
    """The log's entries in order (the caller read a sound header of version 2 to 4: head), yielded
    as their kinds, with `out` the caller's list of 5 (nothing allocated per entry): NEW, CONT, SET,
    CSET, a game begins: out[0] its start, out[1] its challenge, out[2] a new list its moves go into
    (moves are not yielded: most entries are moves; an undo pops one, then UNDO is yielded); GOAL:
    out[1]; OVER; ABANDON; TIME: out[4] the game's seconds so far; REC (and RECT, with out[4] its
    seconds), a game carried over: out[0] its start, out[1] finish, out[2] moves, out[3] result;
    BEST: out[0] start, out[1] challenge, out[3] pegs left, out[4] seconds; SOLVED: out[0] the
    puzzle; last FREE where the log ends, out[0] where (the next entry goes there)."""
    # An entry that makes no sense ends the log with no FREE (torn or damaged; the next write
    # compacts it): a byte no entry begins with; a start hole out of range, a mask byte over 127 (so
    # erased flash too), a mask off the board, a challenge goal_ok refuses; a REC whose length or
    # check fails; a move off the board's jumps; a move, undo, game over, abandon or challenge
    # outside a game (a clock too); an undo with no move; a second game over with no undo between;
    # a best off the board or with no peg. So does the NVM's end reached with no FREE (no room left).
    nvm, holes, full = store.nvm, store.holes, store.full()
    n, at = len(nvm), HEAD
    nmask = mask_bytes(holes)
    jumps = 3 * (store.rows - 1) * (store.rows - 2)  # the triangle's jumps: a move is one's index
    game = 0  # the game in progress's start (0: none)
    moves = None  # its moves
    scored = False
    want = size = 0  # an entry waiting for `size` bytes after its kind
    # the bytes after each kind, NEW (0xF0) to SOLVED (0xFC) in nvm_format's order: NEW 1, UNDO 0,
    # OVER 0, CONT 1, SET and CSET a mask and a challenge, ABANDON 0, REC its length (then what it
    # says), GOAL 1, TIME 3, RECT its length, BEST a mask, challenge, pegs and seconds, SOLVED 1
    sizes = bytes((1, 0, 0, 1, nmask + 1, nmask + 1, 0, 1, 1, 3, 1, nmask + 5, 1, 0, 0))
    data = []
    free, new, goal, over, undo, rec = FREE, NEW, GOAL, OVER, UNDO, REC  # locals: read at every byte
    while at < n:
        chunk = bytes(nvm[at:min(n, at + CHUNK)])
        for b in chunk:
            if want:
                data.append(b)
                if len(data) < size:
                    continue
                if (want == rec or want == RECT) and size == 1:  # its length: mask, finish, result, moves, check
                    extra = 3 if want == RECT else 0  # (RECT: the seconds after the result)
                    if not nmask + 4 + extra <= b <= nmask + 2 + extra + holes:  # (holes - 2 moves at most)
                        return
                    size = 1 + b
                    continue
                kind, want = want, 0
                if kind == rec or kind == RECT:
                    if not _record(data, nmask, full, holes, jumps, out, 3 if kind == RECT else 0):
                        return
                elif kind == TIME:
                    out[4] = _seconds(data, 0)
                    if not game or out[4] < 0:
                        return
                elif kind == BEST:
                    out[0] = _mask(data, 0, nmask)
                    out[1] = data[nmask]
                    out[3] = data[nmask + 1]
                    out[4] = _seconds(data, nmask + 2)
                    if not out[0] or out[0] & ~full or not goal_ok(out[1], holes) or not 0 < out[3] <= holes \
                            or out[4] < 0:
                        return
                elif kind == SOLVED:
                    if b > 127:
                        return
                    out[0] = b
                elif kind == goal:
                    if not game or not goal_ok(b, holes):
                        return
                    out[1] = b
                else:
                    if kind == new or kind == CONT:
                        if not 1 <= b <= holes:
                            return
                        game, b = full & ~(1 << (b - 1)), 0  # b: its challenge (none)
                    else:  # SET, CSET: the mask, then the challenge
                        game = _mask(data, 0, nmask)
                        if not game or game & ~full or not goal_ok(b, holes):
                            return
                    moves = []
                    scored = False
                    out[0] = game  # (one assignment each: a tuple assigned is a tuple made)
                    out[1] = b
                    out[2] = moves
                yield kind
            elif b < jumps:  # a move (tested first: a compaction reads the whole log)
                if not game:
                    return
                moves.append(b)
            elif b == free:
                out[0] = at + chunk.find(b"\xff")  # the chunk's first: no entry read holds one
                yield b
                return
            elif b < new or b > LAST_KIND:
                return  # no entry begins so
            elif sizes[b - new]:  # its bytes follow
                want = b
                data = []
                size = sizes[b - new]
            elif not game:
                return
            elif b == over:
                if scored:
                    return  # scored twice: damaged
                scored = True
                yield b
            elif b == undo:
                if not moves:
                    return
                moves.pop()
                scored = False  # an undo after the end takes the score back
                yield b
            else:  # ABANDON
                game = 0
                yield b
        at += len(chunk)


def _mask(data, at, nmask):
    """A start mask, 7 bits a byte from data[at]: 0 if a byte has its eighth bit (damaged)."""
    m = 0
    for k in range(nmask):
        if data[at + k] > 127:
            return 0
        m |= data[at + k] << (7 * k)
    return m


def _seconds(data, at):
    """3 bytes of 7 bits from data[at], low first: -1 if a byte has its eighth bit (damaged)."""
    if data[at] > 127 or data[at + 1] > 127 or data[at + 2] > 127:
        return -1
    return data[at] | data[at + 1] << 7 | data[at + 2] << 14


def _record(data, nmask, full, holes, jumps, out, extra):
    """A REC (extra 0) or RECT entry's (extra 3: the seconds) bytes after its kind (length first),
    complete, into out: start, finish, moves, result, seconds (-1: not kept); False if they make no
    sense (torn by a cut: its check fails)."""
    a, b = check2(data[:-2])
    if data[-2] != a or data[-1] != b:
        return False
    start = _mask(data, 1, nmask)
    out[4] = _seconds(data, 3 + nmask) if extra else -1
    if extra and out[4] < 0:
        return False
    moves = data[3 + nmask + extra:-2]
    for j in moves:
        if j >= jumps:
            return False
    out[0] = start
    out[1] = data[1 + nmask]
    out[2] = moves
    out[3] = data[2 + nmask]
    return start and not start & ~full and goal_ok(out[1], holes) and out[3] <= holes
