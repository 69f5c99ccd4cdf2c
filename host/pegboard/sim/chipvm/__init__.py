"""chipvm: the firmware's runtime as a CircuitPython board has it, built on this PC.

The unix MicroPython from PyPI runs at a higher feature level than a CircuitPython board (it has
two-argument next(), sys.stdin.buffer, ...), is 64-bit, and has no Python-stack limit, so firmware
that passes there can still fail on the chip. chipvm is MicroPython's core (its py and shared folders, of
MicroPython 1.19, from PyPI's mpy_cross_v6 source package, checked by hash) with a small port of
ours in this folder, set up the way CircuitPython sets up an RP2040 board: MicroPython's core
feature level plus CircuitPython's explicit options (mpconfigport.h, docs/chip-runtime.md), a
1,536-byte Python stack, 4-byte pointers and 16-byte GC blocks. json and binascii are C modules,
as on the chip.

It is always a 32-bit program: built with `gcc -m32` where that works (Debian: gcc-multilib), else
with zig's C compiler from PyPI's `ziglang` (a dev dependency, pinned to ZIG_PACKAGE) as a static
x86 Linux program on musl, which zig brings, so a machine with only gcc, make and Python builds it
too. zig's caches go under cache_dir(), not ~/.cache/zig. Neither there: Unavailable, naming what
to install. Nothing here installs anything on the machine.

Environment:
- PEGBOARD_CHIPVM_CC=gcc|zig: which compiler builds the 32-bit chipvm (unset or "": gcc -m32 if it
  works, else zig); e.g. PEGBOARD_CHIPVM_CC=zig tests the zig build on a machine with gcc-multilib.
- PEGBOARD_CHIPVM_BITS=64 (or build(64)): the 64-bit build (host gcc, same options), only when asked.
- PEGBOARD_CHIPVM=PATH: use that program instead; PEGBOARD_CACHE: where builds are kept.
`Built.bits` says which build it is, and `Built.note` how it was built when that is not gcc -m32.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import NamedTuple

from pegboard.progress import working

HERE = Path(__file__).resolve().parent
PACKAGE = "mpy_cross_v6==1.1.2"
SHA256 = "6accc831761e8dc2eb778f937808f6bc72650fefc1fc6aa96bfc23867fbadfea"
# what the build needs from the package: the core, the port helpers, and docs/conf.py, where
# makeversionhdr.py finds the version outside a MicroPython git checkout
WANTED = ("py", "shared", "docs/conf.py")
PORT_FILES = ("Makefile", "mpconfigport.h", "mphalport.h", "qstrdefsport.h", "qstrdefs_standins.h", "main.c",
              "modport.c", "modjson.c")
ZIG_PACKAGE = "ziglang==0.17.1"  # as pinned in pyproject.toml's dev dependencies
ZIG_TARGET = "x86-linux-musl"     # a static 32-bit x86 Linux program; zig brings musl
ZIG_NOTE = "built with zig cc (%s)" % ZIG_TARGET
INSTALL = ("pip install %s (into the Python that runs pegboard), or gcc-multilib (Debian/Ubuntu; "
           "elsewhere your system's 32-bit C library and libgcc) for gcc -m32" % ZIG_PACKAGE)


class Unavailable(RuntimeError):
    """chipvm cannot be built here; the message says why and what to install."""


class Built(NamedTuple):
    path: Path
    bits: int        # 32 (as the chip), or 64 when asked for
    note: str        # "" for gcc -m32's build, else how it was built (zig cc, 64-bit, PEGBOARD_CHIPVM)


def cache_dir() -> Path:
    base = os.environ.get("PEGBOARD_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pegboard")
    return Path(base) / "chipvm"


def _m32_works() -> bool:
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "t.c"
        src.write_text("int main(void) { return sizeof(void *) == 4 ? 0 : 1; }\n")
        exe = Path(d) / "t"
        try:
            if subprocess.run(["gcc", "-m32", str(src), "-o", str(exe)], capture_output=True).returncode != 0:
                return False
            return subprocess.run([str(exe)], capture_output=True).returncode == 0
        except OSError:  # no gcc at all
            return False


def _zig_works() -> bool:
    """ziglang is importable here and its zig runs (whether it builds is the build's to say)."""
    if importlib.util.find_spec("ziglang") is None:
        return False
    try:
        return subprocess.run([sys.executable, "-m", "ziglang", "version"], capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _compiler(want: int) -> str:
    """The compiler for a `want`-bit build: "gcc" (-m32 when 32), or "zig"."""
    if want == 64:
        return "gcc"
    choice = os.environ.get("PEGBOARD_CHIPVM_CC", "").strip().lower()
    if choice not in ("", "gcc", "zig"):
        raise Unavailable("PEGBOARD_CHIPVM_CC=%s: it is gcc, zig or unset (gcc -m32 if it works, else zig)"
                          % choice)
    if choice in ("", "gcc") and _m32_works():
        return "gcc"
    if choice == "gcc":
        raise Unavailable("PEGBOARD_CHIPVM_CC=gcc, but gcc -m32 does not work here: install gcc-multilib "
                          "(Debian/Ubuntu) or your system's 32-bit C library and libgcc")
    if _zig_works():
        return "zig"
    if choice == "zig":
        raise Unavailable("PEGBOARD_CHIPVM_CC=zig, but `%s -m ziglang` does not run here: pip install %s"
                          % (sys.executable, ZIG_PACKAGE))
    raise Unavailable("chipvm is a 32-bit program, and neither gcc -m32 nor zig (PyPI ziglang) works "
                      "here to build it: " + INSTALL)


def fetch_source(dest: Path) -> None:
    stamp = dest / ".sha256"  # which package the extracted source came from: only a whole copy
    if stamp.exists() and stamp.read_text().strip() == SHA256:
        return
    with tempfile.TemporaryDirectory() as d:
        req = Path(d) / "requirements.txt"
        req.write_text("%s --hash=sha256:%s\n" % (PACKAGE, SHA256))  # checked before pip builds anything
        p = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                            "--require-hashes", "-r", str(req), "-d", d], capture_output=True, text=True)
        tars = list(Path(d).glob("*.tar.gz"))
        if p.returncode != 0 or len(tars) != 1:
            raise Unavailable("could not download %s from PyPI: %s" % (PACKAGE, p.stderr.strip()[-300:]))
        tmp = Path(d) / "x"
        with tarfile.open(tars[0]) as tar:
            members = [m for m in tar.getmembers() if m.name.split("/")[1:2] == ["micropython"]
                       and any(("/".join(m.name.split("/")[2:]) + "/").startswith(w + "/") for w in WANTED)]
            tar.extractall(tmp, members=members)
        shutil.rmtree(dest, ignore_errors=True)  # a stale or half-moved copy
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(next(tmp.iterdir()) / "micropython"), str(dest))
        stamp.write_text(SHA256 + "\n")


def _key(bits: int, cc: str) -> str:
    # the compiler is part of the key: gcc -m32's and zig's builds are different programs
    if cc == "zig":
        cc = "zig %s %s" % (importlib.metadata.version("ziglang"), ZIG_TARGET)
    h = hashlib.sha256(("%s %d %s\n" % (SHA256, bits, cc)).encode())
    for name in PORT_FILES:
        h.update((HERE / name).read_bytes())
    return h.hexdigest()[:16]


def _given(path: str) -> Built:
    """A chip VM built elsewhere (PEGBOARD_CHIPVM), e.g. this port on CircuitPython's own core."""
    exe = Path(path)
    if not exe.is_file() or not os.access(exe, os.X_OK):
        raise Unavailable("PEGBOARD_CHIPVM=%s is not an executable" % path)
    with tempfile.TemporaryDirectory() as d:
        probe = Path(d) / "probe.py"
        probe.write_text("import sys\nprint(sys.maxsize > 2**31)\n")
        p = subprocess.run([str(exe), str(probe)], capture_output=True, text=True, timeout=30)
    if p.returncode != 0 or p.stdout.strip() not in ("True", "False"):
        raise Unavailable("PEGBOARD_CHIPVM=%s does not run a script: %s" % (path, (p.stdout + p.stderr)[-200:]))
    bits = 64 if p.stdout.strip() == "True" else 32
    return Built(exe, bits, "PEGBOARD_CHIPVM=%s" % path)


def _probe(exe: Path, bits: int) -> None:
    """The program just built runs a script, with the word size asked for (a 32-bit program also
    needs the kernel's 32-bit support, which some machines leave out)."""
    with tempfile.TemporaryDirectory() as d:
        probe = Path(d) / "probe.py"
        probe.write_text("import sys\nprint(sys.maxsize)\n")
        try:
            p = subprocess.run([str(exe), str(probe)], capture_output=True, text=True, timeout=60)
            out = p.stdout.strip()
        except (OSError, subprocess.TimeoutExpired) as e:
            out = str(e)
    if out != str(2**(bits - 1) - 1):
        raise Unavailable("the %d-bit chipvm built, but does not run a script here: %s" % (bits, out[-300:]))


def build(bits: int | None = None) -> Built:
    """chipvm, building it first if this version of the port is not built yet (once: ~10-20 s; zig's
    first build here also builds its musl C library, ~1 min).
    `bits`: 32 (the default: gcc -m32 where it works, else zig cc; PEGBOARD_CHIPVM_CC picks) or 64
    (PEGBOARD_CHIPVM_BITS=64 asks for it too). PEGBOARD_CHIPVM=PATH: use that program instead (one
    built from CircuitPython's own core)."""
    if os.environ.get("PEGBOARD_CHIPVM") and bits is None:
        return _given(os.environ["PEGBOARD_CHIPVM"])
    want = bits or int(os.environ.get("PEGBOARD_CHIPVM_BITS", "0") or 0) or 32
    if want not in (32, 64):
        raise Unavailable("chipvm is built 32- or 64-bit, not %d-bit" % want)
    cc = _compiler(want)
    note = "64-bit build asked for" if want == 64 else ZIG_NOTE if cc == "zig" else ""
    root = cache_dir()
    out = root / ("chipvm-%d%s-%s" % (want, "-zig" if cc == "zig" else "", _key(want, cc)))
    if out.exists():
        return Built(out, want, note)
    root.mkdir(parents=True, exist_ok=True)
    import fcntl  # POSIX only: here, not at the top, so importing this module works on Windows too

    # a wait with nothing to see (the build, or another process's): said on a terminal only
    took = "~1 min" if cc == "zig" else "~20 s"
    with open(root / ".lock", "w") as lock, working("building the chip runtime (first time only, %s)" % took):
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time: tests and the bench may race
        if out.exists():
            return Built(out, want, note)
        fetch_source(root / "src" / "micropython")
        env = dict(os.environ)
        # the Makefile's ZIG is the command that runs zig; given empty, one in the environment
        # cannot turn gcc's build into zig's
        zig = ziglib = ""
        if cc == "zig":
            zig = "%s -m ziglang" % shlex.quote(sys.executable)  # make hands it to the shell
            spec = importlib.util.find_spec("ziglang")  # there: _compiler found it
            ziglib = shlex.quote(str(Path(spec.origin).parent / "lib")) if spec and spec.origin else ""
            # zig's caches (its musl and compiler-rt, built once, and its objects) stay with ours
            env["ZIG_GLOBAL_CACHE_DIR"] = env["ZIG_LOCAL_CACHE_DIR"] = str(root / "zig-cache")
        with tempfile.TemporaryDirectory(dir=root) as work:
            cmd = ["make", "-C", str(HERE), "-j2", "TOP=%s" % (root / "src" / "micropython"),
                   "BUILD=%s" % work, "OUT=%s/chipvm" % work, "M32=%d" % (want == 32 and cc == "gcc"),
                   "ZIG=%s" % zig, "ZIGLIB=%s" % ziglib, "PYTHON=%s" % shlex.quote(sys.executable)]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, env=env)
            except OSError as e:
                raise Unavailable("cannot run make: %s" % e) from None
            if p.returncode != 0 or not Path(work, "chipvm").exists():
                raise Unavailable("building chipvm (%s) failed:\n" % (note or "gcc -m32")
                                  + (p.stdout + p.stderr)[-2000:])
            _probe(Path(work, "chipvm"), want)
            os.replace(Path(work, "chipvm"), out)
    return Built(out, want, note)


def main() -> None:
    try:
        b = build()
    except Unavailable as e:
        raise SystemExit("chipvm: %s" % e) from None
    print(b.path)
    if b.note:
        print("chipvm: " + b.note, file=sys.stderr)


if __name__ == "__main__":
    main()
