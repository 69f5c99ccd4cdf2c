"""What each colour means on the board. Colours are 0xRRGGBB ints (NeoPixel takes them as they
are): a frame is a list of small ints, so drawing one allocates no colour objects."""

OFF = 0x000000
PEG = 0xFF963C        # a peg in its hole: warm white
EMPTY = 0x000014      # an empty hole: faint blue, so the triangle stays visible
LANDING = 0x00FF00    # where the lifted peg may land
PENDING = 0xFF3C00    # the jumped peg still to pull out
ERROR = 0xFF0000      # an illegal placement; also blink codes
HINT_FROM = 0x0050FF  # hint: move this peg ...
HINT_OVER = 0xFF00C8  # ... over this one ...
HINT_TO = 0x00FF78    # ... into this hole
LOST = 0xFF0000       # the position can no longer finish with one peg
DEMO = 0xFFFFFF
TRY = 0x00FF00        # solver show: a jump tried
BACK = 0xFF0000       # solver show: a jump taken back
SETUP = 0x282828      # pegs while the board waits for a new game
UPDATING = 0x281400   # empty holes while a deploy rewrites the drive (`quiet`): hints are off

# The themes (PEGBOARD_THEME, the `theme` request): "plain" pegs are PEG; "wooden" pegs take the
# wooden game's colours, by hole (WOODEN); with "pegs" each peg of a game keeps its own colour as
# it jumps (pegcore.pegcolours.HUES, loaded only for this theme: pegfw.peg_theme).
THEMES = ("plain", "wooden", "pegs")
# (the red is not ERROR's 0xFF0000: each role's colour is that role's alone, as pegfw.motion needs)
WOODEN = (0xFF0008, 0x0000FF, 0xFFC800)
# PEGBOARD_ROLES, the `roles` request: roles told by colour alone, or by a pattern in time too
ROLE_MODES = ("colour", "motion")


def rgb(r, g, b):
    return r << 16 | g << 8 | b


def scale(color, num, den):
    """Each channel times num / den (rounded down)."""
    return rgb((color >> 16) * num // den, (color >> 8 & 255) * num // den, (color & 255) * num // den)


def channel_sum(color):
    return (color >> 16) + (color >> 8 & 255) + (color & 255)
