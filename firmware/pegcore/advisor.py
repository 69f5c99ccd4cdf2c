"""One place that answers "what should I play here?": the precomputed table where the board has
one (the 15-hole board: every position, so no hint there searches), else the core's search. The
firmware and the host both ask through this."""


class Advisor:
    def __init__(self, board, table=None):
        self.board = board
        self.table = table
        self._solver = None  # built on first need: its memo costs heap

    def solver(self):
        if self._solver is None:
            from pegcore.solver import Solver  # imported on first need: saves the chip's heap

            # bitset memos only while they are small (4 KB each on 15 holes); sets beyond
            self._solver = Solver(self.board, memo_limit=16)
        return self._solver

    def hint(self, mask):
        """(jump index or -1, solvable, best_left)."""
        if self.table is not None:
            j, left = self.table.lookup(mask)
            return j, left == 1, left
        # A bigger board: search. Counting every line would be too slow on the chip, so take the
        # first move that keeps a win.
        return self.solver().hint(mask, by_count=False)

    def solution(self, mask):
        """Jump indices that play `mask` to its best end (one peg if possible). At most one jump
        per peg, each checked legal: a damaged table gives a short line, never a loop."""
        b = self.board
        out = []
        for _ in range(b.holes):
            j, _ok, _left = self.hint(mask)
            if j < 0 or mask & b.need[j] != b.need[j] or mask & b.land[j]:
                break
            out.append(j)
            mask ^= b.flip[j]
        return out
