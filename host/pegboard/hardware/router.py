"""A two-layer grid router for the printed board: every connection is found by A* on a grid of
nodes PITCH apart on both copper layers (vias between them), so that any two tracks of different
nets on neighbouring grid lines keep KiCad's clearance by construction. Pads, tracks and vias
block the nodes around them for every other net; a connection's clearance is checked at each node
and half-way between nodes (a finer grid), and a pad reached from a node just outside it gets a
short stub checked exactly. Deterministic: the same parts give the same board."""

from __future__ import annotations

import heapq
import math
from typing import NamedTuple, Optional

PITCH = 0.635        # mm between grid lines: a quarter of 0.1 in, so a header's pins sit on nodes
CLEARANCE = 0.2      # copper to copper, the board's design rule
WIDTHS = {"power": 0.38, "signal": 0.25}
VIA_D, VIA_DRILL = 0.6, 0.3
EDGE_CLEARANCE = 0.5
HALF_MAX = max(WIDTHS.values()) / 2
VIA_COST, TURN_COST = 12, 2


class Rect(NamedTuple):
    """A pad's copper: centre, half sizes, layers ("F", "B" or both), its net."""
    x: float
    y: float
    hw: float
    hh: float
    layers: str
    net: str
    tht: bool = False
    round: bool = False  # a circle of radius hw


class Segment(NamedTuple):
    layer: str  # "F" or "B"
    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    net: str


class Via(NamedTuple):
    x: float
    y: float
    net: str


class RouteError(RuntimeError):
    def __init__(self, net: str, what: str) -> None:
        super().__init__("%s: %s" % (net, what))
        self.net = net


def _rect_dist(r: Rect, x: float, y: float) -> float:
    if r.round:
        return max(math.hypot(x - r.x, y - r.y) - r.hw, 0.0)
    dx = max(abs(x - r.x) - r.hw, 0.0)
    dy = max(abs(y - r.y) - r.hh, 0.0)
    return math.hypot(dx, dy)


def _seg_dist(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> float:
    vx, vy = x2 - x1, y2 - y1
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((x - x1) * vx + (y - y1) * vy) / n))
    return math.hypot(x - x1 - t * vx, y - y1 - t * vy)


class Grid:
    """Blocking on a fine grid (half the pitch): per layer, per fine node, 0 free, k > 0 only net k
    may use it, -1 no net may. `via` is the same for a via's centre (coarse nodes only)."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float, inside) -> None:
        self.x0, self.y0 = x0, y0
        self.nx = int((x1 - x0) / PITCH) + 1
        self.ny = int((y1 - y0) / PITCH) + 1
        self.fx, self.fy = 2 * self.nx - 1, 2 * self.ny - 1
        self.block = {lay: [0] * (self.fx * self.fy) for lay in "FB"}
        self.via = [0] * (self.nx * self.ny)
        self.nets: dict[str, int] = {}
        for j in range(self.fy):
            for i in range(self.fx):
                x, y = x0 + i * PITCH / 2, y0 + j * PITCH / 2
                if not inside(x, y, EDGE_CLEARANCE + HALF_MAX):
                    for lay in "FB":
                        self.block[lay][j * self.fx + i] = -1
                    if i % 2 == 0 and j % 2 == 0:
                        self.via[(j // 2) * self.nx + i // 2] = -1
                elif i % 2 == 0 and j % 2 == 0 and not inside(x, y, EDGE_CLEARANCE + VIA_D / 2):
                    self.via[(j // 2) * self.nx + i // 2] = -1

    def net_id(self, net: str) -> int:
        return self.nets.setdefault(net, len(self.nets) + 1)

    def xy(self, i: int, j: int) -> tuple[float, float]:
        """A coarse node's position."""
        return (round(self.x0 + i * PITCH, 4), round(self.y0 + j * PITCH, 4))

    @staticmethod
    def _claim(cells: list[int], k: int, net: int) -> None:
        if cells[k] == 0:
            cells[k] = net
        elif cells[k] != net:
            cells[k] = -1

    def claim(self, layers: str, net: str, dist, reach: float, box: tuple[float, float, float, float],
              via_reach: Optional[float] = None) -> None:
        """Mark every fine node within `reach` of a shape (dist(x, y): the distance to it) as
        that net's alone on `layers`; coarse nodes within via_reach as closed to other nets' vias."""
        k = self.net_id(net)
        bx0, by0, bx1, by1 = box
        grow = max(reach, via_reach or 0.0)
        i0 = max(0, int((bx0 - grow - self.x0) / (PITCH / 2)))
        i1 = min(self.fx - 1, int((bx1 + grow - self.x0) / (PITCH / 2)) + 1)
        j0 = max(0, int((by0 - grow - self.y0) / (PITCH / 2)))
        j1 = min(self.fy - 1, int((by1 + grow - self.y0) / (PITCH / 2)) + 1)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                x, y = self.x0 + i * PITCH / 2, self.y0 + j * PITCH / 2
                d = dist(x, y)
                if d < reach:
                    for lay in layers:
                        self._claim(self.block[lay], j * self.fx + i, k)
                if via_reach is not None and i % 2 == 0 and j % 2 == 0 and d < via_reach:
                    self._claim(self.via, (j // 2) * self.nx + i // 2, k)

    def free(self, lay: str, fi: int, fj: int, net: int) -> bool:
        v = self.block[lay][fj * self.fx + fi]
        return v == 0 or v == net


class Router:
    """Routes nets pad to pad over a Grid; `segments` and `vias` are the result."""

    def __init__(self, grid: Grid, pads: list[Rect]) -> None:
        self.grid = grid
        self.pads = pads
        self.segments: list[Segment] = []
        self.vias: list[Via] = []
        self.tree: dict[str, set[tuple[str, int, int]]] = {}
        self.bridged: list[list[Rect]] = []
        for p in pads:
            self._claim_pad(p)

    def _claim_pad(self, p: Rect) -> None:
        box = (p.x - p.hw, p.y - p.hh, p.x + p.hw, p.y + p.hh)
        lays = "FB" if p.tht else p.layers
        self.grid.claim(lays, p.net, lambda x, y: _rect_dist(p, x, y), CLEARANCE + HALF_MAX + 0.02, box,
                        CLEARANCE + VIA_D / 2 + 0.05)
        if not p.tht:  # no via in or beside a surface pad, of any net: solder would wick down it
            g, reach = self.grid, VIA_D / 2 + 0.1
            for j in range(max(0, int((p.y - p.hh - reach - g.y0) / PITCH)),
                           min(g.ny, int((p.y + p.hh + reach - g.y0) / PITCH) + 2)):
                for i in range(max(0, int((p.x - p.hw - reach - g.x0) / PITCH)),
                               min(g.nx, int((p.x + p.hw + reach - g.x0) / PITCH) + 2)):
                    if _rect_dist(p, g.x0 + i * PITCH, g.y0 + j * PITCH) < reach:
                        g.via[j * g.nx + i] = -1

    def _inside(self, p: Rect, lay: str) -> list[tuple[str, int, int]]:
        g = self.grid
        out = []
        for j in range(int((p.y - p.hh - g.y0) / PITCH), int((p.y + p.hh - g.y0) / PITCH) + 2):
            for i in range(int((p.x - p.hw - g.x0) / PITCH), int((p.x + p.hw - g.x0) / PITCH) + 2):
                x, y = g.xy(i, j)
                if 0 <= i < g.nx and 0 <= j < g.ny and _rect_dist(p, x, y) < 0.05 \
                        and g.free(lay, 2 * i, 2 * j, g.net_id(p.net)):
                    out.append((lay, i, j))
        return out

    def _near(self, p: Rect, lay: str, width: float) -> list[tuple[str, int, int]]:
        """Nodes just outside a pad that a stub to its centre can reach with clearance."""
        g, net = self.grid, self.grid.net_id(p.net)
        out = []
        for j in range(int((p.y - p.hh - g.y0) / PITCH) - 1, int((p.y + p.hh - g.y0) / PITCH) + 3):
            for i in range(int((p.x - p.hw - g.x0) / PITCH) - 1, int((p.x + p.hw - g.x0) / PITCH) + 3):
                if not (0 <= i < g.nx and 0 <= j < g.ny) or not g.free(lay, 2 * i, 2 * j, net):
                    continue
                x, y = g.xy(i, j)
                if 0.05 <= _rect_dist(p, x, y) < CLEARANCE + HALF_MAX and self._stub_clear(p, lay, x, y, width):
                    out.append((lay, i, j))
        return out

    def _stub_clear(self, p: Rect, lay: str, x: float, y: float, width: float) -> bool:
        need = CLEARANCE + width / 2 + 0.01
        for q in self.pads:
            if q.net != p.net and (q.tht or lay in q.layers) and abs(q.x - x) < 4 and abs(q.y - y) < 4:
                # the stub's distance to q: sample it finely (both are small)
                for t in range(11):
                    sx, sy = p.x + (x - p.x) * t / 10, p.y + (y - p.y) * t / 10
                    if _rect_dist(q, sx, sy) < need:
                        return False
        for s in self.segments:
            if s.net != p.net and s.layer == lay and min(abs(s.x1 - x), abs(s.x2 - x)) < 4:
                for t in range(11):
                    sx, sy = p.x + (x - p.x) * t / 10, p.y + (y - p.y) * t / 10
                    if _seg_dist(sx, sy, s.x1, s.y1, s.x2, s.y2) < need + s.width / 2:
                        return False
        for v in self.vias:
            if v.net != p.net and abs(v.x - x) < 3 and abs(v.y - y) < 3:
                for t in range(11):
                    sx, sy = p.x + (x - p.x) * t / 10, p.y + (y - p.y) * t / 10
                    if math.hypot(sx - v.x, sy - v.y) < need + VIA_D / 2:
                        return False
        return True

    def bridge(self, segments: list[Segment], pads: list[Rect]) -> None:
        """Copper laid by hand before routing (e.g. two pins of one net joined under their
        package): the pads it joins count as one from then on."""
        for seg in segments:
            self._add_segment(seg)
        self.bridged.append(pads)

    def route(self, net: str, pads: list[Rect], width: float) -> None:
        """Join the pads of one net, each to the tree of those already joined (nearest first)."""
        pads = sorted(pads, key=lambda p: (p.x, p.y))
        done = [pads[0]]
        left = pads[1:]
        tree = self.tree.setdefault(net, set())
        self._join(pads[0], tree, done, left)
        while left:
            left.sort(key=lambda p: min(abs(p.x - q.x) + abs(p.y - q.y) for q in done))
            p = left.pop(0)
            self._connect(net, p, tree, width)
            self._join(p, tree, done, left)

    def _join(self, p: Rect, tree: set[tuple[str, int, int]], done: list[Rect], left: list[Rect]) -> None:
        """p is joined: it and every pad bridged to it are part of the tree."""
        group = [p]
        for pads in self.bridged:
            if p in pads:
                group += [q for q in pads if q not in group]
        for q in group:
            if q in left:
                left.remove(q)
            if q not in done:
                done.append(q)
            for lay in self._layers(q):
                tree.update(self._inside(q, lay))

    @staticmethod
    def _layers(p: Rect) -> str:
        return "FB" if p.tht else p.layers

    def _connect(self, net: str, p: Rect, tree: set[tuple[str, int, int]], width: float) -> None:
        g, k = self.grid, self.grid.net_id(net)
        targets: dict[tuple[str, int, int], bool] = {}
        for lay in self._layers(p):
            for n in self._inside(p, lay):
                targets[n] = False
            for n in self._near(p, lay, width):
                targets.setdefault(n, True)
        if not targets:
            raise RouteError(net, "no way into the pad at (%.2f, %.2f)" % (p.x, p.y))
        if not tree:
            raise RouteError(net, "nothing to join to")
        sources = sorted(tree)  # a set's order changes with the hash seed: the board must not
        path = self._search(k, sources, targets)
        if path is None:
            raise RouteError(net, "no route to the pad at (%.2f, %.2f)" % (p.x, p.y))
        x, y = g.xy(path[0][1], path[0][2])
        self._split_at(net, path[0][0], x, y)  # a branch starts at a track's end, never its middle
        self._commit(net, k, path, width)
        end = path[-1]
        if targets[end]:  # a stub from the last node into the pad's centre
            x, y = g.xy(end[1], end[2])
            self._add_segment(Segment(end[0], x, y, p.x, p.y, width, net))
        tree.update(path)

    def _split_at(self, net: str, layer: str, x: float, y: float) -> None:
        for n, sg in enumerate(self.segments):
            if sg.net == net and sg.layer == layer and (x, y) not in ((sg.x1, sg.y1), (sg.x2, sg.y2)) \
                    and _seg_dist(x, y, sg.x1, sg.y1, sg.x2, sg.y2) < 1e-6:
                self.segments[n:n + 1] = [Segment(sg.layer, sg.x1, sg.y1, x, y, sg.width, sg.net),
                                          Segment(sg.layer, x, y, sg.x2, sg.y2, sg.width, sg.net)]
                return

    def _search(self, k: int, sources: list[tuple[str, int, int]],
                targets: dict[tuple[str, int, int], bool]) -> Optional[list[tuple[str, int, int]]]:
        g = self.grid
        tx = [t[1] for t in targets]
        ty = [t[2] for t in targets]
        x0, x1, y0, y1 = min(tx), max(tx), min(ty), max(ty)

        def h(i: int, j: int) -> int:
            return (max(x0 - i, 0, i - x1) + max(y0 - j, 0, j - y1))

        best: dict[tuple[str, int, int, int], int] = {}
        came: dict[tuple[str, int, int, int], Optional[tuple[str, int, int, int]]] = {}
        heap: list[tuple[int, int, tuple[str, int, int, int]]] = []
        count = 0
        for lay, i, j in sources:
            st = (lay, i, j, 4)
            best[st] = 0
            came[st] = None
            heapq.heappush(heap, (h(i, j), count, st))
            count += 1
        dirs = ((1, 0), (0, 1), (-1, 0), (0, -1))
        while heap:
            f, _, st = heapq.heappop(heap)
            lay, i, j, d = st
            cost = best[st]
            if f - h(i, j) > cost:
                continue
            if (lay, i, j) in targets:
                out = []
                cur: Optional[tuple[str, int, int, int]] = st
                while cur is not None:
                    out.append((cur[0], cur[1], cur[2]))
                    cur = came[cur]
                return out[::-1]
            for nd, (di, dj) in enumerate(dirs):
                ni, nj = i + di, j + dj
                if not (0 <= ni < g.nx and 0 <= nj < g.ny):
                    continue
                if not (g.free(lay, 2 * i + di, 2 * j + dj, k) and g.free(lay, 2 * ni, 2 * nj, k)):
                    continue
                c = cost + 1 + (TURN_COST if d not in (4, nd) else 0)
                nst = (lay, ni, nj, nd)
                if c < best.get(nst, 1 << 30):
                    best[nst] = c
                    came[nst] = st
                    heapq.heappush(heap, (c + h(ni, nj), count, nst))
                    count += 1
            other = "B" if lay == "F" else "F"
            v = g.via[j * g.nx + i]
            if (v == 0 or v == k) and g.free(other, 2 * i, 2 * j, k):
                nst = (other, i, j, 4)
                c = cost + VIA_COST
                if c < best.get(nst, 1 << 30):
                    best[nst] = c
                    came[nst] = st
                    heapq.heappush(heap, (c + h(i, j), count, nst))
                    count += 1
        return None

    def _commit(self, net: str, k: int, path: list[tuple[str, int, int]], width: float) -> None:
        g = self.grid
        # straight runs become one segment each; a layer change is a via
        start = path[0]
        prev = path[0]
        direction: Optional[tuple[int, int]] = None
        for node in path[1:] + [None]:  # type: ignore[list-item]
            if node is not None and node[0] != prev[0]:
                self._flush(net, start, prev, width)
                x, y = g.xy(prev[1], prev[2])
                self._add_via(Via(x, y, net))
                start, prev, direction = node, node, None
                continue
            step = None if node is None else (node[1] - prev[1], node[2] - prev[2])
            if node is None or (direction is not None and step != direction):
                self._flush(net, start, prev, width)
                start = prev
            if node is None:
                break
            direction = step
            prev = node

    def _flush(self, net: str, a: tuple[str, int, int], b: tuple[str, int, int], width: float) -> None:
        if a[1:] == b[1:]:
            return
        x1, y1 = self.grid.xy(a[1], a[2])
        x2, y2 = self.grid.xy(b[1], b[2])
        self._add_segment(Segment(a[0], x1, y1, x2, y2, width, net))

    def _add_segment(self, s: Segment) -> None:
        self.segments.append(s)
        box = (min(s.x1, s.x2), min(s.y1, s.y2), max(s.x1, s.x2), max(s.y1, s.y2))
        self.grid.claim(s.layer, s.net, lambda x, y: _seg_dist(x, y, s.x1, s.y1, s.x2, s.y2),
                        CLEARANCE + s.width / 2 + HALF_MAX, box, CLEARANCE + s.width / 2 + VIA_D / 2)

    def _add_via(self, v: Via) -> None:
        self.vias.append(v)
        self.grid.claim("FB", v.net, lambda x, y: math.hypot(x - v.x, y - v.y), CLEARANCE + VIA_D / 2 + HALF_MAX,
                        (v.x, v.y, v.x, v.y), CLEARANCE + VIA_D + 0.05)
