"""The steady picture of the board and the current limiter every frame passes through."""

from pegfw import colors

MA_PER_CHANNEL = 20  # WS2812B: ~20 mA per colour channel at full scale
# PEGBOARD_CURRENT_MA: the range pegfw.config accepts and the default for an absent key
CURRENT_MA_MIN = 50
CURRENT_MA_MAX = 5000
CURRENT_MA_DEFAULT = 400


def estimate_ma(frame, ma_per_channel=MA_PER_CHANNEL):
    total = 0
    for c in frame:
        total += colors.channel_sum(c)
    return total * ma_per_channel // 255


def budget_before_settings(value):
    """The LED current budget of the frames shown before the settings are validated, or instead
    of the game (the first light, blink codes), from PEGBOARD_CURRENT_MA's value as typed_getenv
    reads it (None: absent; "": malformed): the value where pegfw.config accepts it (the game's own
    budget), the default where it is absent (as the game's), and the lowest budget accepted
    where it is malformed or out of range, so that a mistyped budget never lets the board draw
    more than any valid one could."""
    if value is None:
        return CURRENT_MA_DEFAULT
    try:
        n = int(value)
    except (TypeError, ValueError):
        return CURRENT_MA_MIN
    return n if CURRENT_MA_MIN <= n <= CURRENT_MA_MAX else CURRENT_MA_MIN


class Limiter:
    """Applies brightness (percent) and scales any frame down so its estimated LED current never
    exceeds the budget. Integer maths only."""

    def __init__(self, budget_ma, brightness=100, ma_per_channel=MA_PER_CHANNEL):
        self.budget_ma = budget_ma
        self.brightness = brightness  # percent; change it through set_brightness
        self.ma_per_channel = ma_per_channel
        # colour -> colour at this brightness: small ints both (24 bits: a 32-bit chip's small
        # ints end at 2**30, and bigger ones would be allocated), cleared when full (rainbows make
        # many colours) rather than stuck with colours no longer shown
        self._scaled = {}

    def set_brightness(self, pct):
        self.brightness = pct
        self._scaled = {}

    def limit(self, frame):
        pct = self.brightness
        cache = self._scaled
        try:
            out = [cache[c] for c in frame]  # a comprehension: the hint's first frame waits on this
        except KeyError:  # a colour not seen lately
            out = []
            for c in frame:
                s = cache.get(c)
                if s is None:
                    if len(cache) >= 32:
                        cache.clear()
                    s = cache[c] = colors.scale(c, pct, 100)
                out.append(s)
        # channel-sum allowed by the budget (floor: stay under, never over); the sum is only
        # worth taking when a frame this bright could pass it (not at the default 40 %)
        allowed = self.budget_ma * 255 // self.ma_per_channel
        if len(out) * 765 * pct // 100 > allowed:
            total = 0
            for s in out:
                total += colors.channel_sum(s)
            if total > allowed:
                for i in range(len(out)):
                    out[i] = colors.scale(out[i], allowed, total)
        return out


def peg_color(hole, theme):
    if theme == "wooden":
        return colors.WOODEN[(hole - 1) % 3]
    return colors.PEG


def _loadable():
    """The theme's code (pegfw.peg_theme, pegcore.pegcolours) may be imported now: it is in
    memory, or no deploy is rewriting the drive (pegfw.ondemand.frozen; meanwhile pegs show the
    plain colour)."""
    import sys

    from pegfw import ondemand

    return "pegfw.peg_theme" in sys.modules or not ondemand.frozen[0]


def base_frame(board, tracker, theme="plain"):
    """Pegs and holes as sensed, with the lifted peg's landing holes, the peg still to pull out,
    and illegal placements in red. While the board waits for a position to be set (`setup` with
    pegs), the holes to fill are lit as landings and the pegs to take out as pegs to pull. With
    the theme "pegs", each peg of the game keeps its colour (pegfw.peg_theme)."""
    s = tracker.sensed
    setup = tracker.mode == "setup"
    want = tracker.target
    hues = None
    if theme == "pegs" and tracker.start and _loadable():
        from pegfw.peg_theme import peg_hues  # only for this theme: the chip's heap keeps the rest

        hues = peg_hues(board, tracker)
    frame = []
    for i in range(board.holes):
        bit = 1 << i
        if want:
            if (s ^ want) & bit:
                c = colors.LANDING if want & bit else colors.PENDING
            else:
                c = peg_color(i + 1, theme) if s & bit else colors.EMPTY
        elif tracker.bad & bit:
            c = colors.ERROR
        elif tracker.pending & bit:
            c = colors.PENDING
        elif tracker.landing & bit:
            c = colors.LANDING
        elif s & bit:
            if setup:
                c = colors.SETUP
            elif hues is not None and hues[i] >= 0:
                c = hues[i]
            else:
                c = peg_color(i + 1, theme)
        else:
            c = colors.EMPTY
        frame.append(c)
    return frame
