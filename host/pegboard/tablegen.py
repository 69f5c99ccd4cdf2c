"""Generate the chip's precomputed hint table (pegcore/hinttable.py describes the format).

    python -m pegboard.tablegen firmware/pegcore/t5_hints.bin
"""

import struct
import sys

from pegcore.geometry import Board, start_mask
from pegcore.hinttable import MAGIC, NO_JUMP
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


def build(rows: int = 5) -> bytes:
    board = Board(rows)
    if board.holes > 16:
        raise ValueError("the table format holds boards of up to 16 holes")
    syms = symmetries(board)
    solver = Solver(board)
    masks = sorted({canonical(m, syms)[0] for m in reachable(board)})
    palette: dict[tuple[int, int], int] = {}
    codes = bytearray()
    for m in masks:
        j, _ok, best = solver.hint(m)
        pair = (NO_JUMP if j < 0 else j, best)
        codes.append(palette.setdefault(pair, len(palette)))
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
    head = MAGIC + struct.pack("<BBHBB", rows, len(pairs) & 255, len(masks), njumps, len(syms))
    return (head + struct.pack("<%dH" % len(masks), *masks) + bytes(codes)
            + bytes(p[0] for p in pairs) + bytes(p[1] for p in pairs)
            + struct.pack("<%dH" % len(nib), *nib) + bytes(back))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m pegboard.tablegen OUT.bin", file=sys.stderr)
        return 2
    data = build(5)
    with open(args[0], "wb") as f:
        f.write(data)
    print("wrote %s (%d bytes)" % (args[0], len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
