"""`make mutants`: the project's own mutation testing. Each mutation is one small fault put into one
line of a copy of the checkout (a comparison turned, `and` for `or`, a `not` dropped, a constant
nudged, True for False); the tests that import the mutated module run against the copy, and a
mutation no test notices is a survivor. Written to mutants-report.txt: each folder's count and its
survivors (file:line, the change). The working tree is never touched.

Usage: python tests/mutants.py [FOLDER ...] [--every N] [--jobs N]
  FOLDER: firmware/pegcore, firmware/pegfw, host/pegboard/link, host/pegboard/deploy, host/pegboard/web
  (all five by default); --every N tries every Nth candidate line of each file (default 1: all)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("firmware/pegcore", "firmware/pegfw", "host/pegboard/link", "host/pegboard/deploy", "host/pegboard/web")
REPORT = ROOT / "mutants-report.txt"
TEST_TIMEOUT_S = 600

# token -> (name, replacement): a line's first token that has one is changed; strings, comments and
# docstrings are not code and are never touched (Python's own tokenizer tells them apart)
SWAPS = {"<=": "<", ">=": ">", "<": "<=", ">": ">=", "==": "!=", "!=": "==", "and": "or", "or": "and",
         "True": "False", "False": "True", "+": "-", "-": "+", "not": ""}
SKIP_LINES = ("import ", "from ", "assert ", "raise ", "print(", "def ", "class ", "@")


def candidates(path: Path, every: int) -> list[tuple[int, str, str]]:
    """(line number, what changed, the mutated line) for the file, every `every`th one."""
    import io
    import tokenize

    lines = path.read_text().splitlines()
    first: dict[int, tokenize.TokenInfo] = {}
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type in (tokenize.OP, tokenize.NAME) and tok.string in SWAPS and tok.start[0] == tok.end[0]:
            first.setdefault(tok.start[0], tok)
    out = []
    for n, tok in sorted(first.items()):
        line = lines[n - 1]
        if line.strip().startswith(SKIP_LINES):
            continue
        if tok.string in "+-" and not line[tok.end[1]:].lstrip().startswith("1"):
            continue  # only the off-by-one kind: + 1 / - 1
        a, b = tok.start[1], tok.end[1]
        repl = SWAPS[tok.string]
        if tok.string == "not":
            b = len(line) - len(line[b:].lstrip())  # the space after it goes too
        out.append((n, "%s to %s" % (tok.string, repl or "nothing"), line[:a] + repl + line[b:]))
    return out[::every]


def tests_for(module_path: Path) -> list[str]:
    """The test files that import the module (by its dotted name or its package's `import X`)."""
    rel = module_path.relative_to(ROOT)
    parts = list(rel.with_suffix("").parts)
    if parts[0] == "firmware":
        parts = parts[1:]
    elif parts[0] == "host":
        parts = parts[1:]
    dotted = ".".join(parts)
    name = parts[-1]
    pattern = re.compile(r"(\b%s\b|from %s import [^\n]*\b%s\b)" % (re.escape(dotted), re.escape(".".join(parts[:-1])),
                                                                      re.escape(name)))
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py")
                  if p.name != "test_mutants.py" and pattern.search(p.read_text()))


def copy_checkout(into: Path) -> Path:
    """A copy of the checkout's code and tests, and a folder whose pegcore/pegfw point into it (the
    firmware's own folder holds a code.py that would shadow the standard library's)."""
    for part in ("firmware", "host", "tests", "hardware", "docs", "bench"):
        shutil.copytree(ROOT / part, into / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "Makefile", "mypy.ini"):
        shutil.copy(ROOT / name, into / name)
    links = into / ".paths"
    links.mkdir()
    for pkg in ("pegcore", "pegfw"):
        (links / pkg).symlink_to(into / "firmware" / pkg)
    return links


def run_tests(copy: Path, links: Path, tests: list[str]) -> bool:
    """True when the tests fail (the mutation is killed)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(copy / "host"), str(links)]))
    try:
        p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                            "-m", "not soak", *tests], cwd=copy, env=env, capture_output=True,
                           timeout=TEST_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return True  # a mutation that hangs the tests is noticed
    return p.returncode != 0


def mutate_one(module: Path, line_no: int, new_line: str, tests: list[str]) -> bool:
    with tempfile.TemporaryDirectory(prefix="pegboard-mutant-") as tmp:
        copy = Path(tmp)
        links = copy_checkout(copy)
        target = copy / module.relative_to(ROOT)
        lines = target.read_text().splitlines(keepends=True)
        ending = "\n" if lines[line_no - 1].endswith("\n") else ""
        lines[line_no - 1] = new_line + ending
        target.write_text("".join(lines))
        return run_tests(copy, links, tests)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", default=list(FOLDERS))
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    started = time.monotonic()
    report = ["mutants: %s, every %d candidate line, %d at once" % (", ".join(args.folders), args.every, args.jobs)]
    worst = 0.0
    for folder in args.folders:
        jobs = []
        for module in sorted((ROOT / folder).rglob("*.py")):
            tests = tests_for(module)
            for line_no, name, new_line in candidates(module, args.every):
                jobs.append((module, line_no, name, new_line, tests))
        with ThreadPoolExecutor(args.jobs) as pool:
            killed = list(pool.map(lambda j: bool(j[4]) and mutate_one(j[0], j[1], j[3], j[4]), jobs))
        survivors = [j for j, k in zip(jobs, killed, strict=True) if not k]
        share = len(survivors) / len(jobs) if jobs else 0.0
        worst = max(worst, share)
        report.append("%s: %d mutations, %d survived (%.0f %%)" % (folder, len(jobs), len(survivors), 100 * share))
        for module, line_no, name, new_line, tests in survivors:
            report.append("  survived %s:%d %s: %s%s" % (module.relative_to(ROOT), line_no, name, new_line.strip(),
                                                        "" if tests else " (no test imports the module)"))
    report.append("took %.0f s" % (time.monotonic() - started))
    REPORT.write_text("\n".join(report) + "\n")
    print("\n".join(report))
    return 0 if worst <= 0.10 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
