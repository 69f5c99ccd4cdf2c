"""The command line's edges (issue ux, "The CLI"): every command's --help ends with examples that
work, output files are checked before the work starts, progress shows on a terminal and nothing is
added when stderr is piped, the SVG numbers its holes and explains its colours, and `pegboard run`
without a terminal says why it prints a demonstration."""

import argparse
import contextlib
import io
import os
import pty
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pegboard.commands.cli import EXAMPLES, build_parser, main

ROOT = Path(__file__).resolve().parent.parent
OFFLINE = ("solve", "hardware")  # examples that need no board: run


def _subparsers(parser):
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return found[0].choices if found else {}


def every_command(parser=None, path=()):
    """(words after `pegboard`, parser) of every command and subcommand (an alias once)."""
    parser = parser or build_parser()
    seen = set()
    for name, sub in _subparsers(parser).items():
        if id(sub) in seen:
            continue
        seen.add(id(sub))
        yield " ".join(path + (name,)), sub
        yield from every_command(sub, path + (name,))


def _example_argv(line):
    words = shlex.split(line)
    assert words[0] == "pegboard", line
    words, redirect = words[1:], None
    if ">" in words:
        at = words.index(">")
        words, redirect = words[:at], words[at + 1]
    return words, redirect


def _parses(argv):
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
            build_parser().parse_args(argv)
    except SystemExit as e:
        return not e.code, said.getvalue()
    return True, ""


# -- examples in every --help ---------------------------------------------------------------------

def test_every_command_and_subcommand_has_examples_in_its_help():
    names = dict(every_command())
    assert {"solve", "hardware", "hardware bom", "hardware plate", "run", "sim"} <= set(names)
    assert set(EXAMPLES) == set(names), "EXAMPLES and the commands differ"
    for name, parser in names.items():
        text = parser.format_help()
        assert "\nexamples:\n" in text and "exit status: 0" in text, name
        for line in EXAMPLES[name]:
            assert "\n  %s\n" % line in text + "\n", (name, line)  # kept whole, however long


def test_example_lines_are_kept_whole_in_a_narrow_terminal():
    env = dict(os.environ, COLUMNS="40")
    p = subprocess.run([sys.executable, "-m", "pegboard", "solve", "--help"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 0
    assert "\n  pegboard solve --rows 6 --empty 3 --svg solution.svg --gif solution.gif\n" in p.stdout
    body = p.stdout.split("\n\n", 1)[1].split("examples:")[0]  # after the usage, up to the examples
    assert max(len(line) for line in body.splitlines()) <= 40  # still wrapped to the terminal


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_is_taken_by_the_parser(name):
    for line in EXAMPLES[name]:
        argv, _ = _example_argv(line)
        ok, said = _parses(argv)
        assert ok, (line, said)
        assert argv[0] in (name.split()[0], "solve"), line  # about its command (or making its file)


@pytest.mark.timeout(1800)  # `hardware pcb` routes the board: minutes on a busy machine
def test_the_examples_that_need_no_board_run(tmp_path, monkeypatch, capsys):
    (tmp_path / "hardware").symlink_to(ROOT / "hardware")  # the board files the examples name
    monkeypatch.chdir(tmp_path)
    lines = list(dict.fromkeys(line for lines in EXAMPLES.values() for line in lines
                               if line.split()[1] in OFFLINE))
    assert len(lines) >= 10
    for line in lines:
        argv, redirect = _example_argv(line)
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0 and "Traceback" not in err, (line, err)
        if redirect:
            Path(redirect).write_text(out)
        for i, word in enumerate(argv[:-1]):
            if word in ("-o", "--svg", "--gif"):
                assert (tmp_path / argv[i + 1]).stat().st_size > 0, line
        assert out.strip() or "-o" in argv or redirect, line
    # the solution file the demo, guide and setup examples use is a good one
    from pegboard.solve.solution_file import load_solution

    assert load_solution(str(tmp_path / "solution.json"))


# -- output files checked before the work --------------------------------------------------------

@pytest.mark.parametrize("argv,needle", [
    (["hardware", "plate", "-o", "{tmp}/missing/plate.svg"], "there is no folder {tmp}/missing"),
    (["hardware", "plate", "-o", "{tmp}"], "that is a folder"),
    (["hardware", "section", "-o", "{tmp}/section.png"], "must end in .svg"),
    (["hardware", "box", "-o", "{tmp}/missing/box.svg"], "there is no folder"),
    (["hardware", "bom", "-o", "{tmp}/missing/parts.txt"], "there is no folder"),
    (["hardware", "schematic", "hardware/boards/pico-gpio.toml", "-o", "{tmp}/missing/s.svg"], "there is no folder"),
    (["solve", "--empty", "1", "--svg", "{tmp}"], "that is a folder"),
    (["solve", "--empty", "1", "--gif", "{tmp}/missing/s.gif"], "there is no folder"),
    (["solve", "--rows", "8", "--empty", "33", "--svg", "{tmp}/nowhere/s.svg"], "there is no folder"),
])
def test_an_output_file_is_refused_before_the_work(argv, needle, tmp_path, cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    started = time.monotonic()
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and needle.replace("{tmp}", str(tmp_path)) in err
    assert time.monotonic() - started < 5  # the 8-row search (~30 s) never began
    assert not list(tmp_path.rglob("*.*"))


def test_sim_refuses_a_link_in_a_missing_folder_before_it_starts(tmp_path):
    p = subprocess.run([sys.executable, "-m", "pegboard", "sim", "--runtime", "thumb", "--link",
                        str(tmp_path / "missing" / "port")], capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)))
    assert p.returncode == 2 and "--link" in p.stderr and "there is no folder" in p.stderr
    assert "data:" not in p.stdout


def test_make_table_refuses_a_missing_folder_before_building(tmp_path, capsys):
    from pegboard.solve.tablegen import main as tablegen

    assert tablegen([str(tmp_path / "no" / "h.bin"), str(tmp_path / "f.bin")]) == 2
    assert "the folder %s is missing" % (tmp_path / "no") in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


# -- progress: on a terminal only ------------------------------------------------------------------

def _on_a_terminal(argv, until, timeout=60):
    """Run pegboard with stderr a pseudo-terminal until `until` shows on it; then Ctrl-C. What it
    wrote there."""
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "pegboard", *argv], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    end = time.monotonic() + timeout
    while until not in seen and time.monotonic() < end:
        try:
            seen += os.read(master, 4096)
        except OSError:
            break
    p.send_signal(signal.SIGINT)
    p.wait(timeout=30)
    os.close(master)
    return seen


def test_a_long_single_start_shows_the_positions_searched_on_a_terminal():
    # one start on 8 rows can take half a minute: the bar counts the positions searched
    seen = _on_a_terminal(["solve", "--rows", "8", "--empty", "3"], b"positions searched")
    assert re.search(rb"solving \[\.+\] 0/1  hole 3: [\d,]+ positions searched", seen), seen[-300:]


def test_nothing_is_added_when_stderr_is_piped():
    p = subprocess.run([sys.executable, "-m", "pegboard", "solve", "--rows", "8", "--empty", "3", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == "" and '"empty": 3' in p.stdout


def test_working_says_what_runs_on_a_terminal_and_nothing_on_a_pipe():
    from pegboard.progress import working

    master, slave = pty.openpty()
    with os.fdopen(slave, "w") as tty:
        with working("building the thing (first time only, ~30 s)", stream=tty, every=0.05):
            time.sleep(0.2)
        with pytest.raises(RuntimeError), working("building another", stream=tty):
            raise RuntimeError("no compiler")
    said = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(master, 4096):
            said += chunk
    os.close(master)
    text = said.decode()
    assert text.startswith("\rbuilding the thing (first time only, ~30 s)... ")
    assert re.search(r"\.\.\. \d s", text) and "... done (0 s)\r\n" in text  # the seconds ticked
    assert "building another... failed (0 s)" in text
    piped = io.StringIO()
    with working("building the thing", stream=piped):
        pass
    assert piped.getvalue() == ""


def _stderr_a_terminal(monkeypatch):
    master, slave = pty.openpty()
    tty = os.fdopen(slave, "w")
    monkeypatch.setattr(sys, "stderr", tty)
    return master, tty


def _read_all(master):
    said = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(master, 4096):
            said += chunk
            if b"\n" in chunk:
                break
    return said.decode()


def test_the_chip_runtimes_first_build_says_so_on_a_terminal(monkeypatch, tmp_path):
    # the real build takes ~30 s: here its first step fails at once, after the line was shown
    from pegboard.sim import chipvm, thumbvm

    def offline(dest):
        raise chipvm.Unavailable("offline")

    monkeypatch.setattr(chipvm, "cache_dir", lambda: tmp_path / "chipvm")
    monkeypatch.setattr(chipvm, "_compiler", lambda want: "gcc")
    monkeypatch.setattr(chipvm, "fetch_source", offline)
    monkeypatch.delenv("PEGBOARD_CHIPVM", raising=False)
    monkeypatch.setattr(thumbvm, "_tools", lambda: (tmp_path, tmp_path))
    for build, words in ((chipvm.build, "building the chip runtime (first time only, ~20 s)... failed"),
                         (thumbvm.build, "building the emulated chip's runtime (first time only, ~30 s)... failed")):
        master, tty = _stderr_a_terminal(monkeypatch)
        with pytest.raises((chipvm.Unavailable, thumbvm.Unavailable)):
            build()
        tty.close()
        assert words in _read_all(master)
        os.close(master)
        piped = io.StringIO()  # not a terminal: nothing
        monkeypatch.setattr(sys, "stderr", piped)
        with pytest.raises((chipvm.Unavailable, thumbvm.Unavailable)):
            build()
        assert piped.getvalue() == ""


# -- the SVG: hole numbers and a legend -------------------------------------------------------------

@pytest.mark.parametrize("rows,empty", [(5, 5), (6, 3)])
def test_the_svg_numbers_every_hole_and_has_a_legend(rows, empty, tmp_path, cli):
    path = tmp_path / "s.svg"
    code, _, _ = cli("solve", "--rows", str(rows), "--empty", str(empty), "--svg", str(path))
    root = ET.parse(path).getroot()  # valid XML
    holes = rows * (rows + 1) // 2
    texts = [e for e in root.iter() if e.tag.endswith("text")]
    numbers = [e.text for e in texts if e.get("class") == "hole-number"]
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    assert code == 0 and len(circles) == (holes - 1) * holes  # a board per step: start + holes - 2 jumps
    assert numbers == [str(h) for h in range(1, holes + 1)] * (holes - 1)
    legend = next(e for e in root.iter() if e.get("class") == "legend")
    words = [e.text for e in legend.iter() if e.tag.endswith("text")]
    assert words == ["a peg", "empty", "it landed", "emptied"]
    swatches = [e.get("fill") for e in legend.iter() if e.tag.endswith("rect")]
    assert set(swatches) == {c.get("fill") for c in circles}  # every colour a hole has is explained


# -- `pegboard run` (`make run`) without a terminal ------------------------------------------------

def test_run_without_a_terminal_says_why_it_prints_a_demonstration(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "pegboard", "run", "--sim"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)))
    try:
        first = p.stderr.readline()
        picture = p.stdout.readline()  # the demonstration begins: the board's top row
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    assert first == ("pegboard: no terminal: printing a demonstration instead of the interactive board "
                     "(run it in a terminal to play)\n")
    assert picture.strip() == "○" and "Traceback" not in err
