"""After a power loss mid-game: the saved start hole and the pegs as sensed give the game back.
NVM keeps only the start (flash wears out), so the moves are found again by a bounded search for a
line of jumps from the start to the sensed picture. Loaded only at such a boot, then dropped."""

from pegcore.rules import popcount


def resume(app, empty, mask):
    """Events of taking the game back (none), or of a plain re-read if the pegs do not fit."""
    b, t = app.board, app.tracker
    path = _path(b, b.full & ~(1 << (empty - 1)), mask, 4000)
    if path is None:
        return t.reset(mask)
    t.adopt(empty, path, mask)
    app.link.event("resumed", {"empty": empty, "moves": [b.move_of(j) for j in path]})
    return []


def _path(board, start, target, budget):
    """Jumps from start to target (bounded depth-first search), or None."""
    if start == target:
        return []
    goal = popcount(target)
    if popcount(start) < goal:
        return None
    stack = [(start, 0)]
    path = []
    seen = set()
    need, land, flip = board.need, board.land, board.flip
    while stack and budget > 0:
        m, j = stack[-1]
        while j < len(need):
            if m & need[j] == need[j] and not m & land[j]:
                break
            j += 1
        if j >= len(need):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (m, j + 1)
        c = m ^ flip[j]
        if c == target:
            return path + [j]
        if c in seen or popcount(c) <= goal:
            continue
        seen.add(c)
        budget -= 1
        path.append(j)
        stack.append((c, 0))
    return None
