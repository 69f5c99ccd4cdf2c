"""A challenge for the game in progress (docs/protocol.md, `challenge`): finish in a hole, leave
exactly K pegs, or the reverse game (as many pegs as possible with no jump left). Loaded while a
game has one (App.challenge; pegfw.ondemand owner "challenge") with pegcore.targets and, on 15
holes, the finish and ends tables: a hint toward the target is then a few table lookups. Boards
without the tables search a slice a pass (pegfw.jobs.ChallengeHint).

The game's challenge is one byte in the NVM record (pegfw.nvm_format: a finish hole, LEAVE_CODE +
K, MOST_CODE + N): code_of and target_of convert."""

from pegcore import targets
from pegfw.nvm_format import LEAVE_CODE, MOST_CODE
from pegfw.protocol import ProtocolError


def code_of(target):
    kind, n = target
    if kind == targets.FINISH:
        return n
    return (LEAVE_CODE if kind == targets.LEAVE else MOST_CODE) + n


def target_of(code):
    """The target of a challenge code (0: None)."""
    if not code:
        return None
    if code < LEAVE_CODE:
        return targets.FINISH, code
    if code < MOST_CODE:
        return targets.LEAVE, code - LEAVE_CODE
    return targets.MOST, code - MOST_CODE


def text_of(code):
    """The challenge's words on the wire ("finish:13", "leave:3", "most:10"), or None."""
    t = target_of(code)
    return None if t is None else targets.to_text(t)


class Challenge:
    """The target of the game in progress, and the tables that answer for it."""

    def __init__(self, board, table, code):
        self.code = code
        self.target = target_of(code)
        try:
            self.targets = targets.open_tables(board, table)
        except (OSError, ValueError):  # a table missing or damaged: search, as the big boards do
            self.targets = targets.Targets(board)

    def close(self):
        self.targets.close()

    def text(self):
        return targets.to_text(self.target)

    def hint(self, mask):
        """(jump or -1, reachable: True / False / None = search)."""
        return self.targets.hint(self.target, mask)

    def reachable(self, mask):
        return self.targets.reachable(self.target, mask)

    def verdict(self, mask):
        """The game over's fields about the challenge."""
        met, _left, wanted = self.targets.verdict(self.target, mask)
        return {"challenge": self.text(), "met": met, "wanted": wanted}


def resolve(board, table, text, start, position):
    """The challenge code for `text` ("finish:13", "finish", "leave:3", "most"; "none" or None: 0)
    set in a game from `start` standing at `position`: "finish" is the hole that started empty,
    "most" the most pegs a dead end from `position` can hold (15 holes; elsewhere not known: any
    dead end meets it). ValueError naming what is wrong."""
    if text is None or text == "none":
        return 0
    t = targets.parse(text, board.holes)
    if t[0] == targets.MOST and t[1] == 0 and table is not None:
        tg = targets.open_tables(board, table)
        try:
            t = tg.resolve(t, position)
        finally:
            tg.close()
    elif t[0] == targets.FINISH:
        t = targets.Targets(board).resolve(t, start)
    return code_of(t)


class TargetShow:
    """The target lit for a few seconds once set: the finish hole, or K holes from hole 1 for
    "leave K" and the reverse game's N (a count to read), blinking in the hint's landing colour."""

    def __init__(self, board, start, code, duration=3000):
        from pegfw import colors

        self.start, self.duration, self.colour = start, duration, colors.HINT_TO
        kind, n = target_of(code)
        self.holes = [n - 1] if kind == targets.FINISH else list(range(min(n, board.holes)))

    def frame(self, now, base):
        from pegfw.clock import ticks_diff

        t = ticks_diff(now, self.start)
        if t >= self.duration:
            return None
        if (t // 400) % 2:
            return base
        out = list(base)
        for i in self.holes:
            out[i] = self.colour
        return out


def set_challenge(app, text, now):
    """Set (text "none": take off) the challenge of the game in play (App.set_challenge: the
    `challenge` request, a double press); its fields for the reply and the event."""
    t = app.tracker
    try:
        if text != "none":
            targets.parse(text, app.board.holes)  # a bad target is said first, game or not
        if t.mode != "play":
            raise ProtocolError("bad_args", "a challenge is for a game in play: start a game first")
        code = resolve(app.board, app.table, text, t.start, t.position)
    except ValueError as e:
        raise ProtocolError("bad_args", str(e))
    t.set_goal(code)
    app.store.set_goal(code)
    fields = {"challenge": None, "reachable": None}
    if code:
        app.challenge = c = Challenge(app.board, app.table, code)
        fields = {"challenge": c.text(), "reachable": c.reachable(t.position)}
        app.shows.run("hint", TargetShow(app.board, now, code))
    t.version += 1
    app.link.event("challenge", fields)
    return fields
