"""What each colour means on the board. (r, g, b), 0..255, before brightness and the limiter."""

OFF = (0, 0, 0)
PEG = (255, 150, 60)        # a peg in its hole: warm white
EMPTY = (0, 0, 20)          # an empty hole: faint blue, so the triangle stays visible
LANDING = (0, 255, 0)       # where the lifted peg may land
PENDING = (255, 60, 0)      # the jumped peg still to pull out
ERROR = (255, 0, 0)         # an illegal placement; also blink codes
HINT_FROM = (0, 80, 255)    # hint: move this peg ...
HINT_OVER = (255, 0, 200)   # ... over this one ...
HINT_TO = (0, 255, 120)     # ... into this hole
LOST = (255, 0, 0)          # the position can no longer finish with one peg
DEMO = (255, 255, 255)
TRY = (0, 255, 0)           # solver show: a jump tried
BACK = (255, 0, 0)          # solver show: a jump taken back
SETUP = (40, 40, 40)        # pegs while the board waits for a new game

# The wooden game's peg colours (theme "wooden"), by hole.
WOODEN = ((255, 0, 0), (0, 0, 255), (255, 200, 0))

# Game-over verdicts: 1 peg is a rainbow; the others pulse one colour.
VERDICT = {"purty smart": (0, 255, 0), "just plain dumb": (255, 200, 0), "eg-no-ra-moose": (255, 0, 0)}


def wheel(pos):
    """Colour wheel 0..255 -> (r, g, b), integer only."""
    pos &= 255
    if pos < 85:
        return (255 - pos * 3, pos * 3, 0)
    if pos < 170:
        pos -= 85
        return (0, 255 - pos * 3, pos * 3)
    pos -= 170
    return (pos * 3, 0, 255 - pos * 3)


def scale(color, num, den):
    return (color[0] * num // den, color[1] * num // den, color[2] * num // den)
