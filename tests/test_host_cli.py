"""The board commands against the simulated board, solution files, deploy onto a fake drive, and
clear errors for bad ports and files."""

import json
import subprocess
import sys

import pytest

from pegboard.commands.cli import main
from pegboard.deploy.bootout import is_circuitpy
from pegboard.sim.simulator import Simulator
from pegboard.solve.solution_file import SolutionError, check_solution, load_solution



def test_state_and_hint(sim, cli):
    code, out, _ = cli("state", "--port", sim.data_path)
    assert code == 0 and "playing: 14 pegs, from hole 4" in out
    code, out, _ = cli("state", "--port", sim.data_path, "--json")
    assert json.loads(out)["empty_start"] == 4
    code, out, _ = cli("hint", "--port", sim.data_path)
    assert code == 0 and out.startswith("hint: ") and "over" in out and "one peg left is still possible" in out
    # with a challenge the hint leads toward it, and says so
    code, out, _ = cli("challenge", "leave:3", "--port", sim.data_path)
    assert code == 0
    code, out, _ = cli("hint", "--port", sim.data_path)
    assert code == 0 and "the challenge leave:3 is still within reach" in out and "one peg" not in out


def test_demo_from_file_follows_every_step(sim, tmp_path, cli):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"rows": 5, "empty": 1, "moves": [[4, 2, 1], [6, 5, 4], [1, 3, 6]]}))
    code, out, _ = cli("demo", str(f), "--port", sim.data_path, "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0
    assert [e["step"] for e in lines if e["event"] == "demo_step"] == [1, 2, 3]
    assert lines[-1]["event"] == "demo_done"


def test_guide_refuses_a_bad_file_before_touching_the_board(tmp_path, cli):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"rows": 5, "empty": 1, "moves": [[4, 2, 1], [4, 2, 1]]}))
    code, _, err = cli("guide", str(f), "--port", "/dev/null-no-such-port")
    assert code == 2 and "move 2 [4, 2, 1]" in err


@pytest.mark.parametrize("sol,needle", [
    ([], "expected an object"), ({"rows": 9, "empty": 1, "moves": [[4, 2, 1]]}, "rows must be 4..8"),
    ({"empty": 0, "moves": [[4, 2, 1]]}, "empty"), ({"empty": 1, "moves": []}, "non-empty"),
    ({"empty": 1, "moves": [[1, 2, 3]]}, "not a jump"), ({"empty": 1, "moves": [[4, 2]]}, "[from, over, to]"),
    ({"moves": [[4, 2, 1]]}, "one of them"), ({"empty": 1, "start": [2, 4], "moves": [[4, 2, 1]]}, "one of them"),
    ({"start": [], "moves": [[4, 2, 1]]}, "non-empty list"), ({"start": [2, 2, 4], "moves": [[4, 2, 1]]}, "twice"),
    ({"start": [2, 16], "moves": [[4, 2, 1]]}, "start: hole must be"), ({"start": "2,4", "moves": [[4, 2, 1]]}, "list"),
    ({"start": [2, 4], "moves": [[6, 5, 4]]}, "move 1"),
])
def test_solution_file_errors(sol, needle):
    with pytest.raises(SolutionError) as e:
        check_solution(sol)
    assert needle in str(e.value)


def test_a_solution_file_with_a_hand_set_start():
    sol = check_solution({"start": [2, 4, 5, 13], "moves": [[4, 2, 1]]})
    assert sol["start"] == [2, 4, 5, 13] and sol["empty"] is None
    full_less_one = check_solution({"start": [h for h in range(1, 16) if h != 4], "moves": [[1, 2, 4]]})
    assert full_less_one["empty"] == 4  # the same as "empty": 4


def test_play_and_setup_from_the_command_line(sim, cli):
    sim.control("set", pegs=[4, 5, 13])
    sim.control("wait_idle")
    code, out, _ = cli("play", "--port", sim.data_path)
    assert code == 0 and "a game from here: pegs in 4, 5, 13" in out
    code, out, _ = cli("state", "--port", sim.data_path, "--json")
    assert json.loads(out)["start"] == [4, 5, 13]
    sim.control("set", pegs=[1, 15])
    sim.control("wait_idle")
    code, _, err = cli("play", "--port", sim.data_path)
    assert code == 1 and "no jump is possible" in err
    code, _, err = cli("play", "--finish", "16", "--port", sim.data_path)
    assert code == 2 and "finish must be a hole 1..15" in err
    sim.control("set", pegs=[2, 4, 5])
    sim.control("wait_idle")
    code, out, _ = cli("setup", "--pegs", "2,4,5", "--port", sim.data_path)
    assert code == 0 and "already match" in out
    for bad in ("", "2,x", "2,2"):
        code, _, err = cli("setup", "--pegs", bad, "--port", sim.data_path)
        assert code == 2 and err, bad
    code, _, err = cli("setup", "--pegs", "2,99", "--port", sim.data_path)
    assert code == 2 and "every hole must be 1..15" in err


def test_unreadable_solution_files(tmp_path):
    with pytest.raises(SolutionError, match="cannot read"):
        load_solution(tmp_path / "missing.json")
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(SolutionError, match="not JSON"):
        load_solution(tmp_path / "x.json")


def test_bad_port_is_a_clear_error_not_a_traceback():
    p = subprocess.run([sys.executable, "-m", "pegboard", "state", "--port", "/dev/no-such-board"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1 and "cannot open /dev/no-such-board" in p.stderr and "Traceback" not in p.stderr


def _fake_drive(tmp_path, name="CIRCUITPY"):
    d = tmp_path / name
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n")
    return d


def test_deploy_copies_firmware_and_keeps_settings(tmp_path, cli):
    d = _fake_drive(tmp_path)
    (d / "settings.toml").write_text('# mine\nPEGBOARD_THEME = "wooden"\n')
    code, out, _ = cli("deploy", "--drive", str(d), "--no-restart", "--py")
    assert code == 0
    for rel in ("boot.py", "code.py", "pegcore/t5_hints.bin", "pegfw/app.py", "lib/neopixel.py"):
        assert (d / rel).exists(), rel
    assert not (d / "lib/adafruit_pixelbuf.py").exists()  # built into CircuitPython on RP2040
    assert (d / "settings.toml").read_text().startswith('# mine\nPEGBOARD_THEME = "wooden"\n')
    assert not list(d.rglob("*.tmp"))
    code, _, _ = cli("deploy", "--drive", str(d), "--settings", "hardware/boards/feather-rp2040-gpio.toml",
                     "--no-restart", "--py")
    assert "D4" in (d / "settings.toml").read_text()


def test_deploy_refuses_what_is_not_a_circuitpy_drive(tmp_path, cli):
    plain = tmp_path / "USBSTICK"
    plain.mkdir()
    code, _, err = cli("deploy", "--drive", str(plain))
    assert code == 2 and "not a CIRCUITPY drive" in err
    assert list(plain.iterdir()) == []
    fake = tmp_path / "CIRCUITPY"
    fake.mkdir()
    (fake / "boot_out.txt").write_text("hello\n")
    assert not is_circuitpy(fake)


def test_every_command_has_help():
    from pegboard.commands.cli import build_parser

    p = build_parser()
    sub = next(a for a in p._actions if a.dest == "command")
    for name, parser in sub.choices.items():
        assert parser.format_help().startswith("usage: pegboard %s" % name)


class _Port:
    def __init__(self, device, vid, interface, serial_number="ABC", description="Pico"):
        self.device, self.vid, self.interface = device, vid, interface
        self.serial_number, self.description, self.product = serial_number, description, description


def test_port_detection_picks_the_data_interface(monkeypatch):
    from serial.tools import list_ports

    from pegboard.link import ports

    monkeypatch.setattr(list_ports, "comports", lambda: [
        _Port("/dev/ttyUSB0", 0x0403, None),  # an FTDI cable: not ours
        _Port("/dev/ttyACM0", 0x239A, "CircuitPython CDC control"),
        _Port("/dev/ttyACM1", 0x239A, "CircuitPython CDC2 control"),
    ])
    assert ports.find_data_port() == "/dev/ttyACM1"
    assert [c.device for c in ports.candidates()] == ["/dev/ttyACM1", "/dev/ttyACM0"]
    # interface names hidden (macOS/Windows): the second port of the board's pair
    monkeypatch.setattr(list_ports, "comports", lambda: [_Port("COM4", 0x2E8A, None), _Port("COM3", 0x2E8A, None)])
    assert ports.find_data_port() == "COM4"
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    assert ports.find_data_port() is None


def test_no_board_plugged_in_is_a_clear_message(monkeypatch, capsys):
    import pegboard.link.ports as ports

    monkeypatch.setattr(ports, "find_board_or_sim", lambda note=None: None)
    assert main(["state"]) == 1
    assert "no board found" in capsys.readouterr().err


def test_monitor_pretty_lines():
    from pegboard.commands.monitor import pretty

    assert pretty(b'{"event":"move","seq":4,"move":[4,2,1],"pegs_left":13}', False) == \
        '#4    move       move=[4, 2, 1] pegs_left=13'
    assert pretty(b'{"id":1,"ok":false,"error":"bad_json","message":"x"}', False).startswith("error")
    assert pretty(b"not json", False) == "not json"


def test_selftest_report_prints_the_boards_own_figures(cli):
    with Simulator(runtime="chip") as s:
        s.control("fill", empty=1)
        s.control("wait_idle")
        code, out, _ = cli("hint", "--port", s.data_path)
        assert code == 0
        code, out, _ = cli("selftest", "--report", "--port", s.data_path, "--json")
        st = json.loads(out)
        # measured on the (simulated) device: a heap of its own on the chip VM (192 KB of a 32-bit
        # chip's words: twice the bytes on a 64-bit build), passes, the hint
        from pegboard.sim import chipvm

        heap = 192 * 1024 * chipvm.build().bits // 32
        assert 0 < st["free_heap_lowest"] <= st["free_heap"] <= heap  # the answer is a sample too
        assert st["loops"] > 0 and st["longest_pass_ms"] >= 0 and st["last_hint_ms"] is not None
        code, out, _ = cli("selftest", "--report", "--port", s.data_path)
        assert code == 0 and "free heap lowest" in out and "%s bytes" % format(st["free_heap_lowest"], ",") in out
