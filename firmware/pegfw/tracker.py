"""Follows the game from the stable sensor picture, whatever order hands move pegs in."""
# The accepted game position is `position`. A picture is judged against it (see `fit`):
# - the position itself, or a legal jump in progress: pegs changed only inside the three holes of
#   one legal jump (lift, remove the jumped peg, place: any order), or an undo in progress;
# - pegs in the hand: pegs missing anywhere else (a peg lifted elsewhere, even while a jump is half
#   made) are never an error, only placements can be;
# - illegal: a placement no legal jump (or undo) explains; its holes are flagged until the
#   picture makes sense again.
# A move is recorded when the picture is the jump's end picture (the jumper has left, the jumped
# peg is gone); reaching the position before the last move undoes it. Quick hands: one picture may
# hold a finished jump and the next one begun.
#
# New games: filling all holes but one (by any route, after a game of any length) starts a game,
# unless the picture is exactly a move or an undo of the game being played. A refill that is also
# a jump or undo in progress of that game is remembered as a possible new start (changing the start
# by one peg looks like half a jump; putting a move's pegs back looks like a refill); the game
# becomes that start's when a picture is settled for it (a placement its jumps explain, or its
# first move made) but not for the old game. A picture that is the old game's move made settles
# the old game (moving peg 2 into 1, then pulling 4 first, is 4 over 2 into 1 to the sensors).
# `play` starts a game from any pegs (begin_game); `setup` sets `target`, a wanted position: when
# the pegs match it, "setup_done" and a game from it (pegfw.position_requests).
#
# Ending a game with the hands: a board emptied of pegs ends the game in play (`emptied`, called by
# the App once the empty board has been stable for a settle time), unless the game's last jump is
# in the hand (two pegs left with a jump between them: both are lifted while it is made). The first
# placement after an empty board that the game cannot explain ends it at once. After game_over, a
# picture that is neither the final position nor an undo of the last move in progress is setup.
# In setup the position is the pegs as sensed (free play).
#
# After a resume (pegfw.resume.adopt), a picture the game cannot explain may be moves made while
# the firmware was down: it is not flagged at once; `catchup` stays set
# until a move has been followed and the picture matches the position, and meanwhile the App
# searches for such moves from the resumed position `base` (pegfw.resume.Catchup).
# Events are tuples: the protocol event's name, then its fields, at the positions named below:
# ("lift" | "place", HOLE), ("new_game", EMPTY, START), ("move", JUMP, PEGS_LEFT), ("undo", JUMP),
# ("illegal", HOLES), ("recovered",), ("game_over", VERDICT, PEGS_LEFT), ("setup", REASON) (the
# game ended: "emptied" — abandoned —, "game_over" — a picture after the end —, "request"),
# ("setup_done",) (the pegs match the wanted position). EMPTY is None for a hand-set start. Tuples, not objects:
# each picture makes a few, and the chip's heap is small.

from pegcore.rules import has_move, holes_of, popcount, verdict

HOLE = EMPTY = JUMP = HOLES = VERDICT = REASON = 1  # an event's first field: what it is about
PEGS_LEFT = START = 2

MAX_STARTS = 3  # possible new starts remembered while no move has been made


def _lowest_hole(mask):
    h = 1
    while mask and not mask & 1:
        mask >>= 1
        h += 1
    return h


class Tracker:
    def __init__(self, board):
        self.board = board
        self.by_flip = {}  # the three holes a jump flips -> the jumps that flip them (one each way)
        for j in range(len(board.flip)):
            self.by_flip[board.flip[j]] = self.by_flip.get(board.flip[j], ()) + (j,)
        self.mode = "setup"
        self.position = 0
        self.sensed = 0
        self.before = 0  # the picture before this one
        self.empty_start = None  # the start's empty hole, when the start is a full board less one
        self.start = 0  # the pegs the game began with (0: no game)
        self.finish = None  # the hole the last peg should end in (a `play` with a finish), or None
        self.goal = 0  # the game's challenge code (pegfw.nvm_format; pegfw.challenge), 0: none
        self.target = 0  # a position the board waits for the hands to set (`setup`), or 0
        self.target_goal = 0  # the challenge of the game that starts once it is set (a review's retry)
        self.ref = 0  # setup: the picture before the pegs now in the hand were lifted
        self.moves = []
        self.lifted = None
        self.landing = 0
        self.bad = 0
        self.pending = 0  # jumped peg still to pull out, when a jump is half done
        self.starts = []  # possible new starts (full boards less one hole) before the first move
        self.catchup = False  # after a resume, until the picture matches the position
        self.base = (0, 0)  # the resumed game: its number of moves and position
        self.live = False  # a move followed from the pictures since the resume (or a found line)
        self.version = 0  # counts judged pictures: the lights' steady frame is redrawn when it moves

    # -- entry points --------------------------------------------------------------------------
    def reset(self, mask):
        """Adopt a whole-board read (power-on, queue overflow, resync)."""
        events = []
        self.before = self.sensed
        self.sensed = mask & self.board.full
        self.judge(events)
        return events

    def sense(self, mask):
        """A new stable picture; returns the events it causes."""
        mask &= self.board.full
        events = []
        changed = mask ^ self.sensed
        if not changed:
            return events
        h = 1
        m = changed
        while m:
            if m & 1:
                events.append(("place", h) if mask >> (h - 1) & 1 else ("lift", h))
            m >>= 1
            h += 1
        self.before = self.sensed
        self.sensed = mask
        self.judge(events)
        return events

    # -- judging -------------------------------------------------------------------------------
    def judge(self, events):
        s = self.sensed
        if self.target:
            self.position = s
            if s == self.target:
                self.target = 0
                events.append(("setup_done",))
                if has_move(self.board, s):  # pegs with no jump stay free play: no game to score
                    self.begin_game(events, s, self.target_goal)
                self.target_goal = 0
        elif self.mode == "setup":
            self._setup(events)
        elif self.mode == "over" and s != self.position and self.fit(self.position, s, self.previous()) >= 2:
            self.to_setup(events, "game_over")  # neither the end nor an undo of the last move
            self._setup(events)
        elif self.before == 0 and s and self.fit(self.position, s, self.previous()) == 3:
            self.to_setup(events, "emptied")  # the board was emptied, then set anew: quick hands
            self._setup(events)
        else:
            self._play(events)
        if self.catchup and self.live and self.sensed == self.position:
            self.catchup = False  # followed through a whole move since the resume: in step again
        self.update_lifted()
        self.version += 1

    def _setup(self, events):
        s = self.sensed
        if s & ~self.ref or not self.ref:
            self.ref = s  # a placement: the pegs in the hand are put down
        if popcount(s) == self.board.holes - 1:
            self.begin_game(events, s)
        else:
            self.position = s

    def emptied(self):
        """The board has been empty for the settle time: the game in play ends (abandoned), unless
        its last jump is in the hand. Returns the events."""
        events = []
        if self.sensed or self.target or self.mode == "setup":
            return events
        if self.last_jump(self.position):
            return events  # both pegs lifted for the last jump: a jump in progress
        self.to_setup(events, "game_over" if self.mode == "over" else "emptied")
        self.update_lifted()
        self.version += 1
        return events

    def last_jump(self, p):
        """Two pegs with a jump between them: an empty board is that jump in the hand (both pegs
        are lifted while it is made), live or after a reset (pegfw.resume)."""
        return popcount(p) == 2 and has_move(self.board, p)

    def to_setup(self, events, reason):
        """End the game (if any): the board is in setup, its position the pegs as sensed."""
        self._leave_illegal(events)
        had = self.mode != "setup"
        self.mode = "setup"
        self.moves = []
        self.start = 0
        self.empty_start = None
        self.finish = None
        self.goal = 0
        self.starts = []
        self.catchup = False
        self.bad = 0
        self.position = self.sensed
        self.ref = self.sensed
        if had:
            events.append(("setup", reason))

    def _play(self, events):
        """A game in play: moves, undos, and the start changing (see the module's docstring)."""
        s, p = self.sensed, self.position
        prev = self.previous()
        if s != p and s != prev and self._move_to(p, s) < 0:
            cur = self.fit(p, s, prev)
            for c in self.starts:
                moved = self._move_to(c, s) >= 0
                settled = moved or (s & ~c and self.fit(c, s, -1) == 1)
                if settled and (cur >= 2 or (moved and cur >= 1)):
                    self.begin_game(events, c)
                    self._follow(events)
                    return
            if popcount(s) == self.board.holes - 1:
                if cur >= 2:
                    self.begin_game(events, s)
                    return
                if s not in self.starts:
                    self.starts.append(s)
                    if len(self.starts) > MAX_STARTS:
                        self.starts.pop(0)
        self._follow(events)

    def begin_game(self, events, s, goal=0):
        """A game from the pegs `s`; `goal`: its challenge code (pegfw.nvm_format: a finish hole's
        is the hole), 0 none."""
        self._leave_illegal(events)
        full_less_one = popcount(s) == self.board.holes - 1
        self.empty_start = _lowest_hole(self.board.full & ~s) if full_less_one else None
        self.start = s
        self.set_goal(goal)
        self.moves = []
        self.position = s
        self.mode = "play"
        self.bad = 0
        self.starts = []
        self.catchup = False
        events.append(("new_game", self.empty_start, s))

    def set_goal(self, code):
        """The game's challenge (a code, pegfw.nvm_format): a finish hole is `finish` as well."""
        self.goal = code
        self.finish = code if 0 < code <= self.board.holes else None

    def previous(self):
        if not self.moves:
            return -1
        return self.position ^ self.board.flip[self.moves[-1]]

    def _move_to(self, p, s):
        """The legal jump that takes p to s, or -1."""
        b = self.board
        diff = s ^ p
        if popcount(diff) != 3:
            return -1
        # the jumps that flip exactly these holes (by_flip), not a loop over every jump: a
        # landing's pass is on the hint's wait
        js = self.by_flip.get(diff)
        if js is None:
            return -1
        for j in js:
            if p & b.need[j] == b.need[j] and not p & b.land[j]:
                return j
        return -1

    def record(self, j, events):
        self._leave_illegal(events)
        self.live = True
        self.moves.append(j)
        self.starts = []
        self.position ^= self.board.flip[j]
        left = popcount(self.position)
        events.append(("move", j, left))
        self.mode = "play"
        if not has_move(self.board, self.position):
            self.over(events)

    def over(self, events):
        left = popcount(self.position)
        self.mode = "over"
        events.append(("game_over", verdict(left), left))

    def _follow(self, events):
        b, s, p = self.board, self.sensed, self.position
        j = self._move_to(p, s)
        if j >= 0:
            self.record(j, events)
            return
        prev = self.previous()
        if s == prev:
            j = self.moves.pop()
            self._leave_illegal(events)
            self.starts = []
            self.position = s
            self.mode = "play"
            events.append(("undo", j))
            return
        fit = self.fit(p, s, prev)
        if fit <= 1:  # the position, or a hand at work
            self._leave_illegal(events)
            return
        # Quick hands: a finished jump (jumper gone, jumped peg gone, a peg in its landing hole;
        # or, when nothing else explains the picture, the jumper already in its next landing
        # hole) whose own picture the scan missed (two or more holes changed at once), and the
        # next one begun. One stray peg cannot fake it: two jumps into one hole share no other
        # hole.
        diff = s ^ self.before
        missed = diff & (diff - 1)  # two or more holes changed at once: a picture may be missing
        for j in range(len(b.need)):
            if missed and p & b.need[j] == b.need[j] and not p & b.land[j] and not s & b.need[j]:
                after = p ^ b.flip[j]
                if (s & b.land[j] or (fit == 3 and s & ~after)) and self.fit(after, s, -1) <= 1:
                    self.record(j, events)
                    self._follow(events)
                    return
        if fit == 2:  # pegs in the hand
            self._leave_illegal(events)
            return
        if not self.catchup:  # after a resume the search for moves made meanwhile comes first
            self.flag(events)

    def flag(self, events):
        """The picture has placements nothing explains: flag them until it makes sense again."""
        s, p = self.sensed, self.position
        bad = s & ~p  # placements nothing explains
        if self.mode != "illegal" or bad != self.bad:
            self.mode = "illegal"
            self.bad = bad
            self.version += 1
            events.append(("illegal", holes_of(bad)))

    def fit(self, p, s, prev):
        """How picture s stands to position p (prev: the position before p's last move, or -1):
        0 the position; 1 a legal jump or an undo in progress (only its holes changed);
        2 the same with pegs in the hand elsewhere; 3 a placement nothing explains."""
        if s == p:
            return 0
        b = self.board
        added = s & ~p
        missing = p & ~s
        best = 3 if added else 2
        if prev >= 0 and not added & ~prev:  # an undo refills only the holes the move emptied
            if not (s ^ p) & ~(prev ^ p):
                return 1
            best = 2
        need, land, flip = b.need, b.land, b.flip
        for j in range(len(need)):
            if added & ~land[j] or p & need[j] != need[j] or p & land[j]:
                continue
            if not missing & ~flip[j]:
                return 1
            best = 2
        return best

    def _leave_illegal(self, events):
        if self.mode == "illegal":
            self.mode = "over" if not has_move(self.board, self.position) else "play"
            self.bad = 0
            events.append(("recovered",))

    def update_lifted(self):
        """The lifted peg (exactly one peg missing from the position) and where it may land; a
        half-done jump's peg still to remove."""
        b, s, p = self.board, self.sensed, self.position
        self.lifted = None
        self.landing = 0
        self.pending = 0
        if self.mode == "illegal" or self.target:
            return
        if self.mode == "setup":
            p = self.ref  # free play: a lifted peg lights its landings as in a game
        missing = p & ~s
        added = s & ~p
        if missing and not missing & (missing - 1) and not added:
            i = _lowest_hole(missing) - 1
            self.lifted = i + 1
            for j in range(len(b.need)):
                if b.jump_from[j] == i and p & b.need[j] == b.need[j] and not p & b.land[j]:
                    self.landing |= b.land[j]
        elif added and not added & (added - 1):
            for j in range(len(b.need)):
                f = 1 << b.jump_from[j]
                if b.land[j] == added and missing == f and p & b.need[j] == b.need[j]:
                    self.pending = 1 << b.jump_over[j]
