"""Searches on bitmask positions: solvable?, a solution, solution counts, the best move (hint),
fewest pegs left, and minimum-move solutions. Pure, integer-only, no recursion in the parts the
chip uses (solvable/solution/best_left) so deep boards cannot overflow a small C stack.
"""

from pegcore.rules import popcount
from pegcore.memo import memo_set
from pegcore.parity import colour_masks, last_peg_holes


def finish_mask(board, finish):
    """1-based finish hole (or None for anywhere) -> mask of holes the last peg may end in."""
    if finish is None:
        return board.full
    board.check_hole(finish)
    return 1 << (finish - 1)


def _is_win(mask, fmask):
    # exactly one peg left, in an allowed hole
    return mask and not mask & (mask - 1) and mask & fmask


class Solver:
    """Solver for one board and one finish rule (any hole, or one chosen hole)."""

    def __init__(self, board, finish=None, memo_limit=None):
        self.board = board
        self.fmask = finish_mask(board, finish)
        self.colours = colour_masks(board)
        if memo_limit is None:
            self._bad = memo_set(board.holes)
        else:
            self._bad = memo_set(board.holes, memo_limit)
        self._counts = {}
        self._left = {}

    # -- solvable / one solution ------------------------------------------------------------
    def solvable(self, mask):
        return self.solution(mask) is not None

    def possible(self, mask):
        """False when the colour parities alone rule out a finish (see last_peg_holes)."""
        return last_peg_holes(self.colours, mask) & self.fmask != 0

    def solution(self, mask):
        """Jump indices from `mask` to one peg in the finish set, or None: the step-wise search
        (pegcore.search) run to its end, sharing this solver's memo of lost positions."""
        from pegcore.search import SolutionSearch

        if mask in self._bad:
            return None
        s = SolutionSearch(self.board, mask, dead=self._bad, fmask=self.fmask)
        while not s.advance(1 << 20):
            pass
        if s.jumps is None:
            self._bad.add(mask)  # and every position after it, if the parities ruled it out
        return s.jumps

    # -- counting ------------------------------------------------------------------------------
    def count(self, mask):
        """Number of jump sequences from `mask` ending with one peg in the finish set."""
        if not self.possible(mask):
            return 0
        return self._count(mask)

    def _count(self, mask):
        if _is_win(mask, self.fmask):
            return 1
        memo = self._counts
        got = memo.get(mask)
        if got is not None:
            return got
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        total = 0
        for j in range(len(need)):
            n = need[j]
            if mask & n == n and not mask & land[j]:
                total += self._count(mask ^ flip[j])
        memo[mask] = total
        return total

    # -- fewest pegs left ------------------------------------------------------------------
    def best_left(self, mask):
        """Fewest pegs that can remain from `mask` (1 = a win is still possible, anywhere)."""
        memo = self._left
        got = memo.get(mask)
        if got is not None:
            return got
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        # explicit stack of (mask, next jump, best so far)
        stack = [[mask, 0, popcount(mask)]]
        result = 0
        while stack:
            top = stack[-1]
            m, j, best = top[0], top[1], top[2]
            pushed = False
            while j < len(need):
                n = need[j]
                j += 1
                if m & n == n and not m & land[j - 1]:
                    c = m ^ flip[j - 1]
                    v = memo.get(c)
                    if v is None:
                        top[1] = j
                        top[2] = best
                        stack.append([c, 0, popcount(c)])
                        pushed = True
                        break
                    if v < best:
                        best = v
            if pushed:
                continue
            memo[m] = best
            stack.pop()
            result = best
            if stack:
                parent = stack[-1]
                if best < parent[2]:
                    parent[2] = best
        return result

    # -- hints -----------------------------------------------------------------------------
    def hint(self, mask, by_count=True):
        """(jump or -1, solvable, best_left) for `mask`.

        Solvable: a move that keeps a win reachable, preferring the most winning lines
        (by_count=False takes the first such move, which is cheaper). Lost: the move leading to
        the fewest pegs left. Ties go to the lowest jump index so answers are reproducible.
        """
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        best_j, best_key = -1, None
        if self.solvable(mask) and not _is_win(mask, self.fmask):
            for j in range(len(need)):
                n = need[j]
                if mask & n == n and not mask & land[j]:
                    c = mask ^ flip[j]
                    if self.solvable(c):
                        if not by_count:
                            return j, True, 1
                        key = self.count(c)
                        if best_key is None or key > best_key:
                            best_j, best_key = j, key
            return best_j, True, 1
        if _is_win(mask, self.fmask):
            return -1, True, 1
        left = self.best_left(mask)
        for j in range(len(need)):
            n = need[j]
            if mask & n == n and not mask & land[j]:
                if self.best_left(mask ^ flip[j]) == left:
                    return j, False, left
        return -1, False, left

    # -- minimum moves ---------------------------------------------------------------------
    def min_moves(self, mask):
        """A solution with the fewest moves (a run of jumps by one peg is one move), as
        (moves, jump indices), or None. 0-1 breadth-first search over (position, last hole)."""
        b = self.board
        need, land, flip, to = b.need, b.land, b.flip, b.jump_to
        frm = b.jump_from
        fmask = self.fmask
        if _is_win(mask, fmask):
            return 0, []
        # state = position * 64 + (last landing hole + 1): plain ints, no tuples in the memo
        start = mask << 6
        dist = {start: 0}
        parent = {}
        front = [start]
        back = []
        while front or back:
            if not front:
                front, back = back, []
                front.reverse()
            state = front.pop()
            m, last = state >> 6, (state & 63) - 1
            d = dist[state]
            if _is_win(m, fmask):
                jumps = []
                while state in parent:
                    state, j = parent[state]
                    jumps.append(j)
                jumps.reverse()
                return d, jumps
            for j in range(len(need)):
                n = need[j]
                if m & n == n and not m & land[j]:
                    if not self.solvable(m ^ flip[j]):
                        continue
                    nd = d if frm[j] == last else d + 1
                    ns = ((m ^ flip[j]) << 6) | (to[j] + 1)
                    old = dist.get(ns)
                    if old is None or nd < old:
                        dist[ns] = nd
                        parent[ns] = (state, j)
                        if nd == d:
                            front.append(ns)
                        else:
                            back.append(ns)
        return None
