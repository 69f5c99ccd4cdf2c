"""Stats and the game in progress, in microcontroller.nvm: a 16-byte header (versioned, CRC) then a
log of entries in erased flash (0xFF): a new game and its start (one byte for a full board less
one hole; a hole mask and a finish hole for a start set by hand), each move, each undo, each scored
game over, each game abandoned (the board emptied). The log is what makes a resume exact: the very
moves played.

Flash wears out by erases (W25Q16JV: at least 100,000 per 4 KB sector). CircuitPython's RP2040 nvm
programs bytes that are all 0xFF without erasing and erases the sector for any other write, so
an entry costs no erase; the sector is erased only when the log is full (about 250 games) and
rewritten with the totals in the header and the game in progress (docs/protocol.md: `stats`).
A header that fails its checks is ignored, never trusted; a log entry that makes no sense ends
the log (the next write compacts it)."""

from pegcore.rules import popcount

MAGIC = b"PB"
VERSION = 3
# magic 2, version 1, games 2, wins 2, best 1, abandoned 2 (v1: byte 8 the empty start; v2: 0),
# rows 1, pad 1, crc 4
HEAD = 16
FREE = 0xFF
NEW = 0xF0    # + start hole: a game begins (counted)
UNDO = 0xF1   # the last move was put back
OVER = 0xF2   # the game ended and was scored
CONT = 0xF3   # + start hole: the game in progress, carried over by a compaction (not counted again)
SET = 0xF4    # + start mask (7 bits a byte) + finish hole (0: none): a game from a hand-set start
CSET = 0xF5   # the same, carried over by a compaction
ABANDON = 0xF6  # the game in progress ended unfinished (the board emptied)
CHUNK = 64    # bytes read at a time at start-up


def mask_bytes(holes):
    """Bytes of a start mask in the log: 7 bits each, so no byte of it reads as erased flash
    (0xFF) and a torn entry is seen as one."""
    return (holes + 6) // 7


def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


class Store:
    def __init__(self, nvm, rows):
        self.nvm = nvm
        self.rows = rows
        self.holes = rows * (rows + 1) // 2
        self.games = 0
        self.wins = 0
        self.best = 0  # fewest pegs ever left; 0 = no finished game yet
        self.abandoned = 0  # games ended with moves made but not finished (emptied, or replaced)
        self.start = 0        # the game in progress: the pegs it began with (0: none)
        self.finish = 0       # its finish hole (0: none)
        self.moves = []       # its moves (jump indices), as logged
        self.end = None       # where the next entry goes; None: the log must be rewritten first
        self.writes = 0       # nvm assignments since power-on
        self.erases = 0       # of which erased the sector
        self.corrupt = False
        self._load()

    # -- reading -----------------------------------------------------------------------------
    def _load(self):
        nvm = self.nvm
        if nvm is None or len(nvm) < HEAD:
            return
        rec = bytes(nvm[0:HEAD])
        if rec[0:2] != MAGIC:
            return  # blank or foreign: start fresh
        body, crc = rec[:HEAD - 4], rec[HEAD - 4:]
        if rec[2] not in (1, 2, VERSION) or crc32(body) != int.from_bytes(crc, "little") or rec[10] != self.rows:
            self.corrupt = True
            return
        self.games = rec[3] | rec[4] << 8
        self.wins = rec[5] | rec[6] << 8
        self.best = rec[7]
        if rec[2] == 1:  # the record before the log: a start hole, no moves (rewritten at the next write)
            if 1 <= rec[8] <= self.holes:
                self._begin(self.full() & ~(1 << (rec[8] - 1)), 0, False)
            return
        self.abandoned = rec[8] | rec[9] << 8  # v2 wrote zeros there
        self._replay()

    def full(self):
        return (1 << self.holes) - 1

    def empty_start(self):
        """The game in progress's empty hole, if its start is a full board less one (else 0)."""
        gap = self.full() & ~self.start
        if not self.start or gap & (gap - 1):
            return 0
        h = 1
        while gap > 1:
            gap >>= 1
            h += 1
        return h

    def _begin(self, start, finish, counted):
        if counted:
            if self.start and self.moves:
                self.abandoned = min(self.abandoned + 1, 65535)  # replaced by a new game unfinished
            self.games = min(self.games + 1, 65535)
        self.start, self.finish, self.moves = start, finish, []

    def _replay(self):
        nvm, n = self.nvm, len(self.nvm)
        at = HEAD
        want = 0  # an entry waiting for its data bytes
        data = []
        size = 0
        nmask = mask_bytes(self.holes)
        while at < n:
            chunk = bytes(nvm[at:min(n, at + CHUNK)])
            for i in range(len(chunk)):
                b = chunk[i]
                if want:
                    data.append(b)
                    if len(data) < size:
                        continue
                    if not self._start_entry(want, data):
                        return  # torn or damaged: the log ends here; compact at the next write
                    want = 0
                elif b == FREE:
                    self.end = at + i
                    return
                elif b == NEW or b == CONT:
                    want, data, size = b, [], 1
                elif b == SET or b == CSET:
                    want, data, size = b, [], nmask + 1
                elif not self.start:
                    return  # a move, undo, game over or abandon outside a game: damaged
                elif b == OVER:
                    self._score(popcount(self.start) - len(self.moves))
                elif b == ABANDON:
                    self._abandon()
                elif b == UNDO:
                    if not self.moves:
                        return
                    self.moves.pop()
                elif b < NEW:
                    self.moves.append(b)
                else:
                    return
            at += len(chunk)

    def _start_entry(self, kind, data):
        """A new or carried-over game's entry, complete: False if its bytes make no sense."""
        if kind == NEW or kind == CONT:
            if not 1 <= data[0] <= self.holes:
                return False
            start, finish = self.full() & ~(1 << (data[0] - 1)), 0
        else:
            start = 0
            for k in range(len(data) - 1):
                if data[k] > 127:
                    return False
                start |= data[k] << (7 * k)
            finish = data[-1]
            if not start or start & ~self.full() or finish > self.holes:
                return False
        self._begin(start, finish, kind == NEW or kind == SET)
        return True

    def _start_bytes(self, new):
        """The log entry that begins the game in progress (`new`: counted; else carried over)."""
        empty = self.empty_start()
        if empty and not self.finish:
            return bytes((NEW if new else CONT, empty))
        out = bytearray((SET if new else CSET,))
        m = self.start
        for _ in range(mask_bytes(self.holes)):
            out.append(m & 127)
            m >>= 7
        out.append(self.finish)
        return bytes(out)

    def _score(self, pegs_left):
        if pegs_left == 1:
            self.wins = min(self.wins + 1, 65535)
        if self.best == 0 or pegs_left < self.best:
            self.best = pegs_left
        self.start, self.finish, self.moves = 0, 0, []

    def _abandon(self):
        if self.moves:
            self.abandoned = min(self.abandoned + 1, 65535)
        self.start, self.finish, self.moves = 0, 0, []

    # -- writing -----------------------------------------------------------------------------
    def header(self):
        body = bytearray(HEAD - 4)
        body[0:2] = MAGIC
        body[2] = VERSION
        body[3], body[4] = self.games & 255, self.games >> 8 & 255
        body[5], body[6] = self.wins & 255, self.wins >> 8 & 255
        body[7] = self.best
        body[8], body[9] = self.abandoned & 255, self.abandoned >> 8 & 255
        body[10] = self.rows
        return bytes(body) + crc32(body).to_bytes(4, "little")

    def _room(self, n):
        """Make room for an n-byte entry before the state it records changes (a compaction
        writes the state as it stands)."""
        if self.nvm is not None and (self.end is None or self.end + n > len(self.nvm)):
            self._compact()

    def _append(self, entry):
        nvm = self.nvm
        if nvm is None:
            return
        at = self.end or HEAD  # _room made it a number
        nvm[at:at + len(entry)] = entry  # into 0xFF bytes: programmed, no erase
        self.end = at + len(entry)
        self.writes += 1

    def _compact(self):
        """Erase and rewrite the sector: the totals in the header, the game in progress after it
        (one assignment: one erase)."""
        log = bytearray()
        if self.start:
            log.extend(self._start_bytes(False))
            log.extend(bytes(self.moves))
        n = len(self.nvm)
        if not self._blank():
            self.erases += 1
        try:
            sector = bytearray(n)  # the one 4 KB block this needs (no concatenated copies)
        except MemoryError:  # the heap in pieces: collect, then try once more
            import gc

            gc.collect()
            sector = bytearray(n)
        ff = b"\xff" * CHUNK
        for at in range(0, n, CHUNK):  # erased flash reads 0xFF
            sector[at:at + CHUNK] = ff[:min(CHUNK, n - at)]
        sector[0:HEAD] = self.header()
        sector[HEAD:HEAD + len(log)] = log
        self.nvm[0:n] = sector
        self.end = HEAD + len(log)
        self.writes += 1

    def _blank(self):
        """All 0xFF (a new chip's sector): written without an erase."""
        nvm, n = self.nvm, len(self.nvm)
        free = b"\xff" * CHUNK
        for at in range(0, n, CHUNK):
            chunk = bytes(nvm[at:min(n, at + CHUNK)])
            if chunk != free[:len(chunk)]:
                return False
        return True

    def new_game(self, start, finish=None):
        """A game from `start` (a hole mask) begins; `finish`: the hole its last peg should end in."""
        self._room(2 + mask_bytes(self.holes))
        self._begin(start, finish or 0, True)
        self._append(self._start_bytes(True))

    def move(self, jump):
        if self.start:
            self._room(1)
            self.moves.append(jump)
            self._append(bytes((jump,)))

    def undo(self):
        if self.start and self.moves:
            self._room(1)
            self.moves.pop()
            self._append(bytes((UNDO,)))

    def abandon(self):
        """The board was emptied: the game in progress ends unfinished (counted if it had moves)."""
        if self.start:
            self._room(1)
            self._abandon()
            self._append(bytes((ABANDON,)))

    def game_over(self, pegs_left):
        """Score the game; the log says so, so a resume never scores it again."""
        if not self.start:  # a game the log lost: the totals go in the header
            self._score(pegs_left)
            if self.nvm is not None:
                self._compact()
            return
        self._room(1)
        self._score(pegs_left)
        self._append(bytes((OVER,)))
