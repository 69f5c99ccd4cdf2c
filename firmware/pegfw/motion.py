"""PEGBOARD_ROLES = "motion": every role's light follows its pattern in time (pegcore.rolemotion)
as well as its colour. Loaded only while motion is on. Applied to a frame after the current
limiter, and only ever dimming, so a pattern never raises the frame's current."""

from pegcore.rolemotion import PATTERNS
from pegfw import colors

# a role's colour -> its pattern: each role colour is that role's alone (no theme's peg takes one:
# tests/test_senses.py checks), so the colour in the unlimited frame says the role
BY_COLOUR = {colors.HINT_FROM: PATTERNS["from"], colors.HINT_OVER: PATTERNS["over"],
             colors.HINT_TO: PATTERNS["to"], colors.LANDING: PATTERNS["landing"],
             colors.PENDING: PATTERNS["pull"], colors.ERROR: PATTERNS["illegal"]}
_seen = [None, ()]  # type: list  # the last unlimited frame and its (pixel, pattern)s: the steady picture is one list


def apply(raw, out, now):
    """`out` (the limited frame, changed in place and returned) with each role's level at `now`,
    the roles read from `raw` (the same frame before the limiter)."""
    if raw is not _seen[0]:
        lit = []
        for i in range(len(raw)):
            p = BY_COLOUR.get(raw[i])
            if p is not None:
                lit.append((i, p))
        _seen[0], _seen[1] = raw, lit
    for i, p in _seen[1]:
        k = p[1][(now >> p[0]) & 15]
        if k < 8:
            out[i] = colors.scale(out[i], k, 8)
    return out
