"""Start-up: every bad setting reported with its own blink code and console line, pins compared as
pins, blink codes on some pixels even when the settings name none, the reset request, and the
74HC165 option wired as hardware/ documents it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT
from fakehw import make_app, run
from support import console_line, red_blink

from pegboard.hardware.boards import SHIFT_WIRING
from pegboard.sim.simulator import Simulator
from pegboard.sim.device.pinnames import FEATHER_RP2040, PICO
from pegfw import config

GOOD = {"PEGBOARD_SENSOR_PINS": ",".join("GP%d" % i for i in range(15)), "PEGBOARD_PIXEL_PIN": "GP16",
        "PEGBOARD_BUTTON_PIN": "GP15"}


def load(**changes):
    s = dict(GOOD)
    s.update(changes)
    return config.load(lambda k: s.get(k))


def errors(**changes):
    with pytest.raises(config.ConfigError) as e:
        load(**changes)
    return e.value


def test_each_bad_value_has_its_own_line_and_the_first_ones_code():
    e = errors(PEGBOARD_ROWS="five", PEGBOARD_THEME="neon", PEGBOARD_BRIGHTNESS=300)
    assert e.code == config.BLINK_VALUE
    assert len(e.lines) == 3
    assert "PEGBOARD_ROWS" in e.lines[0] and "PEGBOARD_BRIGHTNESS" in e.lines[1] and "PEGBOARD_THEME" in e.lines[2]
    assert errors(PEGBOARD_PIXEL_PIN=None).code == config.BLINK_MISSING


def test_an_unquoted_word_is_a_malformed_value_not_a_missing_one():
    def getenv(key):
        if key == "PEGBOARD_THEME":
            # the settings' reader on THEME = wooden, on every version (hardware.typed_getenv; up to
            # 10.1 it is os.getenv, whose mp_parse_num_integer refuses the bare word)
            raise ValueError("invalid syntax for integer with base 10")
        return GOOD.get(key)

    with pytest.raises(config.ConfigError) as e:
        config.load(getenv)
    assert e.value.code == config.BLINK_VALUE and 'PEGBOARD_THEME = "..."' in e.value.message


def test_a_file_without_pegboard_keys_says_to_deploy():
    with pytest.raises(config.ConfigError) as e:
        config.load(lambda k: None)
    assert e.value.code == config.BLINK_MISSING and "pegboard deploy" in e.value.message


class _Pin:
    def __init__(self, gpio):
        self.gpio = gpio


def _lookup(names):
    pins = {}
    objs = {g: _Pin(g) for g in set(names.values())}
    for n, g in names.items():
        pins[n] = objs[g]
    return pins.get


@pytest.mark.parametrize("pins, same", [
    (dict(PEGBOARD_BUTTON_PIN="GP26", PEGBOARD_PIXEL_PIN="A0"), "pin GP26 is already used as A0"),
    (dict(PEGBOARD_BUTTON_PIN="GP25", PEGBOARD_PIXEL_PIN="LED"), "pin GP25 is already used as LED"),
])
def test_two_names_of_one_pin_are_caught(pins, same):
    cfg = load(**pins)
    with pytest.raises(config.ConfigError) as e:
        config.check_pins(cfg, _lookup(PICO))
    assert e.value.code == config.BLINK_PIN and same in e.value.message


def test_unknown_pins_each_get_a_line():
    cfg = load(PEGBOARD_BUTTON_PIN="GP99", PEGBOARD_PIXEL_PIN="D77")
    with pytest.raises(config.ConfigError) as e:
        config.check_pins(cfg, _lookup(PICO))
    assert len(e.value.lines) == 2 and "no pin D77" in e.value.lines[0]


def test_the_boards_own_files_use_distinct_pins():
    for path, names in (("pico-gpio", PICO), ("feather-rp2040-gpio", FEATHER_RP2040), ("shift-74hc165", PICO)):
        from pegboard.sim.settings import read_settings

        s = read_settings(ROOT / "hardware/boards" / (path + ".toml"))
        config.check_pins(config.load(s.get), _lookup(names))


def test_reset_request_resets_after_its_reply_went_out():
    hw, app = make_app()
    run(app, hw, 100)
    hw.serial.rx += b'{"id": 1, "cmd": "reset"}\n'
    run(app, hw, 20)
    assert any(b'"in_ms": 200' in line for line in hw.serial.lines())
    assert hw.resets == 0  # not yet: the reply needs its time to reach the host
    run(app, hw, 300)
    assert hw.resets >= 1


def test_empty_settings_blink_on_the_default_pixel_pin(tmp_path):
    fw = tmp_path / "empty.toml"
    fw.write_text("")
    with Simulator(settings=fw) as sim:
        console_line(sim, "no PEGBOARD_ settings")
        red_blink(sim)  # blink code 2 on GP16, where the default board's pixels are


def test_duplicate_pin_under_another_name_blinks_in_the_simulator(tmp_path):
    bad = tmp_path / "feather.toml"
    text = (ROOT / "hardware/boards/feather-rp2040-gpio.toml").read_text()
    bad.write_text(text.replace('PEGBOARD_BUTTON_PIN = "SDA"', 'PEGBOARD_BUTTON_PIN = "LED"')
                   .replace("D12,", "D13,"))
    with Simulator(settings=bad, board="adafruit_feather_rp2040") as sim:
        console_line(sim, "pin LED is already used as D13")
        red_blink(sim)


# -- the 74HC165 option ------------------------------------------------------------------------

def documented_shift_wiring() -> list[tuple[int, str]]:
    """The chain's wiring as hardware/README.md's table gives it: (chip, input) per hole."""
    doc = (ROOT / "hardware/README.md").read_text()
    section = doc[doc.index("### Any board, two 74HC165"):]
    rows = {}
    for m in re.finditer(r"^\| (\d+) \| (\d) \| ([A-H]) \|", section, re.M):
        rows[int(m.group(1))] = (int(m.group(2)), m.group(3))
    return [rows[h] for h in sorted(rows)]


def _each_hole_reads_right(wiring):
    from pegboard.link.client import BoardClient

    path = ROOT / "hardware/boards/shift-74hc165.toml"
    wrong = []
    with Simulator(settings=path, shift_wiring=wiring) as sim, BoardClient(sim.data_path) as c:
        sim.control("wait_idle")
        for hole in range(1, 16):
            sim.control("set", pegs=[hole])
            sim.control("wait_idle")
            pegs = c.request("state")["pegs"]
            if pegs != [hole]:
                wrong.append((hole, pegs))
    return wrong


def test_74hc165_wired_as_documented_reads_every_hole_right():
    wiring = documented_shift_wiring()
    assert len(wiring) == 15 and wiring == SHIFT_WIRING
    assert _each_hole_reads_right(wiring) == []


def test_74hc165_wired_in_input_order_reads_wrong_holes():
    # hole 1 on chip 1's A (the old, wrong documentation): the fake catches it
    old = [(1 + h // 8, "ABCDEFGH"[h % 8]) for h in range(15)]
    wrong = _each_hole_reads_right(old)
    assert (1, [8]) in wrong and len(wrong) >= 14


def test_a_button_blip_shorter_than_the_debounce_is_no_press():
    from pegboard.link.client import BoardClient
    from pegboard.link.client import BoardError

    with Simulator() as sim, BoardClient(sim.data_path) as c:
        sim.control("fill", empty=4)
        sim.control("wait_idle")
        c.poll(0.2)
        # 10 ms: at most one 20 ms scan sees it (a threshold of 1 would report it most times); 3
        # scans (40 ms at least) are needed
        sim.control("press", ms=10)
        with pytest.raises(BoardError):
            c.wait_for("hint", timeout=0.6)
        sim.control("press", ms=100)
        assert c.wait_for("hint", timeout=5)["solvable"] is True


def test_without_the_neopixel_library_the_crash_code_still_blinks(tmp_path):
    # code.py lights the pixels without the neopixel library (lib/neopixel.py) and
    # blinks the crash code on them when it cannot be imported
    import shutil

    fw = tmp_path / "fw"
    shutil.copytree(ROOT / "firmware", fw, ignore=shutil.ignore_patterns("__pycache__"))
    import pegboard.sim.simulator as simulator

    real = simulator.lib_dir

    def builtin_only() -> str:
        d = real()
        Path(d, "neopixel.py").unlink()
        return d

    simulator.lib_dir = builtin_only
    try:
        with Simulator(firmware=fw) as sim:
            console = console_line(sim, "cannot start the hardware")
            assert any("neopixel" in line for line in console), console
            red_blink(sim)
            assert sim.control("status")["running"]
    finally:
        simulator.lib_dir = real


def test_configured_pixels_that_fail_to_start_still_blink_the_crash_code(tmp_path, monkeypatch):
    # start-up releases the early pixels' pin for the configured NeoPixel; when that fails (here a
    # lib/neopixel.py of another version whose NeoPixel takes other arguments) the crash code
    # must still blink: the real neopixel_write refuses the released pin, so the early pixels take
    # it back (on main the board stayed dark)
    import pegboard.sim.simulator as simulator

    real = simulator.lib_dir

    def incompatible_neopixel() -> str:
        d = real()
        Path(d, "neopixel.py").write_text(
            "class NeoPixel:\n"
            "    def __init__(self, pin, n, *, bpp=3, brightness=1.0, auto_write=True):\n"
            "        raise TypeError('unexpected keyword argument pixel_order')\n")
        return d

    monkeypatch.setattr(simulator, "lib_dir", incompatible_neopixel)
    with Simulator() as sim:
        console_line(sim, "cannot start the hardware")
        red_blink(sim)
        assert sim.control("status")["running"]
