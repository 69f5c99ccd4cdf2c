"""The firmware as a deploy with mpy-cross places it (pegboard.deploy.plan: boot.py and code.py as
source, every module of pegcore/ and pegfw/ as .mpy, the tables, lib/ as source), compiled by the
mpy-cross of thumbvm's own core (PyPI `mpy_cross_v6`, built from the same MicroPython source as
chipvm's port: pegboard.sim.chipvm.PACKAGE), for the chip runtime to import as the chip imports a
deployed drive: loading bytecode, compiling nothing. CircuitPython's own mpy-cross writes its own
format (it begins "C"), which this core does not load; the bytecode is the same core's."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from bench.util import WORK

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "mpy_cross_v6==1.1.2"  # as pinned in pyproject.toml's dev dependencies
SMALL_INT_BITS = 31  # a 32-bit port's small ints (MICROPY_OBJ_REPR_A): what the chip's core loads


class Unavailable(RuntimeError):
    """No mpy-cross for thumbvm's core; the message says what to install."""


def _mpy_cross() -> str:
    try:
        import mpy_cross_v6  # type: ignore[import-untyped]
    except ImportError:
        raise Unavailable("the .mpy figures need %s: pip install %s" % (PACKAGE, PACKAGE)) from None
    return str(mpy_cross_v6.MPY_CROSS_PATH)


def compile_module(tool: str, src: Path, rel: str, out: Path) -> None:
    """`src` compiled to `out`, `rel` (its path on the drive) the name its tracebacks give."""
    p = subprocess.run([tool, "-msmall-int-bits=%d" % SMALL_INT_BITS, "-s", rel, "-o", str(out), str(src)],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or not out.exists() or out.read_bytes()[:2] != b"M\x06":
        raise RuntimeError("mpy-cross could not compile %s: %s" % (rel, (p.stderr or p.stdout).strip()))


def compile_drive(drive: Path) -> None:
    """A drive `pegboard deploy --py` wrote, its modules swapped for .mpy as a deploy with mpy-cross
    writes them. Raises Unavailable without the mpy-cross."""
    from pegboard.deploy.plan import PACKAGES

    tool = _mpy_cross()
    for pkg in PACKAGES:
        for src in sorted((drive / pkg).rglob("*.py")):
            compile_module(tool, src, src.relative_to(drive).as_posix(), src.with_suffix(".mpy"))
            src.unlink()


def staged() -> Path:
    """A folder laid out as the repository (its firmware/ as deployed with .mpy; host/, tests/ and
    bench/ the repository's own), at the same path every run (the paths are inputs: bench.util.WORK).
    Raises Unavailable without the mpy-cross, RuntimeError when it fails."""
    from pegboard.deploy.plan import PACKAGES, plan

    tool = _mpy_cross()
    top = WORK / "deployed-mpy"
    shutil.rmtree(top, ignore_errors=True)
    fw = top / "firmware"
    for src, rel in plan():
        if rel.startswith("lib/"):
            continue  # the bench gives the VM its own copy of the library (bench.util.bench_lib)
        dest = fw / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if rel.split("/")[0] in PACKAGES and rel.endswith(".py"):
            compile_module(tool, src, rel, dest.with_suffix(".mpy"))
        else:
            shutil.copyfile(src, dest)
    for name in ("host", "tests", "bench"):
        (top / name).symlink_to(ROOT / name)
    return top
