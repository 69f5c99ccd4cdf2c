"""pegfw.ondemand: each piece of work drops exactly the code it loaded, on every runtime."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "tests/mp/ondemand_owners.py"
EXPECTED = ["0 1 False True",  # the request's code left; the show's stayed with the show
            "0 1",              # the show's code left; the job's (loaded later) stayed
            "0 False",
            "1"]


def test_owners_drop_what_they_loaded_on_cpython():
    p = subprocess.run([sys.executable, SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.stdout.split("\n")[:4] == EXPECTED, p.stdout + p.stderr


def test_owners_drop_what_they_loaded_on_micropython(vm):
    p = subprocess.run([vm, SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.stdout.split("\n")[:4] == EXPECTED, p.stdout + p.stderr
