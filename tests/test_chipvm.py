"""chipvm, the runtime set up as a CircuitPython board (pegboard.sim.chipvm): it lacks what the chip
lacks, its C json and binascii behave as CPython's, it is 32-bit (gcc -m32, else zig cc), and the
whole firmware scenario runs on it."""

import importlib.util
import json
import shutil
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from pegboard.sim import chipvm
from pegboard.sim.firmware_child import lib_dir as _lib_dir


def run(vm, tmp_path, src, *args, env=None):
    script = tmp_path / "t.py"
    script.write_text(src)
    return subprocess.run([vm, *args, str(script)], capture_output=True, text=True, timeout=120, env=env)


# within the BMP and no lone surrogates (MicroPython's str cannot hold them)
chars = st.characters(max_codepoint=0xFFFF, blacklist_categories=("Cs",))
scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(chars, max_size=12)
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                      | st.dictionaries(st.text(chars, max_size=6), kids, max_size=4), max_leaves=12)


@settings(max_examples=3, deadline=None)
@given(st.lists(values, min_size=60, max_size=60))
def test_json_in_c_reads_what_cpython_writes_and_writes_what_it_reads(tmp_path_factory, vals):
    chip_vm = str(chipvm.build().path)
    tmp_path = tmp_path_factory.mktemp("json")
    vals = vals + [["\f\b\x01\x7f\t\n\r\"\\é"], {"k": [1, -2, None, True, "x"]}, [], {}, [[[]]], 1.5, -0.25]
    data = tmp_path / "in.txt"
    data.write_text("".join(json.dumps(v, separators=(",", ":")) + "\n" + json.dumps(v) + "\n" for v in vals),
                    encoding="utf-8")
    p = run(chip_vm, tmp_path, "import json\nfor line in open(%r):\n    print(json.dumps(json.loads(line)))\n"
            % str(data))
    assert p.returncode == 0, p.stderr
    out = p.stdout.split("\n")[:-1]  # values may hold other line breaks (\u2028, \x85)
    assert len(out) == 2 * len(vals)
    for k, v in enumerate(vals):
        assert json.loads(out[2 * k]) == v and json.loads(out[2 * k + 1]) == v


@pytest.mark.parametrize("bad", ["", "{", "[1]x", '"open', "nul", '{"a":1}}', "-", "[}", "{]", "[" * 300, "{1 2}"])
def test_json_in_c_refuses_what_the_chips_refuses(chip_vm, tmp_path, bad):
    p = run(chip_vm, tmp_path, "import json\ntry:\n    json.loads(%r)\nexcept ValueError:\n    print('refused')\n"
            % bad)
    assert p.stdout.strip() == "refused", p.stdout + p.stderr


@pytest.mark.parametrize("text,value", [('{"a" 1}', {"a": 1}), ("[1 2]", [1, 2]), ("[1,]", [1]), ('{"a":}', {}),
                                        ('{"a":1,,"b":2}', {"a": 1, "b": 2})])
def test_json_in_c_is_as_lenient_as_circuitpythons(chip_vm, tmp_path, text, value):
    # CircuitPython's json.loads (extmod/modjson.c) skips commas and colons like spaces: the chip
    # takes these, so the firmware must refuse them itself (pegfw.protocol._shape)
    p = run(chip_vm, tmp_path, "import json\nprint(json.dumps(json.loads(%r)))\n" % text)
    assert json.loads(p.stdout) == value, p.stdout + p.stderr


@settings(max_examples=20, deadline=None)
@given(st.binary(max_size=40))
def test_binascii_round_trips(data):
    vm = str(chipvm.build().path)
    p = subprocess.run([vm, "/dev/stdin"], input="import binascii\nd = %r\n"
                       "print(repr(binascii.hexlify(d).decode()), binascii.unhexlify(binascii.hexlify(d)) == d)\n"
                       % data, capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == [repr(data.hex()), "True"], p.stderr


def test_it_lacks_what_a_circuitpython_board_lacks(chip_vm, tmp_path):
    p = run(chip_vm, tmp_path, "import sys, time\n"
            "try:\n    next(iter([]), 0)\nexcept TypeError:\n    print('no next2')\n"
            "print(hasattr(sys.stdin, 'buffer'), hasattr(time, 'ticks_ms'))\n"
            "def deep(n):\n    return 0 if n == 0 else 1 + deep(n - 1)\n"
            "try:\n    deep(60)\nexcept RuntimeError as e:\n    print(e)\n"
            "print(deep(20))\n")
    assert p.stdout.splitlines() == ["no next2", "False False", "pystack exhausted", "20"], p.stdout + p.stderr


# each value as settings.toml has it after the "=", and what each CircuitPython reads from it:
# os.getenv up to 10.1 (adafruit/circuitpython shared-module/os/getenv.c, 9.1.0-10.1.4), os.getenv
# and supervisor.get_setting from 10.2.0 (shared-module/os/__init__.c, supervisor/shared/settings.c)
GETENV_CASES = [  # (text, os.getenv up to 10.1, os.getenv from 10.2, get_setting from 10.2)
    (' "GP16"  # the pixels', "'GP16'", "'GP16'", "'GP16'"),
    (" 40 ", "40", "'40'", "40"),
    (" 40\r", "40", "'40'", "40"),           # a CRLF file: 10.2 trims the \r, 9.x's int() skips it
    (" wooden", "ValueError", "'wooden'", "ValueError"),
    (" 0x1F", "31", "'0x1F'", "31"),
    (" 017", "17", "'017'", "15"),           # int(text, 0) on the chip reads decimal; C's strtol octal
    (" 0b101", "5", "'0b101'", "ValueError"),
    (" 1_000", "1000", "'1_000'", "ValueError"),
    (" true", "ValueError", "'true'", "True"),
    (' "abc" x', "ValueError", "'dflt'", "ValueError"),  # text after the closing quote
    (' "abc', "ValueError", "'dflt'", "ValueError"),     # no closing quote
    ("", "ValueError", "'dflt'", "ValueError"),          # nothing after the "="
    (' "\\u00e9\\t"', "'\\xe9\\t'", "'\\xe9\\t'", "'\\xe9\\t'"),
]
GETENV_SCRIPT = """import os, _vmhost
def show(f, *a):
    try:
        return repr(f(*a))
    except ValueError:
        return 'ValueError'
print(_vmhost.circuitpython(), show(os.getenv, 'ABSENT', 7), show(_vmhost.get_setting, 'ABSENT', 7))
for i in range(%d):
    print(show(os.getenv, 'K%%d' %% i, 'dflt') + '|' + show(_vmhost.get_setting, 'K%%d' %% i, 'dflt'))
"""


@pytest.mark.parametrize("version", ["9.1.0", "10.1.4", "10.2.0", "10.3.0-alpha.4", None])
def test_os_getenv_reads_settings_as_each_circuitpython_does(chip_vm, tmp_path, version):
    env = {"K%d" % i: case[0] for i, case in enumerate(GETENV_CASES)}
    if version is not None:  # unset: the newest tested, 10.2.1
        env["PEGBOARD_SIM_CP_VERSION"] = version
    p = run(chip_vm, tmp_path, GETENV_SCRIPT % len(GETENV_CASES), env=env)
    lines = p.stdout.splitlines()
    want_version = (10, 2, 1) if version is None else tuple(int(x) for x in version.split("-")[0].split("."))
    new = want_version >= (10, 2, 0)
    assert lines[0] == "%s 7 7" % (want_version,), p.stdout + p.stderr
    got = [line.split("|")[0] for line in lines[1:]]
    assert got == [new_ if new else old for _, old, new_, _ in GETENV_CASES], p.stdout + p.stderr
    # get_setting is the same function whatever the version: the fake supervisor offers it from 10.2.0
    assert [line.split("|")[1] for line in lines[1:]] == [gs for *_, gs in GETENV_CASES]


def test_chipvm_is_32_bit_with_16_byte_blocks_where_gcc_m32_works(chip_vm, tmp_path):
    built = chipvm.build()
    if built.bits != 32:
        pytest.skip(built.note)
    p = run(chip_vm, tmp_path, "import sys, gc\n"
            "gc.collect(); a = gc.mem_alloc(); x = [bytearray(1) for i in range(100)]\n"
            "gc.collect(); print(sys.maxsize, gc.mem_alloc() - a)\n", "-X", "heapsize=64K")
    maxsize, used = map(int, p.stdout.split())
    assert maxsize == 2**31 - 1
    # each bytearray: a 16-byte header and its byte in two 16-byte blocks, plus a 4-byte list slot
    assert 100 * 36 <= used < 100 * 40


def test_the_firmware_scenario_runs_on_chipvm_and_says_when_the_heap_is_too_small(chip_vm):
    from bench import firmware

    lib = _lib_dir()
    try:
        # it exits non-zero unless the firmware started and every request was answered
        figures = firmware.run_scenario(lib, "devices", chip_vm, 192)
        with pytest.raises(firmware.ScenarioFailed) as small:
            firmware.run_scenario(lib, "devices", chip_vm, 64)
    finally:
        shutil.rmtree(lib, ignore_errors=True)
    assert 0 < figures["heap_boot"] <= figures["heap_peak"] and figures["free_at_base"] > 64 * 1024
    assert small.value.status in (firmware.NO_MEMORY, firmware.START_FAILED), small.value


def test_files_and_exit_status(chip_vm, tmp_path):
    data = tmp_path / "d.bin"
    p = run(chip_vm, tmp_path,
            "import sys\n"
            "with open(%r, mode='wb') as f:\n"
            "    f.write(b'hello world')\n"
            "f = open(%r, 'rb')\n"
            "b = bytearray(5)\n"
            "print(f.readinto(b), bytes(b), f.seek(6), f.read())\n"
            "f.close()\n"
            "print(open(%r).read())\n"
            "for m in ('r+', 'x', 'rbt'):\n"
            "    try:\n"
            "        open(%r, m)\n"
            "    except ValueError:\n"
            "        print('refused', m)\n"
            "sys.exit(3)\n" % (str(data), str(data), str(data), str(data)))
    assert p.stdout.splitlines() == ["5 b'hello' 6 b'world'", "hello world", "refused r+", "refused x",
                                     "refused rbt"]
    assert p.returncode == 3
    bad = run(chip_vm, tmp_path, "pass\n", "-X", "heapsize=lots")
    assert bad.returncode == 2 and "heapsize" in bad.stderr


def test_a_64_bit_build_when_asked_keeps_the_same_options(tmp_path):
    built = chipvm.build(64)
    assert built.bits == 64 and built.path.exists()
    p = run(str(built.path), tmp_path, "import sys\ntry:\n    next(iter([]), 0)\nexcept TypeError:\n"
            "    print('no next2', sys.maxsize > 2**31)\n")
    assert p.stdout.strip() == "no next2 True", p.stdout + p.stderr


@pytest.mark.timeout(900)  # a whole build from source with zig: past 300 s on a loaded two-core machine
def test_zig_builds_it_32_bit_where_gcc_m32_is_missing(monkeypatch, tmp_path):
    # the build a machine without gcc-multilib gets (PEGBOARD_CHIPVM_CC=zig forces it here)
    if importlib.util.find_spec("ziglang") is None:
        pytest.skip("ziglang is not installed (pip install %s)" % chipvm.ZIG_PACKAGE)
    src = chipvm.cache_dir() / "src"
    if (src / "micropython" / ".sha256").is_file():  # the checked source, if here: no download
        shutil.copytree(src, tmp_path / "cache" / "chipvm" / "src")
    monkeypatch.setenv("PEGBOARD_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PEGBOARD_CHIPVM_CC", "zig")
    for name in ("PEGBOARD_CHIPVM", "PEGBOARD_CHIPVM_BITS"):
        monkeypatch.delenv(name, raising=False)
    built = chipvm.build()
    assert built.bits == 32 and built.note == chipvm.ZIG_NOTE
    assert built.path.parent == tmp_path / "cache" / "chipvm"
    assert (tmp_path / "cache" / "chipvm" / "zig-cache").is_dir()  # zig's caches stay with ours
    p = run(str(built.path), tmp_path, "import sys\ntry:\n    next(iter([]), 0)\nexcept TypeError:\n"
            "    print('no next2', sys.maxsize)\n")
    assert p.stdout.strip() == "no next2 2147483647", p.stdout + p.stderr


def test_bench_falls_back_to_the_64_bit_vm_and_says_why(monkeypatch):
    from bench import firmware

    def unavailable():
        raise chipvm.Unavailable("no gcc in this test")

    fig = {"ticks_per_us": 1, "boot_ticks": 1, "idle_ticks": 1, "idle_p99_ticks": 1, "idle_worst_ticks": 1,
           "sensor_ticks": 1, "sensor_worst_ticks": 1, "load_ticks": 1,
           "flash_write_pass_ticks": 1, "flash_write_pass_programs": 1,
           "compaction_pass_ticks": 1, "compaction_pass_erases": 1, "heap_boot": 50000, "heap_peak": 60000,
           "longest_pass_ticks": 100, "longest_compile_pass_ticks": 900, "solve_ticks": 1000}

    over = firmware.HEAP_BUDGET + 4000  # the 64-bit VM's larger figure, past the budget

    def vm_run(lib, mode, vm=None, heap_kb=None):
        heap_kb = heap_kb or 192
        if heap_kb < 90:  # this fake's start-up fails below 90 KB, its loop below 97 KB, a request below 101 KB
            raise firmware.ScenarioFailed(firmware.START_FAILED, "")
        if heap_kb < 101:
            raise firmware.ScenarioFailed(firmware.NO_MEMORY, "")
        return dict(fig, heap_peak=40000 if vm else over, free_at_base=heap_kb * 1000 - 48000,
                    ticks_per_us=125 if "thumbvm" in str(vm) else 1)  # thumbvm times in cycles

    monkeypatch.setattr(chipvm, "build", unavailable)
    monkeypatch.setattr(firmware, "run_scenario", vm_run)
    monkeypatch.setattr(firmware.hint_wait, "run", lambda *a: {})  # thumbvm's presses: bench/hint_wait.py
    out = firmware.run()
    peak = out["heap_peak_game_and_demo"]
    assert peak["value"] == over and not peak["ok"]  # the 64-bit figure stands in, and misses
    assert "chipvm unavailable: no gcc in this test" in peak["vm"]
    assert "heap_free_needed" not in out  # not measured without chipvm

    monkeypatch.setattr(chipvm, "build", lambda: chipvm.Built(__import__("pathlib").Path("vm"), 32, ""))
    out = firmware.run()
    peak = out["heap_peak_game_and_demo"]
    assert peak["value"] == 40000 and peak["ok"] and peak["unix_64bit_vm_bytes"] == over
    assert peak["vm"].startswith("chipvm") and "32-bit" in peak["vm"]
    # the bisection finds the first 4 KB step that runs, less what was there before the firmware
    assert out["heap_free_needed"]["smallest_heap_kb"] == 104
    assert out["heap_free_needed"]["value"] == 104 * 1000 - 48000  # free before the firmware starts

    def broken(lib, mode, vm=None, heap_kb=None):  # a failure that is not memory must not pass as one
        if (heap_kb or 192) < 200:
            raise firmware.ScenarioFailed(1, "requests failed: 16 ok, 1 refused (0 for no_memory)")
        return vm_run(lib, mode, vm, heap_kb)

    monkeypatch.setattr(firmware, "run_scenario", broken)
    with pytest.raises(firmware.ScenarioFailed, match="0 for no_memory") as failed:
        firmware.run()
    assert failed.value.status == 1


def test_the_names_interned_at_build_time_are_those_of_the_stand_ins_and_harness_as_they_are():
    """qstrdefs_standins.h (pegboard.sim.chipvm.standins says why) lists the names of the device
    stand-ins and the bench harness: regenerate it (python -m pegboard.sim.chipvm.standins) when
    they change, or the chip runtimes charge their names to the firmware's heap."""
    from pegboard.sim.chipvm import standins

    assert standins.HEADER.read_text(encoding="utf-8") == standins.header()
    names = standins.standin_names()
    assert {"KeyMatrix", "get_into", "neopixel_write", "BenchHW"} <= set(names)
    assert "cmd_records" not in names and "Tracker" not in names  # the firmware's own stay its cost
