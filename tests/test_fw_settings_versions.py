"""settings.toml reads the same on every CircuitPython version the firmware supports: up to 10.1
os.getenv types a bare integer and raises ValueError for a malformed value; from 10.2.0 it returns
every value as a str (the default for a broken one) and supervisor.get_setting types them
(docs/architecture.md, "Reading settings.toml"). Each setting must get the same type and the same
verdict on both: config.load through pegfw.hardware.typed_getenv on the PC with a model of each, and
the whole firmware on the chip runtime told each version."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT
from support import console_line, red_blink

from pegboard.deploy import circuitpython
from pegboard.sim.errors import SimError
from pegboard.sim.simulator import Simulator
from pegboard.sim.settings import raw_settings
from pegfw import config

OLD, NEW = "9.2.1", circuitpython.NEWEST_TESTED
BOARD = ROOT / "hardware/boards/pico-gpio.toml"


# -- the two readings, modelled in Python for the values used here (no escapes, no octal) --------

def _value(text: str) -> tuple[bool, str] | None:
    """(quoted, value) as CircuitPython's reader takes the text after "=", None for a broken string."""
    t = text.lstrip(" \t")
    if t.startswith('"'):
        end = t.find('"', 1)
        rest = t[end + 1:].strip() if end > 0 else "x"
        return (True, t[1:end]) if not rest or rest.startswith("#") else None
    return False, t.split("#", 1)[0]


def old_reading(raw: dict[str, str]):
    """os.getenv up to 10.1 (shared-module/os/getenv.c): str, int(text, 0), or ValueError."""
    def getenv(key):
        if key not in raw:
            return None
        v = _value(raw[key])
        if v is None:
            raise ValueError("Invalid byte")
        return v[1] if v[0] else int(v[1], 0)

    return getenv, None


def new_reading(raw: dict[str, str]):
    """os.getenv and supervisor.get_setting from 10.2.0 (shared-module/os/__init__.c,
    supervisor/shared/settings.c)."""
    def getenv(key):
        v = _value(raw[key]) if key in raw else None
        if v is None or (not v[0] and not v[1].strip(" \t\r")):
            return None  # absent, broken or empty: the default
        return v[1] if v[0] else v[1].rstrip(" \t\r")

    def get_setting(key):
        if key not in raw:
            return None
        v = _value(raw[key])
        if v is None:
            raise ValueError("Invalid value")
        if v[0]:
            return v[1]
        text = v[1].rstrip(" \t\r")
        if text in ("true", "false"):
            return text == "true"
        try:
            return int(text, 0)  # strtol(text, &end, 0) for the decimal and hex values used here
        except ValueError:
            raise ValueError("Invalid value") from None

    return getenv, get_setting




def load_with(hardware, reading, path: Path):
    """config.load's answer for the settings.toml at `path` under one reading: the Config's values,
    or the ConfigError's (code, lines)."""
    raw = raw_settings(path)
    try:
        c = config.load(hardware.typed_getenv(*reading(raw)))
    except config.ConfigError as e:
        return e.code, e.lines
    return {k: getattr(c, k) for k in ("rows", "brightness", "current_ma", "theme", "pixel_pin", "pixel_order")}


def board_with(**values: str) -> str:
    """pico-gpio.toml with some values' text (after the "=") replaced."""
    text = BOARD.read_text()
    for key, value in values.items():
        text, n = re.subn(r"^PEGBOARD_%s =.*$" % key, "PEGBOARD_%s =%s" % (key, value), text, flags=re.M)
        assert n == 1, key
    return text


NOT_QUOTED = 'settings.toml: PEGBOARD_%s is not a quoted string or an integer (write PEGBOARD_%s = %s)'

# (values changed, what config.load says on every version)
CASES = [
    ({}, {"rows": 5, "brightness": 40, "current_ma": 400, "theme": "plain", "pixel_pin": "GP16",
          "pixel_order": "GRB"}),
    ({"THEME": ' "wooden"  # red, blue and yellow pegs', "BRIGHTNESS": ' "70"', "CURRENT_MA": " 0x1F4\r"},
     {"rows": 5, "brightness": 70, "current_ma": 500, "theme": "wooden", "pixel_pin": "GP16", "pixel_order": "GRB"}),
    ({"THEME": " wooden"}, (config.BLINK_VALUE, [NOT_QUOTED % ("THEME", "THEME", '"..."')])),
    ({"PIXEL_ORDER": " GRB", "BRIGHTNESS": " forty"},
     (config.BLINK_VALUE, [NOT_QUOTED % ("PIXEL_ORDER", "PIXEL_ORDER", '"..."'),
                           NOT_QUOTED % ("BRIGHTNESS", "BRIGHTNESS", "40")])),
    ({"BRIGHTNESS": " true", "CURRENT_MA": " 4.5e2", "THEME": ' "plain'},
     (config.BLINK_VALUE, [NOT_QUOTED % ("BRIGHTNESS", "BRIGHTNESS", "40"),
                           NOT_QUOTED % ("CURRENT_MA", "CURRENT_MA", "400"),
                           NOT_QUOTED % ("THEME", "THEME", '"..."')])),
    ({"PIXEL_PIN": " 16", "ROWS": ""},
     (config.BLINK_VALUE, [NOT_QUOTED % ("ROWS", "ROWS", "5"),
                           'settings.toml: PEGBOARD_PIXEL_PIN must be a quoted string (write PEGBOARD_PIXEL_PIN = "...")'])),
    ({"BRIGHTNESS": " 300"}, (config.BLINK_VALUE, ["settings.toml: PEGBOARD_BRIGHTNESS must be 1..100, not 300"])),
]


@pytest.mark.parametrize("values, verdict", CASES)
def test_config_reads_every_value_the_same_on_both_readings(hardware, tmp_path, values, verdict):
    path = tmp_path / "settings.toml"
    path.write_text(board_with(**values))
    assert load_with(hardware, old_reading, path) == verdict
    assert load_with(hardware, new_reading, path) == verdict


def test_on_10_2_without_the_rule_an_unquoted_word_would_pass(hardware):
    # what the rule is for: 10.2's os.getenv alone hands `wooden` over as if it had been quoted
    raw = {"PEGBOARD_THEME": " wooden"}
    getenv, _ = new_reading(raw)
    assert getenv("PEGBOARD_THEME") == "wooden"
    with pytest.raises(ValueError):
        hardware.typed_getenv(*new_reading(raw))("PEGBOARD_THEME")


@pytest.mark.parametrize("reading", [old_reading, new_reading])
def test_the_early_pixels_read_the_settings_by_the_same_rule(hardware, monkeypatch, reading):
    # a bare number for the pixel pin and a bare word for the order are malformed on every version:
    # the early pixels go to the default pin in the default order (a bare 16 used to reach
    # getattr(board, 16) on 9.x: a TypeError before the first light)
    made = []

    class RawPixels:
        def __init__(self, pin, n, order):
            made.append((pin, n, order))

    monkeypatch.setattr(hardware, "RawPixels", RawPixels)
    raw = {"PEGBOARD_PIXEL_PIN": " 16", "PEGBOARD_PIXEL_ORDER": " RGB", "PEGBOARD_ROWS": ' "6"'}
    monkeypatch.setattr(hardware, "setting", hardware.typed_getenv(*reading(raw)))
    hardware.early_pixels()
    assert made == [(hardware.board.GP16, 21, "GRB")]


def test_without_get_setting_the_reading_is_os_getenv_itself(hardware):
    getenv, _ = old_reading({})
    assert hardware.typed_getenv(getenv, None) is getenv


# -- the chip runtime, told each version (pegboard/sim/chipvm/modport.c) ------------------------

def _settings_lines(sim) -> list[str]:
    console_line(sim, "settings.toml")
    red_blink(sim)
    return [line for line in sim.control("status")["console"] if "settings.toml:" in line]


def test_on_the_chip_runtime_each_version_gives_each_value_the_same_verdict(tmp_path):
    bad = tmp_path / "settings.toml"
    # the button pin's bare word also reaches the fakes (device/_sim.py reads it): 9.x's os.getenv raises
    bad.write_text(board_with(THEME=" wooden", PIXEL_ORDER=' "GRB"', BRIGHTNESS=" 0x46  # 70",
                              CURRENT_MA=' "abc" x', SENSORS=' "gpio"', BUTTON_PIN=" GP15"))
    seen = {}
    for version in (OLD, "10.1.4", "10.2.0", NEW):
        with Simulator(settings=bad, runtime="chip", circuitpython=version) as sim:
            seen[version] = _settings_lines(sim)
    want = ["pegboard: " + NOT_QUOTED % ("BUTTON_PIN", "BUTTON_PIN", '"..."'),
            "pegboard: " + NOT_QUOTED % ("CURRENT_MA", "CURRENT_MA", "400"),
            "pegboard: " + NOT_QUOTED % ("THEME", "THEME", '"..."')]
    assert all(lines == want for lines in seen.values()), seen


def test_a_board_file_with_bare_integers_starts_on_the_oldest_and_the_newest(tmp_path):
    for version in (circuitpython.OLDEST, NEW):
        with Simulator(settings=BOARD, runtime="chip", circuitpython=version) as sim:
            console_line(sim, "ready: 15 holes")


def test_the_simulator_models_only_supported_versions(capsys):
    for version in ("9.0.5", "11.0.0", "nine"):
        with pytest.raises(SimError, match="9.2.1 to 10.2.1"):
            Simulator(circuitpython=version)
    from pegboard.commands.cli import main

    assert main(["sim", "--circuitpython", "8.2.10"]) == 2
    assert "8.2.10" in capsys.readouterr().err


def test_cpython_refuses_a_value_it_cannot_hand_over_as_the_chip_would(tmp_path):
    # the documented limit (docs/simulator.md, "CircuitPython versions"): the PC's os.getenv gives
    # text only, so a bare word is refused before the firmware starts rather than passed on as if quoted
    from pegboard.sim.settings import SettingsError

    bad = tmp_path / "settings.toml"
    bad.write_text(board_with(THEME=" wooden"))
    with pytest.raises(SettingsError, match="PEGBOARD_THEME must be a quoted string or an integer"):
        Simulator(settings=bad, runtime="cpython")


def test_the_chip_runtimes_default_version_is_the_newest_tested():
    c = (ROOT / "host/pegboard/sim/chipvm/modport.c").read_text()
    major, minor, patch = (int(x) for x in NEW.split("."))
    assert "#define CP_VERSION_NEWEST %d" % (major * 10000 + minor * 100 + patch) in c


def test_the_child_is_told_the_version_and_the_chip_runtimes_get_the_files_text():
    from pegboard.sim.firmware_child import environment

    raw = {"PEGBOARD_THEME": " wooden  # bare"}
    chip = environment("chip", {}, "raspberry_pi_pico", None, False, "9.2.1", raw)
    assert chip["PEGBOARD_SIM_CP_VERSION"] == '"9.2.1"' and chip["PEGBOARD_THEME"] == " wooden  # bare"
    cpython = environment("cpython", {"PEGBOARD_ROWS": 5}, "raspberry_pi_pico", None, False)
    assert cpython["PEGBOARD_SIM_CP_VERSION"] == NEW and cpython["PEGBOARD_ROWS"] == "5"
