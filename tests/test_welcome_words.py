"""The small things a new user met (issue "welcome", item 6), each as the user sees it fixed."""

import pytest

from pegboard.commands.cli import main
from pegboard.commands.games import start_words
from pegboard.tui.words import mode_text


def test_ports_help_says_nothing_of_stopping_what_it_started(capsys):
    with pytest.raises(SystemExit):
        main(["ports", "--help"])
    out = capsys.readouterr().out
    assert "List the boards found" in out and "Ctrl-C" not in out and "started on the board" not in out


def test_the_status_names_the_show_that_runs():
    st = {"mode": "demo", "pegs": [1, 2], "empty_start": 1}
    assert mode_text(dict(st, show={"kind": "watch"}), 14).startswith("the solver's search running: ")
    assert mode_text(dict(st, show={"kind": "demo", "pegs": []}), 14).startswith("demo running: ")
    assert "demo or search" not in mode_text(st, 14)


def test_games_names_a_start_as_a_player_says_it():
    assert start_words(list(range(2, 16)), 15) == "hole 1 empty"
    assert start_words([h for h in range(1, 16) if h != 13], 15) == "hole 13 empty"
    assert start_words([2, 4, 5], 15) == "pegs 2,4,5"


def test_solve_says_what_it_wrote(cli, tmp_path):
    svg, gif = tmp_path / "s.svg", tmp_path / "s.gif"
    code, out, _ = cli("solve", "--empty", "1", "--svg", str(svg), "--gif", str(gif))
    assert code == 0 and svg.is_file() and gif.is_file()
    assert "wrote %s: the solution step by step (13 moves)" % svg in out
    assert "wrote %s: the solution animated (13 moves)" % gif in out
