"""Stats and the game in progress, in microcontroller.nvm: a 16-byte header (versioned, CRC) then a
log of one-byte entries in erased flash (0xFF): a new game and its start hole, each move, each
undo, each scored game over. The log is what makes a resume exact: the very moves played.

Flash wears out by erases (W25Q16JV: at least 100,000 per 4 KB sector). CircuitPython's RP2040 nvm
programs bytes that are all 0xFF without erasing and erases the sector for any other write, so
an entry costs no erase; the sector is erased only when the log is full (about 250 games) and
rewritten with the totals in the header and the game in progress (docs/protocol.md: `stats`).
A header that fails its checks is ignored, never trusted; a log entry that makes no sense ends
the log (the next write compacts it)."""

MAGIC = b"PB"
VERSION = 2
HEAD = 16  # magic 2, version 1, games 2, wins 2, best 1, (v1: empty_start) 1, rows 1, pad 2, crc 4
FREE = 0xFF
NEW = 0xF0    # + start hole: a game begins (counted)
UNDO = 0xF1   # the last move was put back
OVER = 0xF2   # the game ended and was scored
CONT = 0xF3   # + start hole: the game in progress, carried over by a compaction (not counted again)
CHUNK = 64    # bytes read at a time at start-up


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
        self.empty_start = 0  # the game in progress (0: none)
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
        if rec[2] not in (1, VERSION) or crc32(body) != int.from_bytes(crc, "little") or rec[10] != self.rows:
            self.corrupt = True
            return
        self.games = rec[3] | rec[4] << 8
        self.wins = rec[5] | rec[6] << 8
        self.best = rec[7]
        if rec[2] == 1:  # the record before the log: a start hole, no moves (rewritten at the next write)
            self.empty_start = rec[8]
            return
        self._replay()

    def _replay(self):
        nvm, n = self.nvm, len(self.nvm)
        at = HEAD
        want = 0  # an entry waiting for its start hole
        while at < n:
            chunk = bytes(nvm[at:min(n, at + CHUNK)])
            for i in range(len(chunk)):
                b = chunk[i]
                if want:
                    if not 1 <= b <= self.holes:
                        return  # torn or damaged: the log ends here; compact at the next write
                    if want == NEW:
                        self.games = min(self.games + 1, 65535)
                    self.empty_start, self.moves, want = b, [], 0
                elif b == FREE:
                    self.end = at + i
                    return
                elif b == NEW or b == CONT:
                    want = b
                elif not self.empty_start:
                    return  # a move, undo or game over outside a game: damaged
                elif b == OVER:
                    self._score(self.holes - 1 - len(self.moves))
                elif b == UNDO:
                    if not self.moves:
                        return
                    self.moves.pop()
                elif b < NEW:
                    self.moves.append(b)
                else:
                    return
            at += len(chunk)

    def _score(self, pegs_left):
        if pegs_left == 1:
            self.wins = min(self.wins + 1, 65535)
        if self.best == 0 or pegs_left < self.best:
            self.best = pegs_left
        self.empty_start, self.moves = 0, []

    # -- writing -----------------------------------------------------------------------------
    def header(self):
        body = bytearray(HEAD - 4)
        body[0:2] = MAGIC
        body[2] = VERSION
        body[3], body[4] = self.games & 255, self.games >> 8 & 255
        body[5], body[6] = self.wins & 255, self.wins >> 8 & 255
        body[7] = self.best
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
        if self.empty_start:
            log.append(CONT)
            log.append(self.empty_start)
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

    def new_game(self, empty):
        self._room(2)
        self.games = min(self.games + 1, 65535)
        self.empty_start, self.moves = empty, []
        self._append(bytes((NEW, empty)))

    def move(self, jump):
        if self.empty_start:
            self._room(1)
            self.moves.append(jump)
            self._append(bytes((jump,)))

    def undo(self):
        if self.empty_start and self.moves:
            self._room(1)
            self.moves.pop()
            self._append(bytes((UNDO,)))

    def game_over(self, pegs_left):
        """Score the game; the log says so, so a resume never scores it again."""
        if not self.empty_start:  # a game the log lost: the totals go in the header
            self._score(pegs_left)
            if self.nvm is not None:
                self._compact()
            return
        self._room(1)
        self._score(pegs_left)
        self._append(bytes((OVER,)))
