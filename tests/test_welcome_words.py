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


def test_the_gif_writes_each_move_with_an_arrow_as_the_svg_does(tmp_path, monkeypatch):
    """Pillow's own font has no "→": the GIF draws it between "1. 4" and "1 over 2", never "->"."""
    pytest.importorskip("PIL")
    from PIL import ImageDraw

    from pegcore.geometry import Board, start_mask
    from pegboard.pictures.svg import solution_gif

    drawn = []
    text, polygon = ImageDraw.ImageDraw.text, ImageDraw.ImageDraw.polygon
    monkeypatch.setattr(ImageDraw.ImageDraw, "text",
                        lambda self, xy, t, *a, **k: drawn.append(("text", xy, t)) or text(self, xy, t, *a, **k))
    monkeypatch.setattr(ImageDraw.ImageDraw, "polygon",
                        lambda self, xy, *a, **k: drawn.append(("arrow", xy, None)) or polygon(self, xy, *a, **k))
    b = Board(5)
    jump = [j for j in range(len(b.jump_from)) if (b.jump_from[j], b.jump_over[j], b.jump_to[j]) == (3, 1, 0)][0]
    solution_gif(b, start_mask(b, 1), [jump], str(tmp_path / "one.gif"))
    texts = [t for kind, _, t in drawn if kind == "text"]
    assert not any("->" in t for t in texts), texts
    assert "start: hole 1 empty" in texts
    i = [k for k, d in enumerate(drawn) if d[2] == "1. 4"][0]  # the move 4 → 1 over 2, in three parts
    (_, (x_before, _), _), (kind, head, _), (_, (x_after, _), after) = drawn[i:i + 3]
    assert kind == "arrow" and after == "1 over 2"
    tip = max(p[0] for p in head)
    assert x_before < min(p[0] for p in head) < tip < x_after  # pointing right, between the holes' numbers
