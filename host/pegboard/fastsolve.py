"""A numpy engine for whole-board questions on the host: solution counts from every start at once
and solvability on big boards. Works layer by layer: every jump removes one peg, so positions
with k pegs only lead to positions with k-1 pegs. Agrees with pegcore.solver (tests check it).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from pegcore.geometry import Board, start_mask

Progress = Callable[[int, int], None]


def _jump_arrays(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    need = np.array([int(x) for x in board.need], dtype=np.uint64)
    land = np.array([int(x) for x in board.land], dtype=np.uint64)
    return need, land, need | land


def _legal(layer: np.ndarray, need: np.ndarray, land: np.ndarray) -> np.ndarray:
    """(positions x jumps) table of which jumps are legal where: one array op for all jumps."""
    col = layer[:, None]
    return ((col & need) == need) & ((col & land) == 0)


def _step(board: Board, layer: np.ndarray, need: np.ndarray, land: np.ndarray, flip: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The next layer (sorted unique), and the edges to it: for every legal jump, the row of
    its position in `layer` and the index of its child in the next layer."""
    rows, cols = np.nonzero(_legal(layer, need, land))
    kids = layer[rows] ^ flip[cols]
    if kids.size == 0:
        empty = np.empty(0, dtype=np.uint64)
        return empty, rows, rows
    if board.holes <= 24:
        # dedupe through a flag per possible mask: linear, unlike sorting (2**21 flags on T6),
        # and the running count of flags numbers the children at the same time
        seen = np.zeros(1 << board.holes, dtype=bool)
        seen[kids] = True
        nxt = np.flatnonzero(seen).astype(np.uint64)
        number = np.cumsum(seen, dtype=np.int64) - 1
        return nxt, rows, number[kids]
    nxt, idx = np.unique(kids, return_inverse=True)
    return nxt, rows, idx


def children(board: Board, layer: np.ndarray) -> np.ndarray:
    """Sorted unique positions one jump after any position of `layer`."""
    return _step(board, layer, *_jump_arrays(board))[0]


def reachable_layers(board: Board, starts: list[int], progress: Progress | None = None
                     ) -> tuple[list[np.ndarray], list[tuple[np.ndarray, np.ndarray]]]:
    """Layers of positions reachable from the `starts` (1-based empty holes), first layer = the
    starts themselves, each a sorted uint64 array, and the jump edges between layers."""
    need, land, flip = _jump_arrays(board)
    layers = [np.unique(np.array([start_mask(board, e) for e in starts], dtype=np.uint64))]
    edges = []
    while True:
        nxt, rows, idx = _step(board, layers[-1], need, land, flip)
        if progress:
            progress(len(layers), board.holes - 2)
        if nxt.size == 0:
            return layers, edges
        layers.append(nxt)
        edges.append((rows, idx))


def count_layers(board: Board, layers: list[np.ndarray], edges: list[tuple[np.ndarray, np.ndarray]],
                 finish: int | None = None) -> list[np.ndarray]:
    """Solutions from every position of every layer (same shapes as `layers`), counted backward.
    float64 sums while exact (< 2**53), Python ints beyond, so nothing overflows."""
    fmask = np.uint64(board.full if finish is None else 1 << (finish - 1))
    counts: list[np.ndarray] = [np.zeros(0)] * len(layers)
    for k in range(len(layers) - 1, -1, -1):
        layer = layers[k]
        single = (layer & (layer - np.uint64(1))) == 0
        c = (single & ((layer & fmask) != 0)).astype(np.float64)
        if k < len(edges):
            rows, idx = edges[k]
            below = counts[k + 1]
            if below.dtype == object or (below.size and below.max() * len(board.need) >= 2.0 ** 52):
                c = c.astype(object)
                np.add.at(c, rows, below.astype(object)[idx])
            else:
                c += np.bincount(rows, weights=below[idx], minlength=layer.size)
        counts[k] = c
    return counts


def count_all(board: Board, empties: list[int], finish: int | None = None,
              progress: Progress | None = None) -> dict[int, int]:
    """{empty hole: number of solutions} for each start, finishing in `finish` (or anywhere)."""
    layers, edges = reachable_layers(board, empties, progress)
    counts = count_layers(board, layers, edges, finish)
    first, first_counts = layers[0], counts[0]
    out = {}
    for e in empties:
        i = int(np.searchsorted(first, np.uint64(start_mask(board, e))))
        out[e] = int(first_counts[i])
    return out
