"""Every `pegboard ...` command line in README.md works as written: its command's --help runs, the
real parser (commands/cli.py) takes its options, the lines that need no board (solve, hardware)
run with exit status 0 (1 only where the solver says no, as the README says), their output files
written into a temporary folder, and those that need a board, run with none to be found, exit
with 1 and say so.

The README's own notation, read here: `a | b | c` after `pegboard` lists commands (`pegboard state |
hint | stop`), `[...]` an optional part (both with and without it are checked), and an upper-case
word a value to give (FILE, H: a placeholder). A `# comment` ends a line."""

import argparse
import contextlib
import io
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.commands.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

OFFLINE = {"solve", "hardware"}  # need no board: run as written, exit status 0
# the one line where the solver says no (exit 1) for some starts: how many (the README: "one solution
# from each of the 18 solvable starts" of 28)
SOLVER_SAYS_NO = {"pegboard solve --rows 7 --empty all": 28 - 18}
# need a board: run as written with none to be found, exit status 1 and the message that says so
NEED_A_BOARD = {"state", "hint", "stop", "demo", "guide", "play", "setup", "challenge", "games", "review", "puzzle", "watch",
                "monitor", "mirror", "selftest", "ports", "roles", "sound"}
NOT_RUN = {"sim": "starts a simulated board", "run": "starts a simulated board (--sim)",
           "web": "serves the page until stopped, waiting for a board", "deploy": "writes to a CIRCUITPY drive"}
# a board's search that finds none: no serial ports (a board plugged into this machine is not
# touched) and the test's own runtime folder (no simulated board announced)
NO_SERIAL_PORTS = ("import sys, pegboard.link.ports as ports; ports._listing = lambda: []; "
                   "from pegboard.commands.cli import main; sys.exit(main())")
WRITES = {"-o", "--output", "--svg", "--gif", "--export", "--link"}  # options naming a file to write
PLACEHOLDERS = {"FILE": "solution.json", "H": "13", "F": "out.svg", "N": "1", "PATH": "/dev/ttyACM0", "G": "2"}


def fenced_blocks(text):
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)


def command_lines(text):
    """The `pegboard ...` lines of the fenced blocks, then the inline `pegboard ...` code spans of
    the prose (a span may break across lines), comments left off."""
    lines = []
    for block in fenced_blocks(text):
        for raw in block.splitlines():
            line = re.split(r"\s#", raw, maxsplit=1)[0].strip()
            if line.startswith("pegboard "):
                lines.append(line)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    lines += [" ".join(span.split()) for span in re.findall(r"`(pegboard [^`]+)`", prose)]
    return lines


def variants(line):
    """The command lines a README line stands for, as argument lists (without `pegboard`), each with
    where its standard output goes (a `> FILE`) or None."""
    commands = _subcommands(build_parser())
    parts = [p.strip() for p in line.split(" | ")]
    alternatives = [parts[0]] + ["pegboard " + p for p in parts[1:] if p.split()[0] in commands]
    out = []
    for alt in alternatives:  # (a `| other-program` is a pipe: only the pegboard part is checked)
        optional = re.findall(r"\[([^\]]*)\]", alt)
        for keep in itertools.product((False, True), repeat=len(optional)):
            text = alt
            for part, k in zip(optional, keep, strict=True):
                text = text.replace("[%s]" % part, part if k else "", 1)
            words = [PLACEHOLDERS.get(w, w) for w in shlex.split(text)]
            assert words[0] == "pegboard", line
            words, redirect = words[1:], None
            if ">" in words:
                at = words.index(">")
                words, redirect = words[:at], words[at + 1]
            out.append((words, redirect))
    return out


def _subcommands(parser):
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return found[0].choices if found else {}


def parse_problem(argv):
    """What the real parser says against these arguments, or None when it takes them."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
            build_parser().parse_args(argv)
    except SystemExit as e:
        if e.code:
            return said.getvalue().strip().splitlines()[-1] if said.getvalue().strip() else "exit %s" % e.code
    return None


def command_path(argv):
    """The command words of an argument list: ['hardware', 'plate'] of `hardware plate -o x.svg`."""
    parser, path = build_parser(), []
    for word in argv:
        subs = _subcommands(parser)
        if word not in subs:
            break
        parser = subs[word]
        path.append(word)
    return path


def problems(text):
    """Every README command line (in `text`) the parser refuses, with what it says."""
    found = []
    for line in command_lines(text):
        for argv, _ in variants(line):
            why = parse_problem(argv) if argv else "no command"
            if why:
                found.append("%s: %s" % (line, why))
    return found


LINES = list(dict.fromkeys(command_lines(README)))  # each once, in order


def test_the_readme_has_command_lines_to_check():
    assert len(LINES) >= 20
    assert "pegboard solve --empty 1" in LINES and "pegboard state | hint | stop" in LINES
    assert "pegboard run --sim" in LINES  # an inline span of the prose
    # a span broken across two lines is one command line
    assert command_lines("plays (`pegboard sim\n  --runtime chip`) and") == ["pegboard sim --runtime chip"]


def test_every_readme_command_line_is_taken_by_the_parser():
    assert problems(README) == []


def test_the_check_fails_on_an_option_or_command_that_does_not_exist():
    bad = "```\npegboard solve --empty 1 --bogus 3   # no such option\n```\n"
    assert len(problems(bad)) == 1 and "unrecognized arguments: --bogus" in problems(bad)[0]
    assert problems("Run `pegboard hardware plate --nope`.\n")
    assert problems("```\npegboard solv --empty 1\n```\n")  # no such command
    assert problems("```\npegboard state | hint | frobnicate\n```\n") == []  # not a command: a pipe
    assert problems("```\npegboard play [--finishing H]\n```\n")  # an optional part is checked too
    assert problems("```\npegboard hardware plate -o plate.svg\n```\n") == []


def test_every_readme_command_s_help_runs():
    paths = sorted({tuple(command_path(argv)) for line in LINES for argv, _ in variants(line)})
    assert ("hardware", "plate") in paths and ("solve",) in paths
    for path in paths:
        p = subprocess.run([sys.executable, "-m", "pegboard", *path, "--help"], capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0, (path, p.stderr)
        assert p.stdout.startswith("usage: pegboard %s" % " ".join(path)) and "examples:" in p.stdout, path


def _into(folder, argv, redirect):
    """The arguments with every output file moved into `folder`, and those files."""
    argv, files = list(argv), []
    for i, word in enumerate(argv[:-1]):
        if word in WRITES:
            argv[i + 1] = str(folder / os.path.basename(argv[i + 1]))
            files.append(Path(argv[i + 1]))
    if redirect:
        files.append(folder / os.path.basename(redirect))
    return argv, files


@pytest.mark.parametrize("line", [line for line in LINES if line.split()[1] in OFFLINE])
def test_readme_lines_that_need_no_board_run_as_written(line, tmp_path):
    for argv, redirect in variants(line):
        argv, files = _into(tmp_path, argv, redirect)
        p = subprocess.run([sys.executable, "-m", "pegboard", *argv], capture_output=True, text=True, timeout=120,
                           cwd=tmp_path)
        assert "Traceback" not in p.stderr, (line, p.stderr)
        assert p.stdout.strip() or files, line
        if line in SOLVER_SAYS_NO:  # 1: the solver said no for some starts, each named
            assert p.returncode == 1, (line, p.stderr)
            assert p.stderr.count("no solution from hole") == SOLVER_SAYS_NO[line], (line, p.stderr)
        else:
            assert p.returncode == 0, (line, p.returncode, p.stderr)
        missing = [str(f) for f in files if not f.exists() or not f.stat().st_size]
        assert not missing, (line, missing, p.stderr)


@pytest.mark.parametrize("line", [line for line in LINES if line.split()[1] in NEED_A_BOARD])
def test_readme_lines_that_need_a_board_say_none_was_found(line, tmp_path):
    (tmp_path / PLACEHOLDERS["FILE"]).write_text(json.dumps({"rows": 5, "empty": 1, "moves": [[4, 2, 1]]}))
    # the runtime folder (XDG_RUNTIME_DIR/pegboard) not in the working folder: `python -c` puts that on
    # sys.path, where an empty pegboard/ would be imported as a namespace package before the installed one
    (tmp_path / "run").mkdir()
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path / "run"))
    for argv, _ in variants(line):
        p = subprocess.run([sys.executable, "-c", NO_SERIAL_PORTS, *argv], capture_output=True, text=True,
                           timeout=60, cwd=tmp_path, env=env)
        assert p.returncode == 1 and "Traceback" not in p.stderr, (argv, p.returncode, p.stdout, p.stderr)
        if argv[0] == "ports":  # the listing of boards: none
            assert p.stdout == "no CircuitPython boards found, and no simulator running (try `pegboard sim`)\n"
        else:
            assert p.stderr.startswith("pegboard: no board found (looked at no serial ports at all, and for "
                                       "simulated boards in %s" % (tmp_path / "run" / "pegboard")), (argv, p.stderr)
            assert "start the simulated one (`pegboard sim`)" in p.stderr and p.stdout == "", argv


def test_every_readme_command_line_is_run_or_says_why_not():
    commands = {line.split()[1] for line in LINES}
    assert commands <= OFFLINE | NEED_A_BOARD | set(NOT_RUN), commands - OFFLINE - NEED_A_BOARD - set(NOT_RUN)
    assert set(SOLVER_SAYS_NO) <= set(LINES)


def test_readme_lines_that_write_files_are_run():
    # the README's file-writing lines are among those run above (hardware plate -o, solve --svg)
    writing = [line for line in LINES if line.split()[1] in OFFLINE and WRITES & set(line.split())]
    assert any(line.startswith("pegboard hardware plate -o") for line in writing)
    assert any("--svg" in line for line in writing)


def test_every_make_target_the_readme_names_exists():
    targets = set(re.findall(r"^([a-z]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    named = {line.split()[1] for block in fenced_blocks(README) for line in block.splitlines()
             if line.startswith("make ")}
    named |= {m for m in re.findall(r"`make ([a-z]+)", README)}
    assert named and named <= targets, named - targets
