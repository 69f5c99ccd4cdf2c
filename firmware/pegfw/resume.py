"""After a reset mid-game (power cut, watchdog): the game NVM logged (its start and every move,
pegfw.store) is taken back and the pegs as sensed are followed from it, whatever the hands are
doing (a jump half made, pegs in the hand). Moves made while the firmware was down are found by
Catchup, a search run in slices from the App's loop, retried on every new picture until the pegs
match the game. Loaded only while there is such work, then dropped."""

from pegcore.rules import has_move, holes_of, is_legal, popcount

SEEN_LIMIT = 1500  # positions remembered by one search (heap: a set of small ints)


def resume(app):
    """Take the logged game back; returns the events of judging the sensed picture against it."""
    b, store = app.board, app.store
    pos = store.start
    moves = []
    for j in store.moves:
        if j >= len(b.need) or not is_legal(b, pos, j):
            break  # a damaged log: keep the legal part, the search finds the rest
        pos ^= b.flip[j]
        moves.append(j)
    if not app.sensed and not app.tracker.last_jump(pos):
        # an empty board is no game in progress (it was abandoned, or cleared after its end),
        # unless it is the last jump in the hand, as in live play (pegfw.tracker.emptied)
        reason = "game_over" if store.scored else "emptied"
        store.abandon()
        app.link.event("setup", {"reason": reason})
        return app.tracker.reset(0)
    app.link.event("resumed", {"empty": store.empty_start() or None, "start": holes_of(store.start),
                               "finish": store.goal if 0 < store.goal <= b.holes else None,  # (a hole, not a code)
                               "moves": [b.move_of(j) for j in moves]})
    events = adopt(app.tracker, store.start, moves, pos, app.sensed, store.goal)
    if store.scored:  # it ended and was scored before the reset: over again, not a new verdict
        events = [e for e in events if e[0] != "game_over"]
    return events


def catch_up(app, steps):
    """After a resume, a picture the game cannot explain may hold moves made while the firmware
    was down: search for them, `steps` positions a pass (Catchup); when the game is in step
    again, this code leaves the heap (pegfw.ondemand's owner "resume" ends)."""
    from pegfw import ondemand

    t = app.tracker
    if not t.catchup:
        app.chase = None
        ondemand.end("resume")
        return
    c = app.chase
    if c is None or c.target != t.sensed:
        c = app.chase = Catchup(t, t.base[1], t.sensed)
    if c.done:
        return  # the picture fits the game, or nothing fits it: wait for the next one
    found = c.run(steps)
    if found:
        app.take_events(take_line(t, found))
    elif found is False and t.fit(t.position, t.sensed, t.previous()) == 3:
        events = []  # type: list
        t.flag(events)  # no moves explain it either: an illegal placement after all
        app.take_events(events)


def adopt(t, start, moves, position, sensed, goal=0):
    """Tracker `t` takes a game back after a reset: the game began with the pegs `start`;
    `moves`, legal from it, lead to `position`; `sensed` is then judged against it. Returns the
    events (a game that ended while the firmware was down is over now)."""
    gap = t.board.full & ~start
    t.empty_start = holes_of(gap)[0] if popcount(gap) == 1 else None
    t.start, t.target = start, 0
    t.set_goal(goal)  # the game's challenge code (a finish hole is one)
    t.moves, t.position = moves, position
    t.mode = "play"
    t.bad = 0
    t.starts = []
    t.catchup = True
    t.live = False
    t.base = (len(moves), position)
    events = []
    if not has_move(t.board, position):
        t.over(events)
    t.before = position
    t.sensed = sensed & t.board.full
    t.judge(events)
    return events


def take_line(t, jumps):
    """Moves found for the picture from the resumed position (`base`: made while the firmware
    was down): moves taken since the resume that they replace are undone, the new ones
    recorded, then the picture is judged from where they lead."""
    events = []
    n, position = t.base
    while len(t.moves) > n:
        events.append(("undo", t.moves.pop()))
    t.position = position
    t.mode = "play"
    t.bad = 0
    for j in jumps:
        t.record(j, events)
    t.judge(events)
    t.live = False  # found, not followed: a later picture may still replace the line
    t.catchup = True
    return events


class Catchup:
    """Search, a few positions per call, for legal jumps from `start` to a position the picture
    `target` fits cleanly (the position itself, or a jump in progress from it), fewest moves
    first: depth-first to a growing depth (every line to a position has the same length, one
    peg per jump, so each depth needs only its own set of positions seen). `tracker` is the
    game's; `start` the position it resumed at (a line found earlier may have been wrong)."""

    def __init__(self, tracker, start, target):
        self.tracker = tracker
        self.start = start
        self.target = target
        self.low = popcount(target) - 1  # a clean fit has at most one peg placed beyond the position
        self.limit = 0
        self.stack = []
        self.path = []
        self.seen = set()
        self.deeper = True
        # A picture the game cannot explain is searched for a line it fits cleanly. One it
        # explains with pegs in the hand may still be moves made meanwhile, if it has a placement
        # and no move was taken since the resume: then only a position that is exactly the
        # picture will do (a stray peg lifted can make a picture look like a jump in progress).
        fit = tracker.fit(tracker.position, target, tracker.previous())
        self.accept = 1 if fit == 3 else 0
        self.done = fit <= 1 or (fit == 2 and (not target & ~tracker.position or tracker.live
                                               or len(tracker.moves) != tracker.base[0]))

    def run(self, budget):
        """Up to `budget` positions; returns the jumps found, False when there are none, None
        while still searching."""
        b, t = self.tracker.board, self.tracker
        need, land, flip = b.need, b.land, b.flip
        path, seen = self.path, self.seen
        while budget > 0:
            stack = self.stack
            if not stack:
                if not self.deeper:
                    self.done = True
                    return False
                self.limit += 1
                self.stack = [(self.start, 0)]
                path[:] = []
                seen.clear()
                self.deeper = False
                continue
            if len(seen) >= SEEN_LIMIT:
                self.done = True
                return False
            m, j = stack[-1]
            while j < len(need) and (m & need[j] != need[j] or m & land[j]):
                j += 1
            if j >= len(need):
                stack.pop()
                if path:
                    path.pop()
                continue
            stack[-1] = (m, j + 1)
            c = m ^ flip[j]
            if c in seen or popcount(c) < self.low:
                continue
            seen.add(c)
            budget -= 1
            if len(path) + 1 < self.limit:
                path.append(j)
                stack.append((c, 0))
            elif t.fit(c, self.target, -1) <= self.accept:
                self.done = True
                return path + [j]
            elif popcount(c) > self.low:
                self.deeper = True
        return None
