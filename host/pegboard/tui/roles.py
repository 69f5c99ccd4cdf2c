"""Each hole's role on the terminal UI (peg, empty, hint, ...): its words, its symbol (so that nothing
rests on colour alone) and its colours (Okabe–Ito's, and Paul Tol's wine, apart with red-green
colour blindness too), and how a role is told from the board's state, never from the lights'
colours. The app (pegboard.tui.app) draws what this gives."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from rich.text import Text
from textual.color import Color

from pegcore.pegcolours import HUES
from pegcore.rolemotion import FULL, level


class Role(NamedTuple):
    words: str   # in the legend
    symbol: str  # in the hole and the legend: the role without colour
    bg: str      # the hole's colour
    fg: str      # the symbol's colour (>= 3:1 against bg, WCAG)


ROLES = {
    "empty": Role("empty", "○", "#303030", "#c0c0c0"),
    "peg": Role("peg", "●", "#e69f00", "#000000"),
    "lifted": Role("lifted", "↑", "#f0e442", "#000000"),
    "landing": Role("may land", "◎", "#009e73", "#000000"),
    "pull": Role("pull out", "⊗", "#882255", "#ffffff"),
    "illegal": Role("illegal, lost", "✕", "#d55e00", "#000000"),
    "from": Role("jump this", "★", "#0072b2", "#ffffff"),
    "over": Role("over this", "◆", "#cc79a7", "#000000"),
    "to": Role("into here", "◇", "#56b4e9", "#000000"),
    "demo": Role("demo peg", "■", "#ffffff", "#000000"),
}

# theme "pegs" (pegcore.pegcolours.HUES): each peg keeps its colour; a peg shows here in its own
# (the role's symbol, on the LED's hue), so the eye follows it across the screen as on the board
NEAR = 0.2  # how far (unit RGB directions) a lit colour may be from the hue it is taken for
JUMP_ROLES = ("from", "over", "to")


def _split(c: int) -> tuple[int, int, int]:
    return c >> 16, c >> 8 & 255, c & 255


def _direction(rgb: tuple[float, ...]) -> tuple[float, ...]:
    top = max(rgb)
    return tuple(c / top for c in rgb)


def hole_role(h: int, st: dict[str, Any]) -> str:
    """What hole `h` shows, from the board's state (docs/protocol.md: `state`): its pegs, the
    lifted peg, where it may land, what to pull out, illegal pegs, a position being set, and the
    show running over them (`show`: a hint, the guide, a demonstration, the solver's search, a
    review). Never
    from the LEDs' colours: the game-over celebration lights empty holes, and they stay empty."""
    show = st.get("show") or {}
    kind = show.get("kind")
    move = show.get("move") or []
    if kind in ("demo", "watch"):  # the show lights its own pegs, not the board's
        if show.get("tried") == h:
            return "landing"
        if show.get("taken_back") == h:
            return "illegal"
        if h in move:
            return JUMP_ROLES[move.index(h)]
        if h in (show.get("pegs") or []):
            return "demo" if kind == "demo" else "landing" if show.get("solved") else "peg"
        return "empty"
    if kind == "review":  # the position before the move that lost the win: that move, then a better one
        if h in move:
            return "illegal" if show.get("lost") else JUMP_ROLES[move.index(h)]
        return "peg" if h in (show.get("pegs") or []) else "empty"
    pegs = st.get("pegs") or []
    if kind == "guide" and show.get("put_back") and h in move:  # a move off its line, to undo
        return "pull" if move.index(h) == 2 else "landing"
    if kind in ("hint", "guide") and h in move:
        return JUMP_ROLES[move.index(h)]
    if kind == "hint" and show.get("lost") and h in pegs:
        return "illegal"  # a lost position blinks its pegs
    target = st.get("target")
    if target:  # a position being set: the holes to fill, the pegs to take out
        if (h in pegs) != (h in target):
            return "landing" if h in target else "pull"
        return "peg" if h in pegs else "empty"
    for key, role in (("illegal", "illegal"), ("pull", "pull"), ("landing", "landing")):
        if h in (st.get(key) or []):
            return role
    if st.get("lifted") == h:
        return "lifted"
    return "peg" if h in pegs else "empty"


def luminance(color: str | Color) -> float:
    """WCAG relative luminance."""
    c = Color.parse(color) if isinstance(color, str) else color

    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)


def contrast(a: str | Color, b: str | Color) -> float:
    """WCAG contrast ratio, 1..21."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def hole_look(h: int, st: dict[str, Any]) -> tuple[str, Color, Color]:
    """(symbol, background, symbol colour) of hole `h`: its role's; with the theme "pegs", a peg
    in the hue its LED shows (the colour from the light, the role from the state)."""
    role = hole_role(h, st)
    if role == "peg" and st.get("theme") == "pegs":
        lights = st.get("lights") or []
        own = peg_hue(lights[h - 1]) if h - 1 < len(lights) and max(lights[h - 1][:3] or [0]) else None
        if own is not None:
            bg = Color(*_split(own))
            black, white = Color(0, 0, 0), Color(255, 255, 255)
            return ROLES["peg"].symbol, bg, black if contrast(bg, black) >= contrast(bg, white) else white
    r = ROLES[role]
    return r.symbol, Color.parse(r.bg), Color.parse(r.fg)


def moving_look(h: int, st: dict[str, Any], ms: int) -> tuple[str, Color, Color]:
    """hole_look at `ms` with the board's roles "motion": the role's colour at its pattern's level
    then (pegcore.rolemotion, as the board's LEDs), the symbol kept readable on a dimmed hole."""
    symbol, bg, fg = hole_look(h, st)
    lv = level(hole_role(h, st), ms)
    if lv >= FULL:
        return symbol, bg, fg
    dim = Color(bg.r * lv // FULL, bg.g * lv // FULL, bg.b * lv // FULL)
    white = Color(255, 255, 255)
    return symbol, dim, fg if contrast(dim, fg) >= contrast(dim, white) else white


def peg_hue(rgb: list[int] | tuple[int, ...]) -> int | None:
    """The theme "pegs" colour (pegcore.pegcolours.HUES) a lit peg shows, or None."""
    for c in HUES:
        if math.dist(_direction(tuple(rgb[:3])), _direction(_split(c))) < NEAR:
            return c
    return None


def shown_jump(st: dict[str, Any]) -> list[int] | None:
    """The jump a demonstration lights now, as [from, over, to], or None."""
    show = st.get("show") or {}
    move = show.get("move")
    return list(move) if show.get("kind") == "demo" and move else None


def legend() -> Text:
    """Every role: its symbol in its colours, and its words; two to a line."""
    text = Text()
    for n, r in enumerate(ROLES.values()):
        if n % 2:
            text.append("  ")
        elif n:
            text.append("\n")
        text.append(" %s " % r.symbol, style="%s on %s" % (r.fg, r.bg))
        text.append(" " + (r.words.ljust(9) if n % 2 == 0 else r.words))
    return text
