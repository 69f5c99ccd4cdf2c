"""Each hole's role on the terminal UI (peg, empty, hint, ...): its words, its symbol (so that nothing
rests on colour alone) and its colours (Okabe–Ito's, and Paul Tol's wine, apart with red-green
colour blindness too), and how a role is told from the board's state and lights. The app
(pegboard.tui.app) draws what this gives."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from rich.text import Text
from textual.color import Color

from pegcore.pegcolours import HUES


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

# pegfw.colors (the host does not import pegfw): what each LED colour the board lights means here.
# The watch lights a jump tried green (LANDING) and one taken back red (ERROR); a lost position
# blinks its pegs red (LOST = ERROR); free play greys its pegs (SETUP); an update ambers the holes.
LED_ROLES = ((0x000014, "empty"), (0x281400, "empty"), (0x282828, "peg"), (0xFF963C, "peg"),
             (0x00FF00, "landing"), (0xFF3C00, "pull"), (0xFF0000, "illegal"), (0x0050FF, "from"),
             (0xFF00C8, "over"), (0x00FF78, "to"), (0xFFFFFF, "demo")) + tuple((c, "peg") for c in HUES)
# theme "pegs" (pegcore.pegcolours.HUES): each peg keeps its colour; a peg shows here in its own
# (the role's symbol, on the LED's hue), so the eye follows it across the screen as on the board
WOODEN = (0xFF0000, 0x0000FF, 0xFFC800)  # theme "wooden": the pegs' colours, by hole
DIM = 0.35  # of full (at the board's brightness): the faint colours (empty, free play) sit far below
NEAR = 0.2  # how far (unit RGB directions) a lit colour may be from the one it is taken for
DARK = Color(32, 32, 32)

# -- colours and roles ------------------------------------------------------------------------
def _direction(rgb: tuple[float, ...]) -> tuple[float, ...]:
    top = max(rgb)
    return tuple(c / top for c in rgb)


def _split(c: int) -> tuple[int, int, int]:
    return c >> 16, c >> 8 & 255, c & 255


def _like(rgb: tuple[int, ...], led: int) -> bool:
    return math.dist(_direction(rgb), _direction(_split(led))) < NEAR


def led_role(rgb: list[int] | tuple[int, ...], brightness: int = 100) -> str | None:
    """The role of a hole lit `rgb` (as the state reply gives it: after the board's brightness and
    current limit), or None for a colour with no role (the game-over rainbow, the self-test)."""
    rgb = tuple(rgb[:3])
    if len(rgb) < 3 or max(rgb) == 0:
        return "empty"
    dim = max(rgb) * 100 / (255 * max(brightness, 1)) < DIM
    for led, role in LED_ROLES:
        if (max(_split(led)) / 255 < DIM) == dim and _like(rgb, led):
            return role
    return None


def hole_role(h: int, st: dict[str, Any]) -> str | None:
    """What hole `h` shows, from its LED and what the state says the LED cannot: the lifted peg
    (its hole is dark) and the wooden theme's pegs (lit red, blue and yellow)."""
    lights = st.get("lights") or []
    rgb = lights[h - 1] if h - 1 < len(lights) else []
    role = led_role(rgb, st.get("brightness") or 100)
    if role == "empty" and st.get("lifted") == h:
        return "lifted"
    if (st.get("theme") == "wooden" and h in (st.get("pegs") or []) and h not in (st.get("illegal") or [])
            and len(rgb) >= 3 and max(rgb) and _like(tuple(rgb), WOODEN[(h - 1) % 3])):
        return "peg"
    if st.get("mode") == "over" and role not in ("peg", "empty"):
        return None  # the game-over show: its colours celebrate, they mean nothing
    return role


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


def _visible(rgb: list[int]) -> Color:
    # a colour with no role: LEDs run at ~40 % brightness, so lift dim ones as the eye sees them
    if not rgb or max(rgb) == 0:
        return DARK
    m = max(rgb)
    k = 255 / m if m < 128 else 1.0
    r, g, b = (min(255, int(c * k)) for c in rgb[:3])
    return Color(r, g, b)


def hole_look(h: int, st: dict[str, Any], pegs: set[int]) -> tuple[str, Color, Color]:
    """(symbol, background, symbol colour) of hole `h`."""
    role = hole_role(h, st)
    lights = st.get("lights") or []
    rgb = lights[h - 1] if h - 1 < len(lights) else []
    black, white = Color(0, 0, 0), Color(255, 255, 255)
    if role == "peg" and st.get("theme") == "pegs" and len(rgb) >= 3 and max(rgb):
        own = peg_hue(rgb)
        if own is not None:  # theme "pegs": the peg in its own colour
            bg = Color(*_split(own))
            return ROLES["peg"].symbol, bg, black if contrast(bg, black) >= contrast(bg, white) else white
    if role is not None:
        r = ROLES[role]
        return r.symbol, Color.parse(r.bg), Color.parse(r.fg)
    bg = _visible(rgb) if rgb else DARK
    fg = black if contrast(bg, black) >= contrast(bg, white) else white
    return ROLES["peg" if h in pegs else "empty"].symbol, bg, fg


def peg_hue(rgb: list[int] | tuple[int, ...]) -> int | None:
    """The theme "pegs" colour (pegcore.pegcolours.HUES) a lit peg shows, or None."""
    for c in HUES:
        if _like(tuple(rgb[:3]), c):
            return c
    return None


def lit_jump(st: dict[str, Any], holes: int) -> list[int] | None:
    """The jump the lights show (from, over, to all lit once each), as [from, over, to]."""
    where: dict[str, list[int]] = {"from": [], "over": [], "to": []}
    for h in range(1, holes + 1):
        role = hole_role(h, st)
        if role in where:
            where[role].append(h)
    if all(len(v) == 1 for v in where.values()):
        return [where["from"][0], where["over"][0], where["to"][0]]
    return None


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
