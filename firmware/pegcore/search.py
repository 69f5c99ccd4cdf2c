"""The solver one step at a time, for shows: an explicit-stack depth-first search that yields
every try and every backtrack with a running step count. Poll it with next() from a main loop.
"""


TRY = "try"
BACK = "back"
SOLVED = "solved"
EXHAUSTED = "exhausted"


def steps(board, mask, finish=None):
    """Yield (kind, jump, mask_after, step) tuples.

    kind is TRY (jump made, mask_after is the new position), BACK (jump undone, mask_after is the
    position returned to), then finally SOLVED (jump -1, the winning position) or EXHAUSTED.
    """
    # the finish rule, as pegcore.solver.finish_mask (not imported: the chip's heap is small)
    fmask = board.full if finish is None else 1 << (board.check_hole(finish) - 1)
    need, land, flip = board.need, board.land, board.flip
    njumps = len(need)
    step = 0
    masks = [mask]
    nexts = [0]
    taken = []
    while masks:
        m = masks[-1]
        if m and not m & (m - 1) and m & fmask:
            yield SOLVED, -1, m, step
            return
        j = nexts[-1]
        while j < njumps:
            n = need[j]
            if m & n == n and not m & land[j]:
                break
            j += 1
        if j >= njumps:
            masks.pop()
            nexts.pop()
            if taken:
                back = taken.pop()
                step += 1
                yield BACK, back, masks[-1], step
            continue
        nexts[-1] = j + 1
        c = m ^ flip[j]
        taken.append(j)
        masks.append(c)
        nexts.append(0)
        step += 1
        yield TRY, j, c, step
    yield EXHAUSTED, -1, mask, step



class SolutionSearch:
    """A search for one solution that runs a slice at a time, so a main loop can feed its watchdog
    and read its sensors between slices. Explicit-stack DFS with a memo of dead positions that
    stops growing at `memo_cap` entries (the search stays right, only slower), so its heap is
    bounded. `alive(mask)`, if given, says whether a win anywhere is still possible (the hint
    table knows it for every 15-hole position): the search never enters a position it rules out.

        s = SolutionSearch(board, mask, finish)
        while not s.advance(20): ...   # then s.jumps: the solution, or None (there is none)
    """

    def __init__(self, board, mask, finish=None, alive=None, memo_cap=1024, dead=None, fmask=None):
        """`dead`: a memo of lost positions to share across searches (pegcore.solver keeps one);
        given, it is not capped. `fmask`: the holes the last peg may end in, instead of `finish`."""
        from pegcore.parity import colour_masks, last_peg_holes

        self.last_peg_holes = last_peg_holes  # looked up once, not per position
        self.board = board
        if fmask is None:
            fmask = board.full if finish is None else 1 << (board.check_hole(finish) - 1)
        self.fmask = fmask
        self.colours = colour_masks(board)
        self.alive = alive
        self.memo_cap = memo_cap if dead is None else 1 << 30
        self.dead = set() if dead is None else dead
        self.nodes = 0
        self.jumps = None
        self.done = False
        self.masks = [mask]
        self.nexts = [0]
        self.path = []
        if self._win(mask):
            self.jumps, self.done = [], True
        elif not self._possible(mask):
            self.done = True

    def _win(self, m):
        return m and not m & (m - 1) and m & self.fmask

    def _possible(self, m):
        if self.last_peg_holes(self.colours, m) & self.fmask == 0:
            return False
        return self.alive is None or self.alive(m)

    def _dead(self, m):
        if self.memo_cap > 1 << 29 or len(self.dead) < self.memo_cap:
            self.dead.add(m)

    def advance(self, nodes):
        """Search up to `nodes` more positions; True once finished (see .jumps)."""
        if self.done:
            return True
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        njumps = len(need)
        masks, nexts, path, dead = self.masks, self.nexts, self.path, self.dead
        while nodes > 0:
            if not masks:
                self.done = True  # exhausted: no solution
                return True
            nodes -= 1
            self.nodes += 1
            m = masks[-1]
            j = nexts[-1]
            found = -1
            while j < njumps:
                n = need[j]
                if m & n == n and not m & land[j]:
                    c = m ^ flip[j]
                    if c not in dead:
                        found = j
                        break
                j += 1
            if found < 0:
                self._dead(m)
                masks.pop()
                nexts.pop()
                if path:
                    path.pop()
                continue
            nexts[-1] = found + 1
            c = m ^ flip[found]
            if self._win(c):
                self.jumps = path + [found]
                self.done = True
                self._free()
                return True
            if not self._possible(c):
                self._dead(c)
                continue
            path.append(found)
            masks.append(c)
            nexts.append(0)
        return False

    def _free(self):
        self.dead = None
        self.masks, self.nexts, self.path = [], [], []
