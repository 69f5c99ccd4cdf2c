"""`make mutants`: the project's own mutation testing. Each mutation is one small fault put into one
line of a copy of the checkout (a comparison turned, `and` for `or`, a `not` dropped, a constant
nudged, True for False); the tests that import the mutated module, and its folder's own app-level
test files (FOLDER_TESTS), run against the copy: first those that run the mutated line (coverage,
measured once on the unmutated copy), then, if they pass, the rest (a line may run only in a program a
test starts); a mutation no test notices is a survivor. Written to mutants-report.txt: each folder's count and its
survivors (file:line, the change). The working tree is never touched.

Usage: python tests/mutants.py [FOLDER ...] [--every N] [--jobs N]
  FOLDER: firmware/pegcore, firmware/pegfw, host/pegboard/link, host/pegboard/deploy, host/pegboard/web
  (all five by default); --every N tries every Nth candidate line of each file (default 1: all)."""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("firmware/pegcore", "firmware/pegfw", "host/pegboard/link", "host/pegboard/deploy", "host/pegboard/web")
REPORT = ROOT / "mutants-report.txt"
# whole-board runs (a simulated board each, a minute or more a file): left to `make test`; a mutation
# only they would notice is counted a survivor, so the share errs high
LEFT_OUT: list[str] = []  # the test files left out of this run, and why
SLOW_FILE_S = 60  # a test file slower than this unmutated is left out too (said on stderr)
# the folder's own app-level test files, run after those that import the module: a fault there is
# seen in what a user gets (a deploy's files, a game's log), not only through the module's own name
FOLDER_TESTS = {"firmware/pegcore": ("test_core_", "test_faults_core"), "firmware/pegfw": ("test_fw_", "test_faults_store", "test_senses.py", "test_peg_colours", "test_roles_from_state"),
                "host/pegboard/link": ("test_link_", "test_client_link", "test_faults_link"),
                "host/pegboard/deploy": ("test_deploy", "test_faults_deploy", "test_guard_drive"),
                "host/pegboard/web": ("test_faults_web", "test_faults_bridge", "test_faults_page_files", "test_page_twins")}
SLOW_TESTS = ("test_e2e_", "test_soak", "test_web_", "test_tui_tmux", "test_pcb", "test_rp2040_", "test_bench_",
              "test_readme_", "test_chipvm", "test_thumbvm", "test_micropython_")

# token -> (name, replacement): a line's first token that has one is changed; strings, comments and
# docstrings are not code and are never touched (Python's own tokenizer tells them apart)
SWAPS = {"<=": "<", ">=": ">", "<": "<=", ">": ">=", "==": "!=", "!=": "==", "and": "or", "or": "and",
         "True": "False", "False": "True", "+": "-", "-": "+", "not": ""}
# TYPE_CHECKING = False is mypy's constant: True imports typing, the same program on CPython; only the chip
# runtimes (left out: SLOW_TESTS) would notice, so it is no candidate
SKIP_LINES = ("import ", "from ", "assert ", "raise ", "print(", "def ", "class ", "@", "TYPE_CHECKING = ")


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


def folder_tests(folder: str) -> list[str]:
    """The folder's own app-level test files (FOLDER_TESTS)."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py")
                  if p.name.startswith(FOLDER_TESTS.get(folder, ())))


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


class Worker:
    """One copy of the checkout, mutated a line at a time and put back after each run."""

    def __init__(self) -> None:
        self.copy = Path(tempfile.mkdtemp(prefix="pegboard-mutants-"))
        self.links = copy_checkout(self.copy)

    def run(self, tests: list[str], timeout_s: float, coverage_file: Path | None = None) -> tuple[bool, float]:
        """(whether the tests failed, seconds taken); a run over its time counts as a failure. With
        `coverage_file`, the lines the tests ran (in this process: not in programs they start) are
        written there."""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(self.copy / "host"), str(self.links)]))
        started = time.monotonic()
        measure = [] if coverage_file is None else ["-m", "coverage", "run", "--data-file", str(coverage_file)]
        # a session of its own: on a time-out the tests and every program they started end with it
        p = subprocess.Popen([sys.executable, *measure, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                              "-o", "addopts=", "-m", "not soak", *tests], cwd=self.copy, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            code = p.wait(timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return True, timeout_s  # a mutation that hangs the tests is noticed
        return code != 0, time.monotonic() - started

    def mutant(self, module: Path, line_no: int, new_line: str, tests: list[str], timeout_s: float) -> bool:
        """True when the tests notice the mutated line (the mutation is killed)."""
        target = self.copy / module.relative_to(ROOT)
        original = target.read_text()
        lines = original.splitlines(keepends=True)
        ending = "\n" if lines[line_no - 1].endswith("\n") else ""
        lines[line_no - 1] = new_line + ending
        target.write_text("".join(lines))
        try:
            return self.run(tests, timeout_s)[0]
        finally:
            target.write_text(original)

    def close(self) -> None:
        shutil.rmtree(self.copy, ignore_errors=True)


Covered = dict[str, dict[str, set[int]]]  # test file -> module (relative path) -> the lines it ran


def ran_lines(data_file: Path, copy: Path) -> dict[str, set[int]]:
    """The lines of the checkout's own modules a coverage data file holds, by path in the checkout."""
    import coverage

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    out: dict[str, set[int]] = {}
    for name in data.measured_files():
        try:
            rel = Path(os.path.realpath(name)).relative_to(os.path.realpath(copy)).as_posix()
        except ValueError:
            continue  # the standard library's, a dependency's
        out[rel] = set(data.lines(name) or ())
    return out


def statement_lines(path: Path) -> dict[int, range]:
    """Each line of a module -> the lines of the simple statement, or compound statement's header, it is
    part of (a condition spread over lines runs as any one of them)."""
    import ast

    spans: dict[int, range] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        end = body[0].lineno - 1 if isinstance(body, list) and body and isinstance(body[0], ast.stmt) \
            else (node.end_lineno or node.lineno)
        lines = range(node.lineno, max(end, node.lineno) + 1)
        for n in lines:
            if n not in spans or len(lines) < len(spans[n]):
                spans[n] = lines
    return spans


def baseline(pool_workers: queue.Queue[Worker], files: list[str]) -> tuple[dict[str, float], Covered]:
    """Each test file's time on the unmutated copy (under coverage, which slows it) and the lines it
    runs; a file that fails unmutated is left out (it would count every mutation as killed)."""
    covered: Covered = {}

    def one(f: str) -> tuple[str, bool, float]:
        w = pool_workers.get()
        try:
            data = w.copy / (".coverage-" + Path(f).stem)
            failed, took = w.run([f], SLOW_FILE_S * 2, data)
            if not failed and data.exists():
                covered[f] = ran_lines(data, w.copy)
        finally:
            pool_workers.put(w)
        return f, failed, took

    with ThreadPoolExecutor(pool_workers.qsize()) as pool:
        results = list(pool.map(one, files))
    for f, failed, took in results:
        if took > SLOW_FILE_S or failed:
            LEFT_OUT.append("%s (%s)" % (f, "over %d s" % SLOW_FILE_S if took > SLOW_FILE_S else "fails unmutated"))
            print("mutants: left out " + LEFT_OUT[-1], file=sys.stderr)
    return {f: took for f, failed, took in results if not failed and took <= SLOW_FILE_S}, covered


def running(tests: list[str], covered: Covered, rel: str, lines: range) -> list[str]:
    """Those of `tests` that ran any of `lines` of module `rel`; all of them when none did in its own
    process (the line may run only in a program a test starts, a simulated board's)."""
    mine = [t for t in tests if any(n in covered.get(t, {}).get(rel, ()) for n in lines)]
    return mine or tests


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", default=list(FOLDERS))
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    started = time.monotonic()
    workers: queue.Queue[Worker] = queue.Queue()
    for _ in range(args.jobs):
        workers.put(Worker())
    jobs = []
    for folder in args.folders:
        for module in sorted((ROOT / folder).rglob("*.py")):
            tests = [t for t in sorted(set(tests_for(module)) | set(folder_tests(folder)))
                     if not Path(t).name.startswith(SLOW_TESTS)]
            for line_no, name, new_line in candidates(module, args.every):
                jobs.append((folder, module, line_no, name, new_line, tests))
    times, covered = baseline(workers, sorted({t for j in jobs for t in j[5]}))
    spans = {m: statement_lines(m) for m in {j[1] for j in jobs}}

    def one(job: tuple) -> bool:
        tests = sorted((t for t in job[5] if t in times), key=times.__getitem__)  # the quick ones first
        if not tests:
            return False
        # only the files that run the line (coverage, at the baseline): one that never runs it cannot notice it
        rel = job[1].relative_to(ROOT).as_posix()
        first = running(tests, covered, rel, spans[job[1]].get(job[2], range(job[2], job[2] + 1)))
        rest = [t for t in tests if t not in first]
        w = workers.get()
        try:
            killed = w.mutant(job[1], job[2], job[4], first, 30 + 4 * sum(times[t] for t in first))
            if not killed and rest:
                # the line may run only in a program a test starts (a hub, a simulated board): the rest
                # try it before it counts as a survivor
                killed = w.mutant(job[1], job[2], job[4], rest, 30 + 4 * sum(times[t] for t in rest))
        finally:
            workers.put(w)
        print("mutants: %s:%d %s: %s" % (job[1].relative_to(ROOT), job[2], job[3], "killed" if killed else "SURVIVED"),
              file=sys.stderr, flush=True)
        return killed

    with ThreadPoolExecutor(args.jobs) as pool:
        killed = list(pool.map(one, jobs))
    while not workers.empty():
        workers.get().close()
    report = ["mutants: %s; every %d candidate line; %d at once; the tests that import each module and the folder's own (those that run the line first), but not %s"
              % (", ".join(args.folders), args.every, args.jobs, ", ".join(n + "*" for n in SLOW_TESTS))]
    report.append("test files left out: " + (", ".join(LEFT_OUT) or "none"))
    worst = 0.0
    for folder in args.folders:
        mine = [(j, k) for j, k in zip(jobs, killed, strict=True) if j[0] == folder]
        survivors = [j for j, k in mine if not k]
        share = len(survivors) / len(mine) if mine else 0.0
        worst = max(worst, share)
        report.append("%s: %d mutations, %d survived (%.0f %%)" % (folder, len(mine), len(survivors), 100 * share))
        for _, module, line_no, name, new_line, tests in survivors:
            report.append("  survived %s:%d %s: %s%s" % (module.relative_to(ROOT), line_no, name, new_line.strip(),
                                                        "" if tests else " (no test imports the module)"))
    report.append("took %.0f s" % (time.monotonic() - started))
    REPORT.write_text("\n".join(report) + "\n")
    print("\n".join(report))
    return 0 if worst <= 0.10 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
