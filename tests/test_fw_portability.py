"""The firmware tree stays portable to CircuitPython and MicroPython, keeps its hardware behind
one seam, and type-checks against CircuitPython's own stubs."""

import re
import subprocess
import sys

from conftest import ROOT

FIRMWARE = ROOT / "firmware"
HARDWARE_MODULES = {"board", "keypad", "neopixel", "usb_cdc", "microcontroller", "supervisor", "watchdog",
                    "digitalio", "neopixel_write"}
MISSING_ON_CHIP = re.compile(r"^\s*(from|import)\s+(dataclasses|enum|abc|functools)\b|\.bit_count\(|\.bit_length\(|"
                             r"@dataclass|^(import typing|from typing import)", re.M)
# what a CircuitPython board lacks at its feature level (docs/chip-runtime.md): next(it, default)
# (MICROPY_PY_BUILTINS_NEXT2), sys.stdin.buffer (MICROPY_PY_SYS_STDIO_BUFFER), __setattr__ and
# __delattr__ on classes (MICROPY_PY_DELATTR_SETATTR), MicroPython's time ticks and select (the
# chip has supervisor.ticks_ms), and the u-names of modules (CircuitPython says array, json, ...)
CHIP_LEVEL = re.compile(r"\bnext\([^()]*(\([^()]*\))?[^()]*,|sys\.stdin\.buffer|def __(set|del)attr__|"
                        r"\btime\.ticks_|from time import ticks|^\s*(import|from)\s+(select|u(array|json|struct|io|"
                        r"collections|errno|time|os|binascii|re|sys))\b", re.M)


def sources():
    return sorted(FIRMWARE.rglob("*.py"))


def test_no_constructs_the_chip_lacks():
    bad = []
    for p in sources():
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if MISSING_ON_CHIP.search(line):
                bad.append("%s:%d: %s" % (p.relative_to(ROOT), n, line.strip()))
    assert not bad, bad


def test_nothing_a_circuitpython_board_lacks_at_its_feature_level():
    bad = []
    for p in sources():
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if CHIP_LEVEL.search(line.split("#")[0]):
                bad.append("%s:%d: %s" % (p.relative_to(ROOT), n, line.strip()))
    assert not bad, bad


def test_the_scan_finds_what_it_looks_for():
    for line in ("x = next(it, None)", "kind = next(self.steps, (a, b))", "sys.stdin.buffer.read(1)",
                 "    def __setattr__(self, k, v):", "t = time.ticks_ms()", "from time import ticks_ms",
                 "import ujson", "import select"):
        assert CHIP_LEVEL.search(line), line
    for line in ("x = next(it)", "nexts = [0]", "import json", "from pegcore.search import steps"):
        assert not CHIP_LEVEL.search(line), line


def test_typing_only_inside_try():
    for p in sources():
        lines = p.read_text().splitlines()
        for n, line in enumerate(lines):
            if re.match(r"\s+from typing import", line):
                assert lines[n - 1].strip() == "try:", "%s:%d" % (p, n + 1)


def test_no_float_literals_in_the_solver_core():
    for name in ("solver.py", "rules.py", "geometry.py", "search.py", "hinttable.py", "memo.py", "advisor.py"):
        code = "\n".join(line.split("#")[0] for line in (FIRMWARE / "pegcore" / name).read_text().splitlines())
        code = re.sub(r'"""[\s\S]*?"""|"[^"\n]*"', "", code)
        assert not re.search(r"\b\d+\.\d+\b|\d+e-?\d+", code), name


# Deployed as .py, the chip compiles the firmware from source, much of it after start-up (pegfw.ondemand) when the
# heap is in pieces. The parser makes a str object of every long string literal, a docstring too,
# before the compiler drops it: one block of the string's size, in one piece. pegcore.targets' 2.4 KB
# docstring failed a `challenge` request now and then on the chip runtime with 87 KB free.
LONGEST_LITERAL = 1024  # bytes; longer explanations go in # comments, which cost the heap nothing


def long_literals(text):
    import ast

    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            size = len(node.value.encode() if isinstance(node.value, str) else node.value)
            if size > LONGEST_LITERAL:
                out.append((node.lineno, size))
    return out


def test_no_string_literal_needs_a_block_over_1kb_to_compile():
    bad = ["%s:%d: %d bytes" % (p.relative_to(ROOT), line, size) for p in sources()
           for line, size in long_literals(p.read_text())]
    assert not bad, bad
    assert long_literals('"""%s"""\nx = 1\n' % ("a" * 1100)) == [(1, 1100)]  # the scan finds a long docstring


def test_only_hardware_py_imports_hardware_modules():
    importers = set()
    for p in sources():
        for m in re.finditer(r"^\s*(?:import|from)\s+([a-z_]+)", p.read_text(), re.M):
            if m.group(1) in HARDWARE_MODULES:
                importers.add(p.relative_to(FIRMWARE).as_posix())
    assert importers == {"pegfw/hardware.py", "boot.py"}


def test_boot_py_imports_usb_cdc_alone():
    # the data port must come up even with lib/ or the firmware's packages missing or broken
    imports = re.findall(r"^\s*(?:import|from)\s+([a-z_.]+)", (FIRMWARE / "boot.py").read_text(), re.M)
    assert imports == ["usb_cdc"]


def test_mypy_against_circuitpython_stubs():
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini"], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr


def _run_vm(vm, script, *args):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
        f.write(script)
        f.flush()
        return subprocess.run([vm, *args, f.name], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_every_firmware_module_compiles_in_micropython(vm):
    mods = [p.relative_to(FIRMWARE).with_suffix("").as_posix().replace("/", ".") for p in sources()
            if p.parent.name in ("pegcore", "pegfw") and p.name != "hardware.py"]
    script = "import sys\nsys.path.insert(0, 'firmware')\n" + "".join("import %s\n" % m for m in mods) + "print('ok')\n"
    p = _run_vm(vm, script, "-X", "heapsize=256K")
    assert p.stdout.strip() == "ok", p.stdout + p.stderr


def test_unload_in_micropython(vm):
    # MicroPython raises KeyError (not AttributeError) for a missing module attribute
    script = ("import sys\nsys.path.insert(0, 'firmware')\nimport pegfw\nfrom pegfw.ondemand import unload\n"
              "unload('pegfw.never_loaded')\nimport pegfw.clock\nunload('pegfw.clock')\nunload('pegfw.clock')\n"
              "print('pegfw.clock' in sys.modules, 'clock' in dir(pegfw))\n")
    p = _run_vm(vm, script)
    assert p.stdout.strip() == "False False", p.stdout + p.stderr
