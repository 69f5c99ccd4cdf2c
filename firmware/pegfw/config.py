"""settings.toml -> a validated Config. Read once at start-up through a getenv function that reads
the file the same on every supported CircuitPython version (pegfw.hardware.typed_getenv): None for
an absent key, a str for a "quoted string", an int for a bare integer, ValueError for any other
value (an unquoted word such as `PEGBOARD_THEME = wooden`, true/false, a broken string). Text keys
must be quoted strings; number keys take an integer, bare or quoted. Every bad value is reported,
each on its own console line; the first one's blink code is shown (docs/architecture.md, "Reading
settings.toml", has the whole rule)."""

from pegfw.colors import ROLE_MODES, THEMES
from pegfw.lights import CURRENT_MA_DEFAULT, CURRENT_MA_MAX, CURRENT_MA_MIN

ORDERS = ("RGB", "GRB", "RBG", "GBR", "BRG", "BGR", "RGBW", "GRBW")

# Blink codes (number of red blinks) for start-up errors; hardware/README.md lists them.
BLINK_MISSING = 2    # a setting is missing (or the file has no PEGBOARD_ settings at all)
BLINK_PIN = 3        # a pin name this board does not have, or one pin used twice
BLINK_TABLE = 4      # the hint table file is damaged
BLINK_CRASH = 5      # the firmware could not start: an unexpected error (the console shows it)
BLINK_VALUE = 6      # a malformed value: unquoted word, not a number, out of range, not a choice

KEYS = ("PEGBOARD_ROWS", "PEGBOARD_SENSORS", "PEGBOARD_SENSOR_PINS", "PEGBOARD_SR_CLOCK", "PEGBOARD_SR_DATA",
        "PEGBOARD_SR_LATCH", "PEGBOARD_SENSOR_ACTIVE", "PEGBOARD_PIXEL_PIN", "PEGBOARD_PIXEL_ORDER",
        "PEGBOARD_BUTTON_PIN", "PEGBOARD_BRIGHTNESS", "PEGBOARD_CURRENT_MA", "PEGBOARD_THEME", "PEGBOARD_ROLES",
        "PEGBOARD_PIEZO_PIN", "PEGBOARD_VOLUME", "PEGBOARD_QUIET_HOURS")
VOLUME_DEFAULT = 50  # percent: the piezo's duty is half this (pegfw.sound)


class ConfigError(Exception):
    """`problems`: (blink code, message) for every bad setting; `code` and `message` are the
    first one's, `lines` every message."""

    def __init__(self, problems):
        self.problems = problems
        self.code = problems[0][0]
        self.message = problems[0][1]
        self.lines = [m for _, m in problems]
        super().__init__(self.message)


class Config:
    """The validated settings (defaults as documented in docs/architecture.md)."""
    rows = 5
    holes = 15
    sensors = "gpio"
    sensor_pins = []  # type: list[str]
    sr_clock = sr_data = sr_latch = ""
    active_low = True
    pixel_pin = ""
    pixel_order = "GRB"
    button_pin = ""
    brightness = 40
    current_ma = CURRENT_MA_DEFAULT
    theme = "plain"
    roles = "colour"   # "motion": each role's lights follow a pattern in time (pegfw.motion)
    piezo_pin = ""     # none: a board without the part is silent
    volume = VOLUME_DEFAULT
    quiet = None       # quiet hours (from hour, to hour), or None


def parse_quiet(text):
    """PEGBOARD_QUIET_HOURS and the `sound` request's `quiet`: "22-7" (whole hours 0..23, from
    22:00 to 07:00) -> (22, 7); "" -> None; anything else ValueError."""
    if not text:
        return None
    parts = text.split("-")
    if len(parts) != 2:
        raise ValueError(text)
    a, b = int(parts[0]), int(parts[1])
    if not (0 <= a <= 23 and 0 <= b <= 23) or a == b:
        raise ValueError(text)
    return (a, b)


class _Reader:
    def __init__(self, getenv):
        self.getenv = getenv
        self.problems = []

    def bad(self, code, message):
        self.problems.append((code, "settings.toml: " + message))

    def get(self, key, default=None, example='"..."'):
        try:
            v = self.getenv(key)
        except ValueError:  # neither a "quoted string" nor an integer, on every version (typed_getenv)
            self.bad(BLINK_VALUE, "%s is not a quoted string or an integer (write %s = %s)" % (key, key, example))
            return None
        if v is None:
            if default is None:
                self.bad(BLINK_MISSING, "%s is missing" % key)
            return default
        return v

    def number(self, key, lo, hi, default):
        v = self.get(key, default, str(default))
        if v is None:
            return default
        try:
            n = int(v)
        except (TypeError, ValueError):
            self.bad(BLINK_VALUE, "%s must be an integer %d..%d, not %r" % (key, lo, hi, v))
            return default
        if n < lo or n > hi:
            self.bad(BLINK_VALUE, "%s must be %d..%d, not %d" % (key, lo, hi, n))
            return default
        return n

    def text(self, key, choices=None, default=None):
        v = self.get(key, default)
        if v is None or v == default == "":  # absent (or written empty) where empty means none
            return default
        if not isinstance(v, str) or not v:
            self.bad(BLINK_VALUE, '%s must be a quoted string (write %s = "...")' % (key, key))
            return default
        if choices is not None and v not in choices:
            self.bad(BLINK_VALUE, "%s must be one of %s, not %r" % (key, ", ".join(choices), v))
            return default
        return v

    def pins(self, key):
        v = self.text(key)
        return [p.strip() for p in v.split(",") if p.strip()] if v else []


def _has_any(getenv):
    for k in KEYS:
        try:
            if getenv(k) is not None:
                return True
        except ValueError:
            return True  # there, if malformed
    return False


def load(getenv):
    """The Config, or ConfigError naming every bad setting. Pins are checked by name here only;
    pegfw.hardware checks them against the board (unknown names, one pin under two names)."""
    if not _has_any(getenv):
        raise ConfigError([(BLINK_MISSING, "settings.toml has no PEGBOARD_ settings: run `pegboard deploy "
                                           "--board NAME` or copy a hardware/boards/ file into it")])
    r = _Reader(getenv)
    c = Config()
    # at most 7 rows: an 8-row board's 36-hole masks pass 2**30, and every peg mask would then be a
    # long int on the chip's 32-bit VM (heap on every move); the host solves 8 rows
    c.rows = r.number("PEGBOARD_ROWS", 4, 7, 5)
    c.holes = c.rows * (c.rows + 1) // 2
    c.sensors = r.text("PEGBOARD_SENSORS", ("gpio", "shift"), "gpio")
    if c.sensors == "gpio":
        c.sensor_pins = r.pins("PEGBOARD_SENSOR_PINS")
        if c.sensor_pins and len(c.sensor_pins) != c.holes:
            r.bad(BLINK_VALUE, "PEGBOARD_SENSOR_PINS lists %d pins; %d rows need %d"
                  % (len(c.sensor_pins), c.rows, c.holes))
    else:
        c.sr_clock = r.text("PEGBOARD_SR_CLOCK") or ""
        c.sr_data = r.text("PEGBOARD_SR_DATA") or ""
        c.sr_latch = r.text("PEGBOARD_SR_LATCH") or ""
        c.sensor_pins = []
    c.active_low = r.text("PEGBOARD_SENSOR_ACTIVE", ("low", "high"), "low") == "low"
    c.pixel_pin = r.text("PEGBOARD_PIXEL_PIN") or ""
    c.pixel_order = r.text("PEGBOARD_PIXEL_ORDER", ORDERS, "GRB")
    c.button_pin = r.text("PEGBOARD_BUTTON_PIN") or ""
    c.brightness = r.number("PEGBOARD_BRIGHTNESS", 1, 100, 40)
    c.current_ma = r.number("PEGBOARD_CURRENT_MA", CURRENT_MA_MIN, CURRENT_MA_MAX, CURRENT_MA_DEFAULT)
    c.theme = r.text("PEGBOARD_THEME", THEMES, "plain")
    c.roles = r.text("PEGBOARD_ROLES", ROLE_MODES, "colour")
    c.piezo_pin = r.text("PEGBOARD_PIEZO_PIN", None, "") or ""
    c.volume = r.number("PEGBOARD_VOLUME", 0, 100, VOLUME_DEFAULT)
    quiet = r.text("PEGBOARD_QUIET_HOURS", None, "")
    try:
        c.quiet = parse_quiet(quiet)
    except ValueError:
        r.bad(BLINK_VALUE, 'PEGBOARD_QUIET_HOURS must be "FROM-TO" in whole hours 0..23 (write "22-7"), not %r' % quiet)
    if r.problems:
        raise ConfigError(r.problems)
    return c


def pin_roles(c):
    """(setting, pin name) for every pin the settings use, in a fixed order."""
    if c.sensors == "gpio":
        out = [("PEGBOARD_SENSOR_PINS", p) for p in c.sensor_pins]
    else:
        out = [("PEGBOARD_SR_CLOCK", c.sr_clock), ("PEGBOARD_SR_DATA", c.sr_data),
               ("PEGBOARD_SR_LATCH", c.sr_latch)]
    out += [("PEGBOARD_PIXEL_PIN", c.pixel_pin), ("PEGBOARD_BUTTON_PIN", c.button_pin)]
    return out + [("PEGBOARD_PIEZO_PIN", c.piezo_pin)] if c.piezo_pin else out


def check_pins(c, lookup):
    """Resolve every pin with lookup(name) (the board's pin object, or None): raises ConfigError
    for each unknown name and each pin used twice, compared by identity (D13 and LED, or GP26 and
    A0, are one pin). Returns {name: pin}."""
    problems = []
    found = {}
    seen = []  # (pin, name)
    for key, name in pin_roles(c):
        pin = lookup(name)
        if pin is None:
            problems.append((BLINK_PIN, "settings.toml: %s: this board has no pin %s" % (key, name)))
            continue
        found[name] = pin
        for other_pin, other in seen:
            if other_pin is pin:
                why = "used twice" if other == name else "already used as %s (one pin, two names)" % other
                problems.append((BLINK_PIN, "settings.toml: %s: pin %s is %s" % (key, name, why)))
                break
        else:
            seen.append((pin, name))
    if problems:
        raise ConfigError(problems)
    return found
