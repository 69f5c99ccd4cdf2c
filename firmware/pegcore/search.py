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


class LeaveSearch(SolutionSearch):
    """A sliced search for a line that stops (no jump left) with exactly `leave` pegs (with
    at_least=True: `leave` pegs or more): the challenges "leave K" and a reverse game whose best is
    known, on boards without the ends table (pegcore.targets). The same slices, stacks and bounded
    memo as SolutionSearch (dead: no such stop reachable); a position with `leave` pegs or fewer
    that still has a jump is ruled out at once, and with leave=1 the colour parities prune too. A
    finish hole is SolutionSearch's own `finish`.

        s = LeaveSearch(board, mask, 3)
        while not s.advance(200): ...   # then s.jumps: the line, or None (no such dead end)
    """

    def __init__(self, board, mask, leave, alive=None, memo_cap=1024, at_least=False):
        from pegcore.rules import has_move, popcount

        self.leave = leave
        self.at_least = at_least
        self.has_move = has_move
        self.popcount = popcount
        SolutionSearch.__init__(self, board, mask, None, alive, memo_cap)

    def _win(self, m):
        p = self.popcount(m)
        if p != self.leave and not (self.at_least and p > self.leave):
            return False
        return not self.has_move(self.board, m)

    def _possible(self, m):
        # _win(m) is False here: with `leave` pegs or fewer it still has a jump, and jumps only
        # take pegs
        if self.popcount(m) <= self.leave:
            return False
        if self.leave == 1 and self.last_peg_holes(self.colours, m) == 0:
            return False
        return self.alive is None or self.alive(m)


class MostSearch:
    """The reverse game on boards without the ends table: the most pegs a dead end (no jump left)
    reachable from `mask` can hold, a slice at a time. Depth-first, the children of a position
    tried fewest-jumps-left first (dead ends early) and, if one of them is dead, none further; the
    best found so far is a bound (a position with p pegs and a jump leads only to dead ends of p-1
    pegs or fewer, so it is skipped once p-1 <= best); a memo of positions already searched,
    capped at `memo_cap` (beyond it positions may be searched again: slower, still right). Its
    stacks are one entry a jump deep (the jumps of a position in order: a few bytes each)."""
    # Bounded: `.best` (-1 until a dead end is found) and `.jumps` (the line to it) are the best so
    # far after every slice, so a caller with a budget stops when it runs out and takes them;
    # `.proven` says the search ran to its end (best is the maximum). `.nodes` counts the positions
    # looked at. Measured with the 1,024-position memo: 15 holes proven within 8,000 positions (a
    # few seconds on the chip at its ~800 positions a second); 21 holes (every start's best is 12)
    # a first dead end (6-10 pegs) within ~200 positions, 12 after 0.1-0.25 M and proven after
    # 0.3-1 M (minutes to hours on the chip: the board takes the best its budget finds); 28 holes
    # (best 18 from a corner) not proven within 2 M positions, the best so far 7-12 after 2,000.
    #
    #     s = MostSearch(board, mask)
    #     while not s.advance(200) and s.nodes < budget: ...

    def __init__(self, board, mask, memo_cap=1024):
        from pegcore.rules import popcount

        self.board = board
        self.memo_cap = memo_cap
        self.seen = set()
        self.nodes = 0
        self.pegs = popcount(mask)  # of the start: a position d jumps deep holds pegs - d
        self.best = -1
        self.jumps = None
        self.proven = False
        self.done = False
        self.masks = [mask]
        self.orders = [None]  # per level: its jumps in the order tried (bytes), None: not yet listed
        self.nexts = [0]
        self.path = []
        if self._moves(mask) == 0:
            self.best, self.jumps = self.pegs, []
            self._end()

    def _moves(self, m):
        b = self.board
        need, land = b.need, b.land
        k = 0
        for j in range(len(need)):
            n = need[j]
            if m & n == n and not m & land[j]:
                k += 1
        return k

    def _order(self, m, p):
        """m's jumps to try, fewest jumps left after them first; None once a child is a dead end
        (p - 1 pegs: the best under m, taken as the new best)."""
        b = self.board
        need, land, flip = b.need, b.land, b.flip
        keys = []
        for j in range(len(need)):
            n = need[j]
            if m & n == n and not m & land[j]:
                c = m ^ flip[j]
                if c in self.seen:
                    continue
                self.nodes += 1
                k = self._moves(c)
                if k == 0:
                    self.best = p - 1
                    self.jumps = self.path + [j]
                    return None
                keys.append(k << 8 | j)
        keys.sort()
        return bytes([k & 255 for k in keys])

    def advance(self, nodes):
        """Search about `nodes` more positions; True once finished (best proven)."""
        if self.done:
            return True
        flip = self.board.flip
        masks, orders, nexts, path, seen = self.masks, self.orders, self.nexts, self.path, self.seen
        stop = self.nodes + nodes
        while self.nodes < stop:
            if not masks:
                self._end()
                return True
            m = masks[-1]
            order = None
            i = 0
            if self.pegs - len(path) - 1 > self.best:  # its children could beat the best
                order = orders[-1]
                if order is None:
                    order = orders[-1] = self._order(m, self.pegs - len(path))
                i = nexts[-1]
            if order is None or i >= len(order):  # searched, or nothing under it beats the best
                if len(seen) < self.memo_cap:
                    seen.add(m)
                masks.pop()
                orders.pop()
                nexts.pop()
                if path:
                    path.pop()
                continue
            j = order[i]
            nexts[-1] = i + 1
            c = m ^ flip[j]
            if c in seen:
                continue
            path.append(j)
            masks.append(c)
            orders.append(None)
            nexts.append(0)
        return False

    def _end(self):
        self.done = self.proven = True
        self.seen = set()
        self.masks, self.orders, self.nexts, self.path = [], [], [], []
