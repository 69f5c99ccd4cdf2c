"""micropython32, the 32-bit VM the firmware's heap figures come from (bench/_micropython32.py): its
Python stand-ins for the chip's C modules behave as MicroPython's, and the whole firmware scenario
runs on it (which also keeps the firmware working on an older MicroPython core, 1.19)."""

import importlib.util
import json
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT

from bench import _micropython32 as micropython32
from pegboard.sim.simulator import _lib_dir


def _stand_in(name):
    spec = importlib.util.spec_from_file_location("vm32_" + name, micropython32.LIB / (name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


vjson = _stand_in("json")
vbinascii = _stand_in("binascii")

# \b and \f aside (MicroPython writes them as \u0008, \u000c: tested against the VM below), and
# within the BMP (MicroPython does not pair surrogate escapes into one character; nor does the stand-in)
chars = st.characters(max_codepoint=0xFFFF, blacklist_categories=("Cs",), blacklist_characters="\b\f")
scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(chars, max_size=12)
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                      | st.dictionaries(st.text(chars, max_size=6), kids, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(values)
def test_json_stand_in_writes_what_micropython_writes(v):
    # MicroPython's json.dumps separates with ", " and ": " and leaves non-ASCII as it is
    assert vjson.dumps(v) == json.dumps(v, ensure_ascii=False)
    assert vjson.loads(vjson.dumps(v)) == v


@settings(max_examples=300, deadline=None)
@given(values)
def test_json_stand_in_reads_compact_and_escaped_json(v):
    assert vjson.loads(json.dumps(v, separators=(",", ":"))) == v
    assert vjson.loads(json.dumps(v).encode()) == v


def test_json_stand_in_matches_the_micropython_vm(micropython):
    tricky = ["\f\b\x01\x7f\t\n\r\"\\é\U00010000", {"k": [1, -2, None, True, "x"]}, [], {}, -0, "",
              [[[]]]]
    out = subprocess.run([micropython, "-c", "import json\nfor v in %r:\n print(json.dumps(v))" % (tricky,)],
                         capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert out == [vjson.dumps(v) for v in tricky]


@pytest.mark.parametrize("bad", ["", "{", '{"a" 1}', "[1,]x", '"open', "nul", '{"a":1}}', "[1 2]"])
def test_json_stand_in_refuses_broken_json(bad):
    with pytest.raises(ValueError):
        vjson.loads(bad)


@given(st.binary(max_size=40))
def test_binascii_stand_in_round_trips(data):
    assert vbinascii.hexlify(data) == data.hex().encode()
    assert vbinascii.unhexlify(vbinascii.hexlify(data)) == data


def _vm32():
    if not micropython32._m32_works():
        pytest.skip("gcc -m32 is not available here (gcc-multilib): micropython32 cannot be built")
    try:
        return str(micropython32.build())
    except micropython32.Unavailable as e:  # e.g. no way to PyPI for the MicroPython source
        pytest.skip(str(e))


def test_micropython32_is_a_32_bit_vm_with_16_byte_blocks(tmp_path):
    script = tmp_path / "t.py"
    script.write_text("import sys, gc\n"
                      "gc.collect(); a = gc.mem_alloc(); x = [bytearray(1) for i in range(100)]\n"
                      "gc.collect(); print(sys.maxsize, gc.mem_alloc() - a)\n")
    out = subprocess.run([_vm32(), "-X", "heapsize=64K", str(script)], capture_output=True, text=True, timeout=60)
    maxsize, used = map(int, out.stdout.split())
    assert maxsize == 2**31 - 1
    # each bytearray: a 16-byte header and its byte in two 16-byte blocks, plus a 4-byte list slot
    assert 100 * 36 <= used < 100 * 40


def test_the_firmware_scenario_runs_on_micropython32():
    lib = _lib_dir()
    try:
        p = subprocess.run([_vm32(), "-X", "heapsize=192K", "bench/mp/firmware_bench.py", lib, "plain",
                            str(micropython32.LIB)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        import shutil

        shutil.rmtree(lib, ignore_errors=True)
    assert p.returncode == 0, p.stdout + p.stderr  # it exits non-zero unless every request was answered
    figures = dict(line.split() for line in p.stdout.splitlines())
    assert 0 < int(figures["heap_boot"]) <= int(figures["heap_peak"])


def test_micropython32_files_and_exit_status(tmp_path):
    data = tmp_path / "d.bin"
    script = tmp_path / "t.py"
    script.write_text(
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
    p = subprocess.run([_vm32(), str(script)], capture_output=True, text=True, timeout=60)
    assert p.stdout.splitlines() == ["5 b'hello' 6 b'world'", "hello world", "refused r+", "refused x",
                                     "refused rbt"]
    assert p.returncode == 3
    bad = subprocess.run([_vm32(), "-X", "heapsize=lots", str(script)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "heapsize" in bad.stderr


def test_bench_falls_back_to_the_64_bit_vm_and_says_why(monkeypatch):
    from bench import firmware

    def unavailable():
        raise micropython32.Unavailable("no gcc -m32 in this test")

    fig = {"boot_ms": 1, "idle_us": 1, "idle_p99_us": 1, "sensor_us": 1, "hint_us": 1, "load_us": 1,
           "heap_boot": 50000, "heap_peak": 60000}

    def vm_run(lib, mode, vm=None, heap_kb=192):
        if heap_kb < 97:  # the loop runs out of memory below 97 KB, a request below 101 KB
            raise RuntimeError("firmware bench failed: MemoryError: memory allocation failed")
        if heap_kb < 101:
            raise RuntimeError("firmware bench failed: requests failed: 16 ok, 1 refused (1 for no_memory)")
        return dict(fig, heap_peak=40000 if vm else 60000, free_at_base=heap_kb * 1000 - 48000)

    monkeypatch.setattr(micropython32, "build", unavailable)
    monkeypatch.setattr(firmware, "_vm_run", vm_run)
    out = firmware.run()
    peak = out["heap_peak_game_and_demo"]
    assert peak["value"] == 60000 and not peak["ok"]  # the 64-bit figure stands in, and misses
    assert "micropython32 unavailable: no gcc -m32 in this test" in peak["vm"]
    assert "heap_free_needed" not in out  # not measured without micropython32

    monkeypatch.setattr(micropython32, "build", lambda: "vm32")
    out = firmware.run()
    peak = out["heap_peak_game_and_demo"]
    assert peak["value"] == 40000 and peak["ok"] and peak["unix_64bit_vm_bytes"] == 60000
    assert peak["vm"].startswith("micropython32")
    # the bisection finds the first 4 KB step that runs, less what was there before the firmware
    assert out["heap_free_needed"]["smallest_heap_kb"] == 104
    assert out["heap_free_needed"]["value"] == 104 * 1000 - 48000  # free before the firmware starts

    def broken(lib, mode, vm=None, heap_kb=192):  # a failure that is not memory must not pass as one
        if heap_kb < 200:
            raise RuntimeError("firmware bench failed: requests failed: 16 ok, 1 refused (0 for no_memory)")
        return vm_run(lib, mode, vm, heap_kb)

    monkeypatch.setattr(firmware, "_vm_run", broken)
    with pytest.raises(RuntimeError, match="0 for no_memory"):
        firmware.run()
