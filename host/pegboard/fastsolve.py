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


def children(board: Board, layer: np.ndarray) -> np.ndarray:
    """Sorted unique positions one jump after any position of `layer`."""
    need, land, flip = _jump_arrays(board)
    parts = []
    for n, l, f in zip(need, land, flip):
        ok = ((layer & n) == n) & ((layer & l) == 0)
        if ok.any():
            parts.append(layer[ok] ^ f)
    if not parts:
        return np.empty(0, dtype=np.uint64)
    if board.holes <= 24:
        # dedupe through a flag per possible mask: linear, unlike sorting (2**21 flags on T6)
        seen = np.zeros(1 << board.holes, dtype=bool)
        for part in parts:
            seen[part] = True
        return np.flatnonzero(seen).astype(np.uint64)
    return np.unique(np.concatenate(parts))


def reachable_layers(board: Board, starts: list[int], progress: Progress | None = None) -> list[np.ndarray]:
    """Layers of positions reachable from the `starts` (1-based empty holes), first layer = the
    starts themselves, each a sorted uint64 array, down to the last non-empty layer."""
    layer = np.unique(np.array([start_mask(board, e) for e in starts], dtype=np.uint64))
    layers = [layer]
    total = board.holes - 2
    while True:
        nxt = children(board, layers[-1])
        if progress:
            progress(len(layers), total)
        if nxt.size == 0:
            return layers
        layers.append(nxt)


def count_layers(board: Board, layers: list[np.ndarray], finish: int | None = None) -> list[np.ndarray]:
    """Solutions from every position of every layer (same shapes as `layers`), counted backward.
    uint64 on boards up to 21 holes; Python ints (object arrays) beyond, so nothing overflows."""
    need, land, flip = _jump_arrays(board)
    dtype = np.uint64 if board.holes <= 21 else object
    fmask = board.full if finish is None else 1 << (finish - 1)
    counts: list[np.ndarray] = [np.zeros(0, dtype=dtype)] * len(layers)
    for k in range(len(layers) - 1, -1, -1):
        layer = layers[k]
        single = (layer & (layer - np.uint64(1))) == 0
        c = np.where(single & ((layer & np.uint64(fmask)) != 0), 1, 0).astype(dtype)
        if k + 1 < len(layers):
            below, below_counts = layers[k + 1], counts[k + 1]
            for n, l, f in zip(need, land, flip):
                ok = np.nonzero(((layer & n) == n) & ((layer & l) == 0))[0]
                if ok.size:
                    idx = np.searchsorted(below, layer[ok] ^ f)
                    c[ok] += below_counts[idx]
        counts[k] = c
    return counts


def count_all(board: Board, empties: list[int], finish: int | None = None,
              progress: Progress | None = None) -> dict[int, int]:
    """{empty hole: number of solutions} for each start, finishing in `finish` (or anywhere)."""
    layers = reachable_layers(board, empties, progress)
    counts = count_layers(board, layers, finish)
    first, first_counts = layers[0], counts[0]
    out = {}
    for e in empties:
        i = int(np.searchsorted(first, np.uint64(start_mask(board, e))))
        out[e] = int(first_counts[i])
    return out
