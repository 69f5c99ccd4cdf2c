"""thumbvm: the chip runtime whose time is the chip's, counted in Cortex-M0+ cycles.

chipvm's port (MicroPython 1.19's core with CircuitPython's options, ../chipvm) built for a
Cortex-M0+ with zig's clang (PyPI `ziglang`), run in Unicorn's emulation of a Cortex-M0 (PyPI
`unicorn`) by a small C program (host.c) that counts the cycles each executed instruction takes
on an RP2040 (docs/chip-runtime.md: the model, its sources and what it leaves out). Every machine
counts the same cycles for the same run: the figures no longer move with the PC.

The program takes chipvm's arguments (`-X heapsize=N`, `-X pystack=N`, a script and its
arguments); `_vmhost.cycles()` and `_vmhost.cpu_us()` give emulated chip time, and `time.monotonic*`
emulated chip time plus the time spent waiting for the simulator. Built on first use (~30 s) into
the cache, as chipvm; nothing is installed on the machine.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from pegboard.progress import working
from pegboard.sim import chipvm

HERE = Path(__file__).resolve().parent
PORT = HERE.parent / "chipvm"
OWN_FILES = ("Makefile", "thumb.ld", "hostcalls.c", "hostcalls.h", "libm_extra.zig", "host.c")
# the versions the cycle counts were checked with (pyproject.toml pins the same)
ZIG_VERSION, UNICORN_VERSION = "0.17.1", "2.1.4"
CHIP_HZ = 125_000_000


class Unavailable(RuntimeError):
    """thumbvm cannot be built here; the message says why and what to install."""


class BuildFailed(Unavailable):
    """Its tools are here, but building it failed: a fault to fix, not a tool to install."""


class Built(NamedTuple):
    path: Path   # the emulator; the guest is beside it (path + ".elf")


def _tools() -> tuple[Path, Path]:
    """(zig's lib folder, unicorn's package folder), or Unavailable naming what to install."""
    missing = []
    try:
        import ziglang  # type: ignore[import-untyped]
    except ImportError:
        missing.append("ziglang==%s" % ZIG_VERSION)
    try:
        import unicorn  # type: ignore[import-untyped]
    except ImportError:
        missing.append("unicorn==%s" % UNICORN_VERSION)
    if missing:
        raise Unavailable("thumbvm needs %s: pip install %s" % (" and ".join(missing), " ".join(missing)))
    zig_lib = Path(ziglang.__file__).parent / "lib"
    uc = Path(unicorn.__file__).parent
    if not (uc / "include" / "unicorn" / "unicorn.h").exists() or not _shared_lib(uc):
        raise Unavailable("the unicorn package at %s has no C header or shared library" % uc)
    return zig_lib, uc


def _shared_lib(uc: Path) -> str:
    """The unicorn package's shared library (not its static one: that needs a C++ runtime too)."""
    libs = sorted(p for p in (uc / "lib").glob("libunicorn*") if ".so" in p.name or p.suffix == ".dylib")
    return str(libs[0]) if libs else ""


def _key() -> str:
    h = hashlib.sha256(("%s %s %s\n" % (chipvm.SHA256, ZIG_VERSION, UNICORN_VERSION)).encode())
    for name in chipvm.PORT_FILES:
        h.update((PORT / name).read_bytes())
    for name in OWN_FILES:
        h.update((HERE / name).read_bytes())
    return h.hexdigest()[:16]


def _run(cmd: list[str], env: dict[str, str], what: str) -> None:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    except OSError as e:
        raise Unavailable("cannot run %s: %s" % (cmd[0], e)) from None
    if p.returncode != 0:
        raise BuildFailed("building thumbvm's %s failed:\n%s" % (what, (p.stdout + p.stderr)[-2000:]))


def build() -> Built:
    """thumbvm, building it first if this version is not built yet (~30 s, once)."""
    zig_lib, uc = _tools()
    root = chipvm.cache_dir().parent / "thumbvm"
    out = root / ("thumbvm-" + _key())
    if out.exists() and Path(str(out) + ".elf").exists():
        return Built(out)
    root.mkdir(parents=True, exist_ok=True)
    import fcntl

    # a wait with nothing to see (the build, or another process's): said on a terminal only
    with open(root / ".lock", "w") as lock, working("building the emulated chip's runtime (first time only, ~30 s)"):
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time: tests and the bench may race
        if out.exists() and Path(str(out) + ".elf").exists():
            return Built(out)
        src = chipvm.cache_dir() / "src" / "micropython"
        try:
            chipvm.fetch_source(src)
        except chipvm.Unavailable as e:
            raise Unavailable(str(e)) from None
        env = dict(os.environ, ZIG_GLOBAL_CACHE_DIR=str(root / "zig-cache"),
                   ZIG_LOCAL_CACHE_DIR=str(root / "zig-cache"))
        zig = "%s -m ziglang" % sys.executable
        with tempfile.TemporaryDirectory(dir=root) as work:
            _run(["make", "-C", str(HERE), "-j2", "TOP=%s" % src, "BUILD=%s" % work, "OUT=%s/guest.elf" % work,
                  "ZIG=%s" % zig, "ZIGLIB=%s" % zig_lib, "PYTHON=%s" % sys.executable], env, "guest")
            cc = os.environ.get("CC", "gcc")
            _run([cc, "-O2", "-Wall", "-I%s" % (uc / "include"), "-I%s" % HERE, str(HERE / "host.c"),
                  "-o", "%s/thumbvm" % work, _shared_lib(uc),
                  "-Wl,-rpath,%s" % (uc / "lib")], env, "emulator")
            os.replace(Path(work, "guest.elf"), str(out) + ".elf")
            os.replace(Path(work, "thumbvm"), out)
    return Built(out)


def main() -> None:
    try:
        b = build()
    except Unavailable as e:
        raise SystemExit("thumbvm: %s" % e) from None
    print(b.path)


if __name__ == "__main__":
    main()
