"""settings.toml -> a validated Config. Read once at start-up through a getenv function
(CircuitPython's os.getenv returns str, or int for plain integers on newer versions)."""

ORDERS = ("RGB", "GRB", "RBG", "GBR", "BRG", "BGR", "RGBW", "GRBW")

# Blink codes (number of red blinks) for start-up errors; hardware/README.md lists them.
BLINK_SETTINGS = 2   # a missing or malformed setting
BLINK_PIN = 3        # a pin name this board does not have, or a pin used twice
BLINK_TABLE = 4      # the hint table file is damaged
BLINK_CRASH = 5      # the firmware could not start: an unexpected error (the console shows it)


class ConfigError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


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
    current_ma = 400
    theme = "plain"


def _get(getenv, key, default=None):
    v = getenv(key)
    if v is None:
        if default is None:
            raise ConfigError(BLINK_SETTINGS, "settings.toml: %s is missing" % key)
        return default
    return v


def _int(getenv, key, lo, hi, default=None):
    v = _get(getenv, key, default)
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise ConfigError(BLINK_SETTINGS, "settings.toml: %s must be an integer %d..%d, not %r" % (key, lo, hi, v))
    if n < lo or n > hi:
        raise ConfigError(BLINK_SETTINGS, "settings.toml: %s must be %d..%d, not %d" % (key, lo, hi, n))
    return n


def _str(getenv, key, choices=None, default=None):
    v = _get(getenv, key, default)
    if not isinstance(v, str) or not v:
        raise ConfigError(BLINK_SETTINGS, "settings.toml: %s must be a quoted string" % key)
    if choices is not None and v not in choices:
        raise ConfigError(BLINK_SETTINGS, "settings.toml: %s must be one of %s, not %r" % (key, ", ".join(choices), v))
    return v


def _pins(getenv, key):
    return [p.strip() for p in _str(getenv, key).split(",") if p.strip()]


def load(getenv):
    c = Config()
    c.rows = _int(getenv, "PEGBOARD_ROWS", 4, 8, 5)
    c.holes = c.rows * (c.rows + 1) // 2
    c.sensors = _str(getenv, "PEGBOARD_SENSORS", ("gpio", "shift"), "gpio")
    if c.sensors == "gpio":
        c.sensor_pins = _pins(getenv, "PEGBOARD_SENSOR_PINS")
        if len(c.sensor_pins) != c.holes:
            raise ConfigError(BLINK_SETTINGS, "settings.toml: PEGBOARD_SENSOR_PINS lists %d pins; %d rows need %d"
                              % (len(c.sensor_pins), c.rows, c.holes))
        used = list(c.sensor_pins)
    else:
        c.sr_clock = _str(getenv, "PEGBOARD_SR_CLOCK")
        c.sr_data = _str(getenv, "PEGBOARD_SR_DATA")
        c.sr_latch = _str(getenv, "PEGBOARD_SR_LATCH")
        c.sensor_pins = []
        used = [c.sr_clock, c.sr_data, c.sr_latch]
    c.active_low = _str(getenv, "PEGBOARD_SENSOR_ACTIVE", ("low", "high"), "low") == "low"
    c.pixel_pin = _str(getenv, "PEGBOARD_PIXEL_PIN")
    c.pixel_order = _str(getenv, "PEGBOARD_PIXEL_ORDER", ORDERS, "GRB")
    c.button_pin = _str(getenv, "PEGBOARD_BUTTON_PIN")
    c.brightness = _int(getenv, "PEGBOARD_BRIGHTNESS", 1, 100, 40)
    c.current_ma = _int(getenv, "PEGBOARD_CURRENT_MA", 50, 5000, 400)
    c.theme = _str(getenv, "PEGBOARD_THEME", ("plain", "wooden"), "plain")
    used = used + [c.pixel_pin, c.button_pin]
    for i in range(len(used)):
        if used[i] in used[i + 1:]:
            raise ConfigError(BLINK_PIN, "settings.toml: pin %s is used twice" % used[i])
    return c
