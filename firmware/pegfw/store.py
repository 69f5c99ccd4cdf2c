"""Stats and the game in progress, in microcontroller.nvm: a 16-byte header (versioned, CRC) then a
log of entries in erased flash (0xFF): a new game and its start (one byte for a full board less
one hole; a hole mask and a finish hole for a start set by hand), each move, each undo, each scored
game over, each game abandoned (the board emptied). The log is what makes a resume exact: the very
moves played."""
# Flash wears out by erases (W25Q16JV: at least 100,000 per 4 KB sector). CircuitPython's RP2040 nvm
# programs bytes that are all 0xFF without erasing and erases the sector for any other write, so
# an entry costs no erase; the sector is erased only when the log is nearly full (every 20 to 25
# games of 72 log bytes after a compaction that carried the kept games: docs/protocol.md), in a
# loop pass where nobody plays (pegfw.app), and rewritten with the totals in the header,
# the game in progress and the newest finished and abandoned games (REC entries: the `records`
# request reads them and the log's own games back) (docs/protocol.md, "What the board keeps": the
# window a power cut there can cost, and what).
# A header that fails its checks is ignored, never trusted; a log entry that makes no sense ends
# the log (the next write compacts it): pegfw.store_log reads it at start-up.

from pegfw import ondemand
from pegfw.clock import ticks_diff
from pegfw.nvm_format import (ABANDON, CONT, CSET, GOAL, HEAD, NEW, OVER, SECONDS_MAX, SET, SOLVED, TIME, UNDO,
                              mask_bytes, seconds_bytes)

ROOM = 256  # free log bytes (at most a quarter of the NVM) below which the App rewrites the record
# in an idle pass (pegfw.app): a game is at most ~35 entries, so a long game never fills it


class Store:
    """The totals and the game in progress, and the writing of their record (pegfw.store_log
    reads it at start-up)."""

    def __init__(self, nvm, rows, ticks=None):
        self.nvm = nvm
        self.ticks = ticks    # the board's ms clock (supervisor.ticks_ms): a game's time on
        self.rows = rows
        self.holes = rows * (rows + 1) // 2
        self.games = 0
        self.wins = 0
        self.best = 0  # fewest pegs ever left; 0 = no finished game yet
        self.abandoned = 0  # games ended with moves made but not finished (emptied, or replaced)
        self.start = 0        # the game in progress: the pegs it began with (0: none)
        self.goal = 0         # its challenge (nvm_format.goal_ok: 1..28 a finish hole; 0 none)
        self.moves = []       # its moves (jump indices), as logged
        self.scored = False   # it ended and is counted in the totals (an undo takes that back)
        self.won = 0          # what the score added to wins (1 or 0) ...
        self.best_before = 0  # ... and best before it
        self.end = None       # where the next entry goes; None: the log must be rewritten first
        self.writes = 0       # nvm assignments since power-on
        self.erases = 0       # of which erased the sector
        self.corrupt = False  # pegfw.store_log.load fills all this in from the NVM
        self.rewriting = None  # a rewrite of the record under way (compact_step)
        self.played = 0       # ms the game in progress was played before `since` (kept: TIME entries)
        self.since = None     # the tick its clock runs from (None: stopped, the game over or none)
        self.bests = []       # personal bests, oldest set first: start, challenge, pegs << 22 | seconds (pegfw.bests)
        self.solved = bytearray(16)  # the board's puzzles solved, a bit each (SOLVED entries)

    # -- reading -----------------------------------------------------------------------------
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

    def begin(self, start, goal, counted):
        """A game from `start` begins (`counted`: a new game, not one carried over)."""
        if counted:
            if self.start and self.moves and not self.scored:
                self.abandoned = min(self.abandoned + 1, 65535)  # replaced by a new game unfinished
            self.games = min(self.games + 1, 65535)
        self.start, self.goal, self.moves, self.scored = start, goal, [], False
        self.played = 0
        self.run_clock()

    # -- the clock ---------------------------------------------------------------------------
    def run_clock(self):
        """The game's clock runs from now (a game begins, the board starts up mid-game, an undo
        takes a game over back): the time the board was off is not counted."""
        self.since = self.ticks() if self.ticks is not None and self.start else None

    def seconds(self):
        """Whole seconds the game in progress has been played (its time on)."""
        ms = self.played
        if self.since is not None:
            ms += ticks_diff(self.ticks(), self.since)
        return min(ms // 1000, SECONDS_MAX)

    def _clock_entry(self, stop):
        """The TIME entry of the clock now (`stop`: the game is over: it stops)."""
        if self.since is not None:
            now = self.ticks()
            self.played += ticks_diff(now, self.since)
            self.since = None if stop else now
        return bytes((TIME,)) + seconds_bytes(min(self.played // 1000, SECONDS_MAX))

    # -- puzzles -----------------------------------------------------------------------------
    def is_solved(self, n):
        return 0 <= n < 128 and self.solved[n >> 3] >> (n & 7) & 1 == 1

    def mark_solved(self, n):
        """Puzzle `n` of the board's table was solved: kept (once)."""
        if 0 <= n < 128 and not self.is_solved(n):
            self._room(2)
            self.solved[n >> 3] |= 1 << (n & 7)
            self._append(bytes((SOLVED, n)))

    def start_bytes(self, new):
        """The log entry that begins the game in progress (`new`: counted; else carried over)."""
        empty = self.empty_start()
        if empty and not self.goal:
            return bytes((NEW if new else CONT, empty))
        out = bytearray((SET if new else CSET,))
        m = self.start
        for _ in range(mask_bytes(self.holes)):
            out.append(m & 127)
            m >>= 7
        out.append(self.goal)
        return bytes(out)

    def score(self, pegs_left):
        """Count the game in the totals, once; it stays the game in progress, so an undo of its
        last move can take the score back (unscore) and the redo scores it again."""
        if self.scored:
            return
        self.scored = True
        self.won = 1 if pegs_left == 1 and self.wins < 65535 else 0
        self.best_before = self.best
        self.wins += self.won
        if self.best == 0 or pegs_left < self.best:
            self.best = pegs_left

    def unscore(self):
        if self.scored:
            self.scored = False
            self.wins -= self.won
            self.best = self.best_before

    def end_unfinished(self):
        if self.moves and not self.scored:
            self.abandoned = min(self.abandoned + 1, 65535)
        self.start, self.goal, self.moves, self.scored = 0, 0, [], False
        self.since = None

    # -- writing -----------------------------------------------------------------------------
    def _room(self, n):
        """Make room for an n-byte entry before the state it records changes (a compaction
        writes the state as it stands)."""
        if self.nvm is not None and (self.end is None or self.end + n > len(self.nvm)):
            self.compact()  # the last resort: the App compacts in an idle pass long before

    def low_on_room(self):
        """The log is nearly full (or must be rewritten): time to compact, while nobody plays."""
        n = len(self.nvm) if self.nvm is not None else 0
        return n > 0 and (self.end is None or self.end + min(ROOM, n // 4) > n)

    def compact(self, buffer_first=True):
        """Rewrite the record at once (pegfw.store_records.compact): its code is loaded for it.
        `buffer_first`: its 4 KB buffer first, while the heap is whole (compiling the code leaves it
        in pieces); False at start-up, where the heap is in pieces already: the rewrite makes one only
        if it erases (a new board's blank sector is programmed in place with none)."""
        self.rewriting = None
        sector = bytearray(len(self.nvm)) if buffer_first and self.nvm is not None else None
        ondemand.load("pegfw.store_records").compact(self, sector)
        self._drop_code()

    def _drop_code(self):
        """A rewrite's code leaves the heap: it read the games (store_games), the log (store_tokens)
        and wrote the bests (bests) with it."""
        for name in ("pegfw.store_records", "pegfw.store_games", "pegfw.store_tokens", "pegfw.bests"):
            ondemand.unload(name)

    def compact_step(self):
        """One slice of a rewrite of the record (pegfw.store_records.rewrite), in a loop pass where
        nobody plays; True once it is done (written, or given up as an entry came)."""
        if self.rewriting is None:
            self.rewriting = ondemand.load("pegfw.store_records").rewrite(self)
        try:
            next(self.rewriting)
            return False
        except StopIteration:
            self.compact_stop()
            return True

    def compact_stop(self):
        """Drop a rewrite under way (someone plays again): its 4 KB buffer and its code."""
        if self.rewriting is not None:
            self.rewriting = None
            self._drop_code()

    def _append(self, entry):
        nvm = self.nvm
        if nvm is None:
            return
        at = self.end or HEAD  # _room made it a number
        nvm[at:at + len(entry)] = entry  # into 0xFF bytes: programmed, no erase
        self.end = at + len(entry)
        self.writes += 1

    def new_game(self, start, goal=0):
        """A game from `start` (a hole mask) begins; `goal`: its challenge code (a finish hole
        1..28, or nvm_format's LEAVE_CODE / MOST_CODE + n), 0 none."""
        self._room(2 + mask_bytes(self.holes))
        self.begin(start, goal, True)
        self._append(self.start_bytes(True))

    def set_goal(self, code):
        """A challenge set (or cleared: 0) for the game in progress after its start."""
        if self.start and code != self.goal:
            self._room(2)
            self.goal = code
            self._append(bytes((GOAL, code)))

    def move(self, jump):
        """A move, with the game's clock (one write: a power cut loses only the time since)."""
        if self.start:
            self._room(5)
            self.moves.append(jump)
            self._append(bytes((jump,)) + self._clock_entry(False))

    def undo(self):
        """The last move was put back (after the end too: the score is taken back)."""
        if self.start and self.moves:
            self._room(1)
            if self.scored:
                self.run_clock()  # the game goes on: so does its clock
            self.unscore()
            self.moves.pop()
            self._append(bytes((UNDO,)))

    def abandon(self):
        """The game in progress ends for good (the board emptied, a picture after its end, a
        `setup` request): counted as abandoned if it had moves and was not scored."""
        if self.start:
            self._room(1)
            self.end_unfinished()
            self._append(bytes((ABANDON,)))

    def game_over(self, pegs_left, best=b""):
        """Score the game, once (a resumed game that ended is not scored again); the log says
        so, so a replay scores it once too. Its clock stops and is kept; `best`: the BEST entry of
        a new personal best (pegfw.bests.take), kept in the same write."""
        if self.scored or not self.start:  # scored already; or no game here to score (never begun)
            return
        self._room(6 + 5 + mask_bytes(self.holes))
        self.score(pegs_left)
        # the best first: a cut after it and before OVER scores the game at resume, as no new best again
        self._append(best + self._clock_entry(True) + bytes((OVER,)))
