"""The theme "pegs": each peg of the game keeps its colour as it jumps (pegcore.pegcolours).
Loaded by pegfw.lights only while that theme is on, so the other themes keep the heap."""


def index_of(mask):
    """The 0-based index of a one-bit mask."""
    i = 0
    while mask > 1:
        mask >>= 1
        i += 1
    return i


def peg_hues(board, tracker):
    """Theme "pegs": per hole, the colour of the game's peg standing in it (pegcore.pegcolours:
    from the start and the accepted moves), or -1. A jump half made (the jumper placed, the
    jumped peg still in) shows the jumper's colour in its landing hole, and an undo half made
    the pegs it puts back in theirs."""
    from pegcore.pegcolours import hue, peg_ids

    ids = peg_ids(board, tracker.start, tracker.moves)
    p, s = tracker.position, tracker.sensed
    added = s & ~p
    if tracker.pending and added:  # the jumper in its landing hole: the one peg gone is it
        ids[index_of(added)] = ids[index_of(p & ~s)]
    elif added and tracker.moves:  # pegs put back as an undo puts them: as they were before
        before = peg_ids(board, tracker.start, tracker.moves[:-1])
        for i in range(board.holes):
            if added >> i & 1:
                ids[i] = before[i]
    for i in range(board.holes):
        if ids[i] >= 0:
            ids[i] = hue(ids[i])
    return ids


