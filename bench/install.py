"""`make run`'s first set-up as a newcomer meets it (issue "welcome"): on a fresh clone, the venv
made, pip updated and pegboard installed with what running needs (pyproject's dependencies, not the
[dev] extra), as the Makefile does it, with pip's cache off (a first run has none); the time on
this PC and the size of the venv it leaves."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.util import figure

ROOT = Path(__file__).resolve().parent.parent
BUDGET_S = 30  # issue "welcome": a first `make run` installs in under 30 s on this class of machine


def _size_mb(folder: Path) -> float:
    total = 0
    for dirpath, _, files in os.walk(folder):
        for name in files:
            p = Path(dirpath) / name
            if not p.is_symlink():
                total += p.stat().st_size
    return round(total / 1e6, 1)


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pegboard-install-") as tmp:
        clone = Path(tmp) / "pegboard"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        venv = clone / ".venv"
        pip = [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "--no-cache-dir"]
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(pip + ["--upgrade", "pip"], check=True, capture_output=True)
        subprocess.run(pip + ["-e", "."], cwd=clone, check=True, capture_output=True)
        took = time.perf_counter() - t
        size = _size_mb(venv)
    return {"run_install_s": figure(round(took, 1), "s", BUDGET_S, venv_mb=size,
                                    note="a fresh clone: python -m venv, pip upgraded, pip install -e . (what "
                                         "`make run` installs), pip's cache off, on this PC")}
