"""Generate the chip's precomputed hint table (pegcore/hintfile.py describes the format).

    python -m pegboard.solve.tablegen firmware/pegcore/t5_hints.bin firmware/pegcore/t5_finish.bin \
        firmware/pegcore/t5_ends.bin

(the ends table, pegcore/endsfile.py, beside the hint table when its path is left out; and the
opening books t6_book.bin, t7_book.bin beside them)
"""

import os
import struct
import sys

from pegcore.geometry import Board, start_mask
from pegcore.endsfile import HEAD as ENDS_HEAD, MAGIC as ENDS_MAGIC
from pegcore.finishfile import HEAD as FINISH_HEAD, MAGIC as FINISH_MAGIC
from pegcore.hintfile import HEAD, MAGIC
from pegcore.hinttable import NO_JUMP
from pegcore.rules import legal_jumps
from pegcore.solver import Solver
from pegcore.symmetry import canonical, symmetries, transform, transform_jump


def reachable(board: Board) -> set[int]:
    """Every position reachable from any single-vacancy start."""
    seen: set[int] = set()
    stack = [start_mask(board, e) for e in range(1, board.holes + 1)]
    while stack:
        m = stack.pop()
        if m in seen:
            continue
        seen.add(m)
        stack.extend(m ^ board.flip[j] for j in legal_jumps(board, m))
    return seen


def perfect_hash(keys: list[int], slots: int, buckets: int) -> tuple[int, int, bytes, list[int]]:
    """Multipliers k1, k2, one displacement byte per bucket and the slot of each key, such that
    slot(m) = ((m*k2 >> 8) + disp[(m*k1 >> 8) % buckets]) % slots is one-to-one on `keys`
    (hash and displace: the fullest buckets placed first, while the slots are still free)."""
    assert max(keys) < 1 << 15 and len(keys) <= slots
    for k1 in range(12345, 1 << 14, 2):  # deterministic: the same file every time
        k2 = (k1 * 40503) % (1 << 14) | 1
        groups: list[list[int]] = [[] for _ in range(buckets)]
        for m in keys:
            groups[(m * k1 >> 8) % buckets].append(m)
        used = bytearray(slots)
        disp = bytearray(buckets)
        slot: dict[int, int] = {}
        for b in sorted(range(buckets), key=lambda b: -len(groups[b])):
            base = [(m * k2 >> 8) % slots for m in groups[b]]
            for d in range(256):
                spots = [(h + d) % slots for h in base]
                if len(set(spots)) == len(spots) and not any(used[x] for x in spots):
                    break
            else:
                break  # this bucket cannot be placed: other multipliers
            disp[b] = d
            for m, x in zip(groups[b], spots, strict=True):
                used[x] = 1
                slot[m] = x
        if len(slot) == len(keys):
            return k1, k2, bytes(disp), [slot[m] for m in keys]
    raise ValueError("no perfect hash found")


def finish_sets(board: Board) -> list[int]:
    """For every mask, the holes the last peg can still end in (bit i = hole i+1; 0: none)."""
    from pegcore.rules import popcount

    out = [0] * (board.full + 1)
    for m in sorted(range(board.full + 1), key=popcount):  # fewer pegs first: children are done
        if m and not m & (m - 1):
            out[m] = m
        else:
            for j in legal_jumps(board, m):
                out[m] |= out[m ^ board.flip[j]]
    return out


def ends_sets(board: Board) -> list[int]:
    """For every mask, the peg counts k of the dead ends (no jump left) some line of play from it
    reaches, as a bitset: bit k set for k pegs (a dead mask's own count only)."""
    from pegcore.rules import popcount

    out = [0] * (board.full + 1)
    for m in sorted(range(board.full + 1), key=popcount):  # fewer pegs first: children are done
        js = legal_jumps(board, m)
        if not js:
            out[m] = 1 << popcount(m)
        for j in js:
            out[m] |= out[m ^ board.flip[j]]
    return out


def build(rows: int = 5) -> bytes:
    return build_both(rows)[0]


def build_both(rows: int = 5) -> tuple[bytes, bytes]:
    """(the hint table, the finish table that shares its hash)."""
    hints, finish, _ends = build_all(rows)
    return hints, finish


def build_all(rows: int = 5) -> tuple[bytes, bytes, bytes]:
    """(the hint table, the finish table and the ends table, both sharing the hint table's hash)."""
    board = Board(rows)
    if board.holes > 15:
        raise ValueError("the table format holds boards of up to 15 holes")
    syms = symmetries(board)
    solver = Solver(board)
    # every picture the sensors can show, hand-placed ones too: then no hint on this board searches
    masks = sorted({canonical(m, syms)[0] for m in range(board.full + 1)})
    # 10% spare slots and a bucket per 3 positions: a byte of displacement always suffices
    slots, buckets = len(masks) + len(masks) // 10, (len(masks) + 2) // 3
    k1, k2, disp, where = perfect_hash(masks, slots, buckets)
    palette: dict[tuple[int, int], int] = {}
    codes = bytearray(slots)  # spare slots keep code 0: no position lands there
    for m, x in zip(masks, where, strict=True):
        j, _ok, best = solver.hint(m)
        pair = (NO_JUMP if j < 0 else j, best)
        codes[x] = palette.setdefault(pair, len(palette))
    if len(palette) > 256:
        raise ValueError("palette overflow: %d pairs" % len(palette))
    pairs = sorted(palette, key=palette.__getitem__)
    nib = []
    for sym in syms[1:]:
        for shift in (0, 4, 8, 12):
            nib += [transform((v << shift) & board.full, sym) for v in range(16)]
    njumps = len(board.need)
    back = bytearray(len(syms) * njumps)
    for s, sym in enumerate(syms):
        for j in range(njumps):
            back[s * njumps + transform_jump(board, j, sym)] = j
    head = MAGIC + struct.pack("<BBHBBHHH", rows, len(pairs) & 255, slots, njumps, len(syms), buckets, k1, k2)
    assert len(head) == HEAD
    hints = (head + bytes(codes) + bytes(p[0] for p in pairs) + bytes(p[1] for p in pairs)
             + struct.pack("<%dH" % len(nib), *nib) + bytes(back) + disp)
    fsets = finish_sets(board)
    fpal: dict[int, int] = {}
    fcodes = bytearray(slots)
    for m, x in zip(masks, where, strict=True):
        fcodes[x] = fpal.setdefault(fsets[m], len(fpal))
    if len(fpal) > 255:
        raise ValueError("finish palette overflow: %d sets" % len(fpal))
    fhead = FINISH_MAGIC + struct.pack("<BHHH", len(fpal), slots, k1, k2)
    assert len(fhead) == FINISH_HEAD
    finish = fhead + struct.pack("<%dH" % len(fpal), *sorted(fpal, key=fpal.__getitem__)) + bytes(fcodes)
    esets = ends_sets(board)  # the same for every image of a mask: no frame to map
    epal: dict[int, int] = {}
    ecodes = bytearray(slots)
    for m, x in zip(masks, where, strict=True):
        ecodes[x] = epal.setdefault(esets[m], len(epal))
    if len(epal) > 255:
        raise ValueError("ends palette overflow: %d sets" % len(epal))
    ehead = ENDS_MAGIC + struct.pack("<BHHH", len(epal), slots, k1, k2)
    assert len(ehead) == ENDS_HEAD
    ends = ehead + struct.pack("<%dH" % len(epal), *sorted(epal, key=epal.__getitem__)) + bytes(ecodes)
    return hints, finish, ends


def build_book(rows: int) -> bytes:
    """pegcore.book's file: one solution from every start that has one (the core's search)."""
    from pegcore.book import MAGIC as BOOK_MAGIC

    board = Board(rows)
    solver = Solver(board)
    lines = []
    for e in range(1, board.holes + 1):
        m = start_mask(board, e)
        sol = solver.solution(m) if solver.possible(m) else None
        if sol is not None:
            lines.append(bytes([e, len(sol)]) + bytes(sol))
    return BOOK_MAGIC + bytes([rows, len(lines)]) + b"".join(lines)


BOOK_ROWS = (6, 7)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        print("usage: python -m pegboard.solve.tablegen HINTS.bin FINISH.bin [ENDS.bin]", file=sys.stderr)
        return 2
    if len(args) == 2:  # the ends table beside the hint table
        args = args + [os.path.join(os.path.dirname(args[0]), "t5_ends.bin")]
    for path in args:  # before the tables are built: no traceback after the work
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            print("tablegen: cannot write %s: the folder %s is %s" % (
                path, folder, "missing" if not os.path.isdir(folder) else "not writable"), file=sys.stderr)
            return 2
    outputs = list(zip(args, build_all(5), strict=True))
    folder = os.path.dirname(args[0])
    outputs += [(os.path.join(folder, "t%d_book.bin" % r), build_book(r)) for r in BOOK_ROWS]
    for path, data in outputs:
        with open(path, "wb") as f:
            f.write(data)
        print("wrote %s (%d bytes)" % (path, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
