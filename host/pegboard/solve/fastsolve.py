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


def min_moves(board: Board, empty: int, finish: int | None = None,
              progress: Progress | None = None) -> tuple[int, list[int]] | None:
    """A solution with the fewest moves (a run of jumps by one peg is one move) from `empty`, as
    (moves, jump indices), or None: the same answer as pegcore's Solver.min_moves, for boards
    where that is too slow. Layer by layer over (position, hole the last jump landed in) states,
    keeping the fewest moves to each, through positions that can still finish only."""
    layers, _edges = reachable_layers(board, [empty])
    alive = [c > 0 for c in count_layers(board, layers, _edges, finish)]
    if not alive[0][0]:
        return None
    need, land, flip = _jump_arrays(board)
    frm = np.frombuffer(board.jump_from, dtype=np.uint8).astype(np.int64)
    to = np.frombuffer(board.jump_to, dtype=np.uint8).astype(np.int64)
    # states of the current layer: position index, last landing hole + 1 (0: none yet), moves
    pos = np.zeros(1, dtype=np.int64)
    last = np.zeros(1, dtype=np.int64)
    dist = np.zeros(1, dtype=np.int64)
    history: list[tuple[np.ndarray, np.ndarray]] = []  # per layer: (parent state, jump) of each state
    for k in range(len(layers) - 1):
        layer, nxt = layers[k], layers[k + 1]
        rows, cols = np.nonzero(_legal(layer, need, land))
        kids = np.searchsorted(nxt, layer[rows] ^ flip[cols])
        keep = alive[k + 1][kids]
        rows, cols, kids = rows[keep], cols[keep], kids[keep]
        # pair every state with every jump from its position (states sorted by position)
        order = np.argsort(pos, kind="stable")
        pos, last, dist = pos[order], last[order], dist[order]
        if history:
            history[-1] = (history[-1][0][order], history[-1][1][order])
        first = np.searchsorted(pos, rows, side="left")
        many = np.searchsorted(pos, rows, side="right") - first
        edge = np.repeat(np.arange(rows.size), many)
        state = np.repeat(first - np.cumsum(many) + many, many) + np.arange(edge.size)
        j = cols[edge]
        cost = dist[state] + (frm[j] + 1 != last[state])
        key = kids[edge] * 64 + to[j] + 1
        best = np.lexsort((cost, key))  # by key, then fewest moves first
        key, cost, state, j = key[best], cost[best], state[best], j[best]
        head = np.ones(key.size, dtype=bool)
        head[1:] = key[1:] != key[:-1]
        pos, last, dist = key[head] // 64, key[head] % 64, cost[head]
        history.append((state[head], j[head]))
        if progress:
            progress(k + 1, len(layers) - 1)
    final = layers[-1][pos]
    fmask = np.uint64(board.full if finish is None else 1 << (finish - 1))
    wins = np.flatnonzero(((final & (final - np.uint64(1))) == 0) & ((final & fmask) != 0))
    if wins.size == 0:
        return None
    s = int(wins[np.argmin(dist[wins])])
    moves = int(dist[s])
    jumps = []
    for parents, js in reversed(history):
        jumps.append(int(js[s]))
        s = int(parents[s])
    jumps.reverse()
    return moves, jumps
