"""Graded puzzles: positions of real games that can still be won, graded 1 (easy) .. 5 (hardest)
by the core solver's own figures, and the table file the chip reads (pegcore/puzzlefile.py).

    python -m pegboard.solve.puzzlegen firmware/pegcore/t5_puzzles.bin --rows 5
    python -m pegboard.solve.puzzlegen firmware/pegcore/t6_puzzles.bin --rows 6

The figures of a position that can be won (one peg left; in the finish hole if there is one):

- length: moves to the end, pegs - 1 (every jump takes one peg).
- lines: the number of distinct winning jump sequences (pegcore.solver.Solver.count: exact, memo).
- the best line: from the position, at each step the winning jump with the most winning lines after
  it (ties: the lowest jump index), down to one peg. At each of its `length` positions the share is
  (winning jumps) / (legal jumps): the chance that a jump picked at random there keeps the game won.
- share: the mean of those shares along the best line (an exact Fraction).
- min_share: the smallest of them (the line's narrowest step).

The grade comes from an integer score (share_pm and min_pm: the shares in thousandths, rounded down;
log2(lines) rounded down):

    score = (1000 - share_pm) // 10 + (1000 - min_pm) // 20 + 3 * length - 2 * floor(log2(lines))

and THRESHOLDS: grade 1 below 45, 2 below 60, 3 below 75, 4 below 90, 5 from 90 up. Few winning
jumps among many, a narrow step and few lines make a puzzle harder; a longer one a little harder.

File layout (all little-endian): b"PGZ1", rows (u8), grades G (u8), count n (u16); G u16: the index
of each grade's first puzzle (grade 1 first); then n entries sorted by grade, each the mask in
(holes + 7) // 8 bytes and the finish hole (u8, 0: anywhere). A grade's puzzles run from its first
index to the next grade's (or n).
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from dataclasses import dataclass
from fractions import Fraction

from pegcore.geometry import Board
from pegcore.puzzlefile import HEAD, MAGIC
from pegcore.rules import legal_jumps, popcount
from pegcore.solver import Solver
from pegcore.symmetry import symmetries, transform

GRADES = 5
THRESHOLDS = (45, 60, 75, 90)  # score below THRESHOLDS[g - 1] is grade g; from the last up, grade 5
PEGS = {5: (5, 10), 6: (6, 11)}  # the candidates' peg counts per board (rows)
PER_GRADE = {5: 12, 6: 8}  # the default number of puzzles per grade
SAMPLE = {5: None, 6: 250}  # canonical positions kept per peg count (None: all of them)


@dataclass(frozen=True)
class Figures:
    length: int  # moves to the end: pegs - 1
    lines: int  # distinct winning jump sequences
    share: Fraction  # mean of (winning jumps / legal jumps) along the best line
    min_share: Fraction  # the smallest of those
    line: tuple[int, ...]  # the best line's jump indices


@dataclass(frozen=True)
class Puzzle:
    mask: int
    finish: int  # 0: anywhere
    grade: int


def figures(board: Board, mask: int, finish: int | None = None, solver: Solver | None = None) -> Figures:
    """The figures of `mask` (module docstring), for one peg anywhere (finish 0 or None) or in hole
    `finish`. ValueError if the position cannot be won. A solver of the same finish may be passed to
    share its memo across calls."""
    if solver is None:
        solver = Solver(board, finish or None)
    lines = solver.count(mask)
    if lines == 0:
        raise ValueError("the position cannot be won")
    ratios = []
    line = []
    m = mask
    while m & (m - 1):
        js = legal_jumps(board, m)
        wins = [(solver.count(m ^ board.flip[j]), j) for j in js]
        wins = [(c, j) for c, j in wins if c > 0]
        ratios.append(Fraction(len(wins), len(js)))
        best = max(wins, key=lambda cj: (cj[0], -cj[1]))[1]
        line.append(best)
        m ^= board.flip[best]
    return Figures(popcount(mask) - 1, lines, sum(ratios, Fraction(0)) / len(ratios), min(ratios), tuple(line))


def per_mille(x: Fraction) -> int:
    return x.numerator * 1000 // x.denominator


def score_of(fig: Figures) -> int:
    return ((1000 - per_mille(fig.share)) // 10 + (1000 - per_mille(fig.min_share)) // 20 + 3 * fig.length
            - 2 * (fig.lines.bit_length() - 1))


def grade_of(fig: Figures) -> int:
    """1 (easy) .. 5 (hardest): the first threshold the score stays below (module docstring)."""
    s = score_of(fig)
    for g, limit in enumerate(THRESHOLDS, 1):
        if s < limit:
            return g
    return GRADES


def canonical_pair(mask: int, finish: int, syms: list[bytes]) -> tuple[int, int]:
    """The smallest image of (mask, finish hole) under the board's symmetries: equal for puzzles
    that are one another's rotation or reflection."""
    return min((transform(mask, s), s[finish - 1] + 1 if finish else 0) for s in syms)


def _key(mask: int, finish: int) -> int:
    """A fixed pseudo-random order (Knuth's multiplicative hash): a sample the same every run."""
    return ((mask * 2654435761) ^ (finish * 40503)) % (1 << 32)


def candidates(board: Board) -> tuple[list[int], list[tuple[int, int]]]:
    """(canonical masks that can be won, one peg anywhere; canonical (mask, finish) pairs where the
    finish hole narrows the winning lines), from positions reachable from the standard starts with
    the board's PEGS, each peg count sampled to SAMPLE[rows] by _key."""
    import numpy as np

    from pegboard.solve.fastsolve import count_layers, reachable_layers

    lo, hi = PEGS[board.rows]
    keep = SAMPLE[board.rows]
    syms = symmetries(board)
    layers, edges = reachable_layers(board, list(range(1, board.holes + 1)))
    anywhere = count_layers(board, layers, edges)
    to_hole = [count_layers(board, layers, edges, h) for h in range(1, board.holes + 1)]
    masks: list[int] = []
    pairs: list[tuple[int, int]] = []
    for k, layer in enumerate(layers):
        if not lo <= board.holes - 1 - k <= hi:
            continue
        won = [int(m) for m in layer[anywhere[k] > 0]]
        won.sort(key=lambda m: _key(m, 0))
        if keep is not None:
            won = won[:4 * keep]  # a few images of each: enough canonical ones after dedupe
        seen: dict[int, None] = {}
        for m in won:
            seen.setdefault(canonical_pair(m, 0, syms)[0])
        picked = list(seen)[:keep]
        masks += picked
        for m in picked:  # the finish holes that leave fewer lines than anywhere
            i = int(np.searchsorted(layer, np.uint64(m)))
            total = anywhere[k][i]
            holes = [h for h in range(1, board.holes + 1) if 0 < to_hole[h - 1][k][i] < total]
            if holes:
                h = min(holes, key=lambda h: _key(m, h))
                pairs.append(canonical_pair(m, h, syms))
    return masks, sorted(set(pairs), key=lambda p: _key(*p))


def generate(rows: int, per_grade: int | None = None) -> list[Puzzle]:
    """per_grade puzzles of each grade (default PER_GRADE[rows]), sorted by grade, then score, mask
    and finish; a quarter of each grade with a finish hole. Distinct up to symmetry. ValueError if
    a grade has too few candidates."""
    if rows not in PEGS:
        raise ValueError("puzzles are made for %s rows, not %r" % (" or ".join(map(str, PEGS)), rows))
    k = PER_GRADE[rows] if per_grade is None else per_grade
    if k < 1:
        raise ValueError("per_grade must be at least 1")
    board = Board(rows)
    masks, pairs = candidates(board)
    solvers: dict[int, Solver] = {}

    def fig(mask: int, finish: int) -> Figures:
        if finish not in solvers:
            solvers[finish] = Solver(board, finish or None)
        return figures(board, mask, finish, solvers[finish])

    graded: dict[tuple[int, bool], list[tuple[int, int, int]]] = {}
    for mask, finish in [(m, 0) for m in sorted(masks, key=lambda m: _key(m, 0))] + pairs:
        f = fig(mask, finish)
        graded.setdefault((grade_of(f), finish != 0), []).append((score_of(f), mask, finish))
    out = []
    for g in range(1, GRADES + 1):
        nfin = min(k // 4, len(graded.get((g, True), [])))
        chosen = graded.get((g, False), [])[:k - nfin] + graded.get((g, True), [])[:nfin]
        if len(chosen) < k:
            raise ValueError("grade %d has %d candidates on %d rows, fewer than %d" % (g, len(chosen), rows, k))
        out += [Puzzle(m, f, g) for _s, m, f in sorted(chosen)]
    return out


def encode(rows: int, puzzles: list[Puzzle], grades: int = GRADES) -> bytes:
    """The table file (module docstring) of `puzzles`, which must be sorted by grade."""
    board = Board(rows)
    nbytes = (board.holes + 7) // 8
    if len(puzzles) > 0xFFFF or [p.grade for p in puzzles] != sorted(p.grade for p in puzzles):
        raise ValueError("puzzles must be sorted by grade, at most 65535")
    first = []
    for g in range(1, grades + 1):
        first.append(sum(1 for p in puzzles if p.grade < g))
    head = MAGIC + struct.pack("<BBH", rows, grades, len(puzzles))
    assert len(head) == HEAD
    body = b"".join(p.mask.to_bytes(nbytes, "little") + bytes([p.finish]) for p in puzzles)
    return head + struct.pack("<%dH" % grades, *first) + body


def decode(data: bytes) -> tuple[int, list[Puzzle]]:
    """(rows, puzzles) of a table file, for checking on the host (the chip uses pegcore.puzzlefile)."""
    if data[:4] != MAGIC or len(data) < HEAD:
        raise ValueError("not a pegboard puzzle table")
    rows, grades, n = struct.unpack_from("<BBH", data, 4)
    nbytes = (Board(rows).holes + 7) // 8
    first = list(struct.unpack_from("<%dH" % grades, data, HEAD)) + [n]
    at = HEAD + 2 * grades
    if len(data) != at + n * (nbytes + 1):
        raise ValueError("puzzle table is truncated or too long")
    out = []
    for g in range(1, grades + 1):
        for i in range(first[g - 1], first[g]):
            e = at + i * (nbytes + 1)
            out.append(Puzzle(int.from_bytes(data[e:e + nbytes], "little"), data[e + nbytes], g))
    return rows, out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pegboard.solve.puzzlegen",
                                description="Write a table of graded puzzles for the board (pegcore/puzzlefile.py).")
    p.add_argument("out", help="the file to write, e.g. firmware/pegcore/t5_puzzles.bin")
    p.add_argument("--rows", type=int, required=True, choices=sorted(PEGS), help="the board's rows")
    p.add_argument("--per-grade", type=int, default=None,
                   help="puzzles per grade (default: %s)" % ", ".join("%d on %d rows" % (v, r)
                                                                       for r, v in PER_GRADE.items()))
    args = p.parse_args(sys.argv[1:] if argv is None else argv)  # bad arguments: a message, exit 2
    if args.per_grade is not None and not 1 <= args.per_grade <= 1000:
        p.error("--per-grade must be 1..1000, not %d" % args.per_grade)
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        p.error("cannot write %s: the folder %s is %s" % (
            args.out, folder, "missing" if not os.path.isdir(folder) else "not writable"))
    try:
        puzzles = generate(args.rows, args.per_grade)
    except ValueError as e:
        print("puzzlegen: %s" % e, file=sys.stderr)
        return 2
    data = encode(args.rows, puzzles)
    with open(args.out, "wb") as f:
        f.write(data)
    counts = [sum(1 for q in puzzles if q.grade == g) for g in range(1, GRADES + 1)]
    print("wrote %s (%d bytes): %d puzzles on %d rows, per grade 1..%d: %s (%d with a finish hole)" % (
        args.out, len(data), len(puzzles), args.rows, GRADES, " ".join(map(str, counts)),
        sum(1 for q in puzzles if q.finish)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
