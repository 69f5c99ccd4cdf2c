"""Challenges: a target for the game other than "as few pegs as possible", the hints toward it and
its verdict at game over. Pure core: the firmware, the host and the tests share it."""
# A target is a plain tuple (kind, n):
#     (FINISH, h)  the last peg in hole h, one peg left (h = 0: the hole that started empty, until
#                  resolve() names it)
#     (LEAVE, k)   game over (no jump left) with exactly k pegs
#     (MOST, n)    the reverse game: stop with as many pegs as possible, no jump left. n = 0 until
#                  resolve() sets n to the most a dead end from the start can hold; then the verdict
#                  is met when the game stops with n pegs or more (on 15 holes n is the exact
#                  maximum, so exactly n)
# On the wire and in records: "finish:13", "finish", "leave:3", "most", "most:10" (parse, to_text).
#
# 15 holes: every answer is a few table lookups, no search: the finish table (pegcore.finishfile)
# for FINISH, the ends table (pegcore.endsfile: the dead-end peg counts reachable from every
# position) for LEAVE and MOST. Without the tables (21 and 28 holes) reachable() and hint() say None
# ("unknown: search") but at game over, and search() gives the sliced search to run instead:
# pegcore.search.SolutionSearch (FINISH), LeaveSearch (LEAVE, and MOST once its n is known) or
# MostSearch (MOST unresolved: the reverse game's best). MostSearch is bounded by the caller's node
# budget: it reports the best dead end found so far (.best, .jumps) and whether that is proven the
# maximum (.proven); a reverse game resolved from an unproven best judges "met" for that many pegs or
# more, so a player who beats the board's search still meets it. The limit, at the chip's ~800
# positions a second: on 21 holes the best (12 from every start) takes 0.1-0.25 M positions and its
# proof 0.3-1 M, so within a few thousand the board has a dead end of 6-10 pegs; on 28 holes it is
# never proven (pegcore.search.MostSearch has the figures). LEAVE k searches are quick for small and
# large k (leave 3 on 21 holes: under 100 positions) but a middle k can take tens of thousands
# (leave 8 from a 21-hole corner: 19,000 with the 1,024-position memo).
#
# Heap on the 32-bit chip VM: this module's code 4.6 KB; the finish and ends tables open: 416 and
# 320 bytes; a hint allocates only a few small tuples. LeaveSearch and MostSearch add 2.2 KB of code to
# pegcore.search while it is loaded.

FINISH = "finish"
LEAVE = "leave"
MOST = "most"

_USAGE = "use finish:H, finish (the hole that started empty), leave:K, most or none"


def _number(text, what, hi):
    for ch in text:
        if ch not in "0123456789":
            raise ValueError("%s must be 1..%d, not %r" % (what, hi, text))
    if not text or len(text) > 3 or not 1 <= int(text) <= hi:
        raise ValueError("%s must be 1..%d, not %r" % (what, hi, text))
    return int(text)


def parse(text, holes):
    """A target from its text ("finish:13", "finish", "leave:3", "most", "most:10") on a board of
    `holes` holes; ValueError naming what is wrong."""
    if not isinstance(text, str):
        raise ValueError("a challenge is text, like finish:13, finish, leave:3, most or none")
    s = text.strip().lower()
    i = s.find(":")
    kind, arg = (s, None) if i < 0 else (s[:i].strip(), s[i + 1:].strip())
    if kind == FINISH:
        return FINISH, 0 if arg is None else _number(arg, "the finish hole", holes)
    if kind == LEAVE:
        if arg is None:
            raise ValueError("leave needs a peg count: leave:K with K 1..%d" % holes)
        return LEAVE, _number(arg, "the pegs to leave", holes)
    if kind == MOST:
        return MOST, 0 if arg is None else _number(arg, "the pegs of the reverse game", holes)
    raise ValueError("unknown challenge %r: %s" % (text, _USAGE))


def to_text(target):
    """The target's text, as parse() reads it."""
    kind, n = target
    return kind if n == 0 else "%s:%d" % (kind, n)


def check(target, holes):
    """The target if it is a well-formed one for `holes` holes (a record read back), else
    ValueError."""
    if not isinstance(target, (tuple, list)) or len(target) != 2:
        raise ValueError("a target is (kind, n)")
    kind, n = target
    if kind not in (FINISH, LEAVE, MOST) or not isinstance(n, int) or isinstance(n, bool) \
            or not (0 if kind != LEAVE else 1) <= n <= holes:
        raise ValueError("not a target for %d holes: %r (%s)" % (holes, target, _USAGE))
    return kind, n


class Targets:
    """Reachability, hints and verdicts for targets on one board. `table` the hint table, `finish`
    a pegcore.finishfile.FinishTable, `ends` a pegcore.endsfile.EndsTable (15 holes: open_tables
    opens both beside the hint table); without them the answers that need a search are None."""

    def __init__(self, board, table=None, finish=None, ends=None):
        from pegcore.rules import has_move, popcount

        self.board = board
        self.table = table
        self.finish = finish
        self.ends = ends
        self.has_move = has_move
        self.popcount = popcount

    def close(self):
        for t in (self.finish, self.ends):
            if t is not None:
                t.close()

    # -- the target at the challenge's start ------------------------------------------------
    def resolve(self, target, start):
        """The target to keep for a challenge from position `start`: FINISH 0 becomes the hole
        that started empty (ValueError if the start has not exactly one), MOST 0 the most pegs a
        dead end from `start` can hold (15 holes; elsewhere it stays (MOST, 0): run
        search((MOST, 0), start) and keep (MOST, s.best)). Others are returned as they are."""
        kind, n = target
        if kind == FINISH and n == 0:
            empty = self.board.full & ~start
            if not empty or empty & (empty - 1):
                raise ValueError("finish needs a hole: the start has %d empty holes"
                                 % self.popcount(empty))
            h = 1
            while empty > 1:
                empty >>= 1
                h += 1
            return FINISH, h
        if kind == MOST and n == 0 and self.ends is not None:
            return MOST, self.ends.most(start)
        return kind, n

    # -- still possible? ----------------------------------------------------------------------
    def reachable(self, target, mask):
        """True / False: can play from `mask` still meet the target; None: unknown without the
        tables (search). At game over it is the verdict, tables or not. (MOST, 0), the reverse
        game not resolved, is always True: its hint keeps the best from where it stands."""
        kind, n = target
        if kind == MOST and n == 0:  # the most from wherever it stands: always to be had
            return True
        if not self.has_move(self.board, mask):
            return self.met(target, mask)
        if kind == FINISH:
            if n == 0:
                raise ValueError("resolve the finish hole first")
            return None if self.finish is None else self.finish.finish_ok(mask, n)
        if self.popcount(mask) - 1 < n:  # a jump takes a peg: fewer than n left at the end
            return False
        if self.ends is None:
            return None
        if kind == LEAVE:
            return self.ends.can_leave(mask, n)
        return self.ends.most(mask) >= n

    def met(self, target, mask):
        """Does `mask` meet the target as a finished game (no jump left)? None for a reverse game
        not resolved."""
        kind, n = target
        if self.has_move(self.board, mask):
            return False
        if kind == FINISH:
            return mask == 1 << (n - 1) if n else mask != 0 and not mask & (mask - 1)
        left = self.popcount(mask)
        if kind == LEAVE:
            return left == n
        return None if n == 0 else left >= n

    # -- the hint ---------------------------------------------------------------------------
    def hint(self, target, mask):
        """(jump index or -1, reachable). A legal jump after which the target stays reachable (for
        MOST: after which the best dead end reachable stays as big): the ordinary hint table's
        move when it keeps the target, else the first that does. (-1, False): the target cannot
        be met from here; (-1, True): it is met (game over); (-1, None): unknown without the
        tables: search (search() gives the sliced search; its first jump is the hint)."""
        ok = self.reachable(target, mask)
        if not ok:  # False, or None: search
            return -1, ok
        b = self.board
        if not self.has_move(b, mask):
            return -1, True
        kind, n = target
        if kind == MOST and self.ends is None:
            return -1, None
        best = self.ends.most(mask) if kind == MOST else 0
        need, land, flip = b.need, b.land, b.flip
        j = -1 if self.table is None else self.table.lookup(mask)[0]
        if j >= 0 and self._keeps(target, best, mask ^ flip[j]):
            return j, True
        for j in range(len(need)):
            if mask & need[j] == need[j] and not mask & land[j] and self._keeps(target, best, mask ^ flip[j]):
                return j, True
        return -1, False  # tables that disagree with the board: say lost, never a wrong jump

    def _keeps(self, target, best, child):
        if target[0] == MOST:
            return self.ends.most(child) == best
        return self.reachable(target, child) is True

    # -- game over ----------------------------------------------------------------------------
    def verdict(self, target, mask):
        """(met, pegs_left, wanted) for the final position `mask`: wanted is the finish hole, the
        pegs to leave, or the reverse game's best (met is None for an unresolved reverse game;
        False while a jump is left)."""
        return self.met(target, mask), self.popcount(mask), target[1]

    # -- boards without the tables -------------------------------------------------------
    def search(self, target, mask, memo_cap=1024):
        """The sliced search for the target from `mask`: `.advance(nodes)` -> finished, then
        `.jumps` (a line meeting it, or None: it cannot be met) and `.nodes`. For (MOST, 0) a
        pegcore.search.MostSearch: stop it at a budget and take `.best` and `.jumps`."""
        from pegcore import search

        kind, n = target
        if kind == FINISH:
            return search.SolutionSearch(self.board, mask, n or None, memo_cap=memo_cap)
        if kind == MOST and n == 0:
            return search.MostSearch(self.board, mask, memo_cap)
        return search.LeaveSearch(self.board, mask, n, memo_cap=memo_cap, at_least=kind == MOST)

    def line(self, target, mask, limit=1 << 22):
        """A line of jumps from `mask` meeting the target, or None (the host's, and the tests'):
        the hints walked on 15 holes, else the search run to its end (or `limit` positions: None
        then, and for MOST 0 the best line found)."""
        b = self.board
        if self.finish is not None and self.ends is not None:
            out = []
            while True:
                j, ok = self.hint(target, mask)
                if j < 0:
                    return out if ok else None
                out.append(j)
                mask ^= b.flip[j]
        s = self.search(target, mask)
        while not s.advance(4096) and s.nodes < limit:
            pass
        return s.jumps


def open_tables(board, table):
    """Targets for the 15-hole board with its finish and ends tables opened beside the hint table
    (`table.path`); Targets without tables when there is no hint table. OSError if a file is
    missing, ValueError if one is damaged or belongs to another hint table. close() when done."""
    if table is None:
        return Targets(board)
    from pegcore.endsfile import EndsTable
    from pegcore.finishfile import FinishTable

    ft = FinishTable(table, table.path.replace("_hints.bin", "_finish.bin"))
    try:
        et = EndsTable(table, table.path.replace("_hints.bin", "_ends.bin"))
    except Exception:
        ft.close()
        raise
    return Targets(board, table, ft, et)
