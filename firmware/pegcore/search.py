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

