"""Follows the game from the stable sensor picture, whatever order hands move pegs in.

The accepted game position is `position`. Any picture that differs from it only inside the three
holes of one legal jump is that jump in progress (lift, remove the jumped peg, place: any order).
Reaching the jump's end picture makes the move; reaching the position before the last move undoes
it. A placement no legal jump (or undo) explains is illegal: its holes are flagged until the
picture makes sense again. Filling all holes but one starts a new game. Events are tuples whose
first item is the protocol event name.
"""

from pegcore.rules import has_move, holes_of, popcount, verdict


def _lowest_hole(mask):
    h = 1
    while mask and not mask & 1:
        mask >>= 1
        h += 1
    return h


class Tracker:
    def __init__(self, board):
        self.board = board
        self.mode = "setup"
        self.position = 0
        self.sensed = 0
        self.empty_start = None
        self.moves = []
        self.lifted = None
        self.landing = 0
        self.bad = 0
        self.pending = 0  # jumped peg still to pull out, when a jump is half done
        self.version = 0  # counts judged pictures: the lights' steady frame is redrawn when it moves

    # -- entry points --------------------------------------------------------------------------
    def reset(self, mask):
        """Adopt a whole-board read (power-on, queue overflow, resync)."""
        events = []
        self.sensed = mask & self.board.full
        self._judge(events)
        return events

    def adopt(self, empty_start, moves, mask):
        """Take a game back after a power loss: `moves`, legal from the start, lead to `mask`."""
        self.empty_start, self.moves = empty_start, moves
        self.position = self.sensed = mask
        self.mode = "play" if has_move(self.board, mask) else "over"
        self.version += 1

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
        self.sensed = mask
        self._judge(events)
        return events

    # -- internals ---------------------------------------------------------------------------
    def _judge(self, events):
        if not self._maybe_new_game(events):
            if self.mode == "setup":
                self.position = self.sensed
            else:
                self._follow(events)
        self._update_lifted()
        self.version += 1

    def _maybe_new_game(self, events):
        s, b = self.sensed, self.board
        if popcount(s) != b.holes - 1:
            return False
        # all but one filled, yet a jump or undo in progress (a peg placed before the jumped
        # one is pulled) also looks like that: the game goes on
        if self.mode != "setup" and self._explained(s):
            return False
        self._leave_illegal(events)
        empty = _lowest_hole(b.full & ~s)
        self.empty_start = empty
        self.moves = []
        self.position = s
        self.mode = "play"
        self.bad = 0
        events.append(("new_game", empty))
        return True

    def _previous(self):
        if not self.moves:
            return -1
        return self.position ^ self.board.flip[self.moves[-1]]

    def _follow(self, events):
        b, s, p = self.board, self.sensed, self.position
        diff = s ^ p
        if diff and popcount(diff) == 3:
            for j in range(len(b.need)):
                if b.flip[j] == diff and p & b.need[j] == b.need[j] and not p & b.land[j]:
                    self._leave_illegal(events)
                    self.moves.append(j)
                    self.position = s
                    left = popcount(s)
                    events.append(("move", j, left))
                    if not has_move(b, s):
                        self.mode = "over"
                        events.append(("game_over", left, verdict(left)))
                    else:
                        self.mode = "play"
                    return
            if s == self._previous():
                j = self.moves.pop()
                self._leave_illegal(events)
                self.position = s
                self.mode = "play"
                events.append(("undo", j))
                return
        if self._explained(s):
            self._leave_illegal(events)
            return
        # Quick hands: one picture may already hold a finished jump and the next one begun.
        for j in range(len(b.need)):
            if p & b.need[j] == b.need[j] and not p & b.land[j]:
                after = p ^ b.flip[j]
                # the jumped peg must be gone; the jumper may already be moving on (a chain)
                if not s >> b.jump_over[j] & 1 and self._explained_from(after, s, -1):
                    self._leave_illegal(events)
                    self.moves.append(j)
                    self.position = after
                    events.append(("move", j, popcount(after)))
                    self._follow(events)
                    return
        bad = s & ~p  # placements nothing explains
        if not bad:
            bad = diff
        if self.mode != "illegal" or bad != self.bad:
            self.mode = "illegal"
            self.bad = bad
            events.append(("illegal", holes_of(bad)))

    def _explained(self, s):
        """True if s is the position, a jump in progress, an undo in progress, or only has pegs
        missing (pegs in hand are never an error: only placements can be)."""
        return self._explained_from(self.position, s, self._previous())

    def _explained_from(self, p, s, prev):
        b = self.board
        diff = s ^ p
        added = s & ~p
        if not added:
            return True
        if prev >= 0 and not diff & ~(prev ^ p):
            return True
        for j in range(len(b.need)):
            if not diff & ~b.flip[j] and not added & ~b.land[j]:
                if p & b.need[j] == b.need[j] and not p & b.land[j]:
                    return True
        return False

    def _leave_illegal(self, events):
        if self.mode == "illegal":
            self.mode = "over" if not has_move(self.board, self.position) else "play"
            self.bad = 0
            events.append(("recovered",))

    def _update_lifted(self):
        """The lifted peg (exactly one peg missing from the position) and where it may land; a
        half-done jump's peg still to remove."""
        b, s, p = self.board, self.sensed, self.position
        self.lifted = None
        self.landing = 0
        self.pending = 0
        if self.mode in ("setup", "illegal"):
            return
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
