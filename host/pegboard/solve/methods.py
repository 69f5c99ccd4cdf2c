"""Three textbook searches for one solution, side by side (`pegboard solve --method`): depth first
by recursion, depth first with an explicit stack, and breadth first by levels.

All three work on bitmask positions (bit i = hole i + 1) with pegcore.geometry.Board's jump
tables, try the jumps in the same (index) order and stop at the first position with one peg left
in an allowed hole. Each keeps a set of the positions it has reached, so none is searched twice:

- the depth-first searches never reach a position twice; once they leave one without a solution it
  is lost, so their set is the memo of dead positions (the positions on the winning line are in it
  too, but the search ends with them);
- breadth first stores every position of every level with its parent (the position it came from and
  the jump), so the path can be rebuilt from the last one: it holds every reachable position up to
  the last level at once, which is what makes it the memory-hungry one.

None of them prunes by colour parity: they are the plain searches to compare. The fourth entry,
`core`, is the default `solve` (pegcore.search: explicit stack, dead memo and colour-parity
pruning), measured the same way for comparison. A position counts as *visited* when the search first reaches it (its
set grows by one), so the depth-first searches visit the same positions in the same order.

Peak memory is Python's `tracemalloc` peak on the host (Python allocations only, measured in a
second run, the time in a first run without tracing): it says how the three compare here, not
what the chip would need.
"""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass
from typing import Callable

from pegcore.geometry import Board
from pegcore.search import SolutionSearch

METHODS = ("recursive", "iterative", "breadth")  # the three plain searches
CORE = "core"  # the default search, for comparison

MEMORY_NOTE = "tracemalloc peak on the host"


@dataclass
class Stats:
    positions: int  # distinct positions the search reached (its visited set), start and end included
    seconds: float  # wall time of the search without tracing
    peak_bytes: int | None  # tracemalloc peak during a second, traced run; None when not measured

    def as_json(self) -> dict[str, object]:
        return {"positions_visited": self.positions, "seconds": round(self.seconds, 6),
                "peak_memory_bytes": self.peak_bytes, "peak_memory_is": MEMORY_NOTE}

    def text(self) -> str:
        peak = "not measured" if self.peak_bytes is None else "%s (%s)" % (_size(self.peak_bytes), MEMORY_NOTE)
        return "positions visited: %s; time: %s; peak memory: %s" % (
            format(self.positions, ","), _seconds(self.seconds), peak)


def _size(n: int) -> str:
    if n < 10 * 1024:
        return "%s bytes" % format(n, ",")
    if n < 10 * 1024 * 1024:
        return "%.1f KB" % (n / 1024)
    return "%.1f MB" % (n / (1024 * 1024))


def _seconds(t: float) -> str:
    return "%.1f ms" % (t * 1000) if t < 1 else "%.2f s" % t


def finish_mask(board: Board, finish: int | None) -> int:
    """The holes the last peg may end in: any, or the one chosen."""
    return board.full if finish is None else 1 << (board.check_hole(finish) - 1)


def _win(m: int, fmask: int) -> bool:
    return m != 0 and m & (m - 1) == 0 and m & fmask != 0


# -- the three searches: (jump indices or None, positions visited) ------------------------------

def depth_first_recursive(board: Board, start: int, fmask: int) -> tuple[list[int] | None, int]:
    """Depth first by recursion: one call per position, the call stack holds the path (at most
    holes - 1 deep, 35 on 8 rows)."""
    need, land, flip = board.need, board.land, board.flip
    njumps = len(need)
    visited: set[int] = set()

    def search(m: int) -> list[int] | None:
        visited.add(m)
        if _win(m, fmask):
            return []
        for j in range(njumps):
            n = need[j]
            if m & n == n and not m & land[j]:
                c = m ^ flip[j]
                if c in visited:
                    continue  # lost already (or on the path: impossible, a jump removes a peg)
                rest = search(c)
                if rest is not None:
                    rest.append(j)  # built from the end back: reversed once at the top
                    return rest
        return None

    found = search(start)
    if found is not None:
        found.reverse()
    return found, len(visited)


def depth_first_iterative(board: Board, start: int, fmask: int) -> tuple[list[int] | None, int]:
    """Depth first with an explicit stack: the same positions in the same order as the recursive
    search, each stack entry a position and the next jump to try there."""
    need, land, flip = board.need, board.land, board.flip
    njumps = len(need)
    visited = {start}
    if _win(start, fmask):
        return [], 1
    masks = [start]
    nexts = [0]
    path: list[int] = []
    while masks:
        m = masks[-1]
        j = nexts[-1]
        child = -1
        while j < njumps:
            n = need[j]
            if m & n == n and not m & land[j] and m ^ flip[j] not in visited:
                child = j
                break
            j += 1
        if child < 0:  # every jump tried: lost, back to the position before
            masks.pop()
            nexts.pop()
            if path:
                path.pop()
            continue
        nexts[-1] = child + 1
        c = m ^ flip[child]
        visited.add(c)
        path.append(child)
        if _win(c, fmask):
            return path, len(visited)
        masks.append(c)
        nexts.append(0)
    return None, len(visited)


def breadth_first(board: Board, start: int, fmask: int) -> tuple[list[int] | None, int]:
    """Breadth first by levels: level k holds every position reachable in k jumps (so with k
    fewer pegs), each stored with its parent; the first win found (every solution has the same
    length, so it is on the last level) is traced back through the parents."""
    need, land, flip = board.need, board.land, board.flip
    njumps = len(need)
    # position -> parent * 256 + jump (a jump index fits a byte: 126 jumps on 8 rows); start: -1
    parent = {start: -1}
    if _win(start, fmask):
        return [], 1
    level = [start]
    while level:
        following = []
        for m in level:
            for j in range(njumps):
                n = need[j]
                if m & n == n and not m & land[j]:
                    c = m ^ flip[j]
                    if c in parent:
                        continue
                    parent[c] = m << 8 | j
                    if _win(c, fmask):
                        return _path(parent, c), len(parent)
                    following.append(c)
        level = following
    return None, len(parent)


def _path(parent: dict[int, int], m: int) -> list[int]:
    jumps = []
    link = parent[m]
    while link >= 0:
        jumps.append(link & 255)
        link = parent[link >> 8]
    jumps.reverse()
    return jumps


def core(board: Board, start: int, fmask: int) -> tuple[list[int] | None, int]:
    """The default `solve`: the core's explicit-stack search (pegcore.search.SolutionSearch) with a
    memo of dead positions and colour-parity pruning (a position whose colours rule out a finish is
    reached but never entered), here with a memo of its own for this start."""
    dead: set[int] = set()
    s = SolutionSearch(board, start, dead=dead, fmask=fmask)
    while not s.advance(1 << 20):
        pass
    # reached: the dead positions, and on a win the line to it (start and last position included;
    # those never join the memo); a start ruled out before searching is the one position reached
    return s.jumps, max(1, len(dead) + (len(s.jumps) + 1 if s.jumps is not None else 0))


SEARCHES: dict[str, Callable[[Board, int, int], tuple[list[int] | None, int]]] = {
    "recursive": depth_first_recursive,
    "iterative": depth_first_iterative,
    "breadth": breadth_first,
    "core": core,
}


# -- measured runs --------------------------------------------------------------------------------

def search(method: str, board: Board, start: int, fmask: int,
           memory: bool = False) -> tuple[list[int] | None, Stats]:
    """Run one method: (jump indices or None, its stats). The time is of a run without tracing;
    with `memory`, a second run under tracemalloc gives the peak (the searches are deterministic:
    both runs visit the same positions)."""
    try:
        run = SEARCHES[method]
    except KeyError:
        raise ValueError("method must be one of %s, not %r" % (", ".join(SEARCHES), method)) from None
    began = time.perf_counter()
    jumps, positions = run(board, start, fmask)
    seconds = time.perf_counter() - began
    peak = peak_memory(lambda: run(board, start, fmask)) if memory else None
    return jumps, Stats(positions, seconds, peak)


def peak_memory(work: Callable[[], object]) -> int:
    """Bytes: the tracemalloc peak while `work` runs, over what was traced before it (so it may be
    called while tracing is already on)."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        work()
        return max(0, tracemalloc.get_traced_memory()[1] - before)
    finally:
        if not was_tracing:
            tracemalloc.stop()


def solve(method: str, board: Board, start: int, finish: int | None = None,
          memory: bool = False) -> tuple[list[list[int]] | None, Stats]:
    """A solution as [from, over, to] moves (1-based holes) from the position `start` to one peg
    left (in hole `finish` if given), or None; and the search's stats."""
    jumps, stats = search(method, board, start, finish_mask(board, finish), memory)
    return (None if jumps is None else [board.move_of(j) for j in jumps]), stats


def recursive(board: Board, start: int, finish: int | None = None,
              memory: bool = False) -> tuple[list[list[int]] | None, Stats]:
    return solve("recursive", board, start, finish, memory)


def iterative(board: Board, start: int, finish: int | None = None,
              memory: bool = False) -> tuple[list[list[int]] | None, Stats]:
    return solve("iterative", board, start, finish, memory)


def breadth(board: Board, start: int, finish: int | None = None,
            memory: bool = False) -> tuple[list[list[int]] | None, Stats]:
    return solve("breadth", board, start, finish, memory)
