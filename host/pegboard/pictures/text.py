"""Text pictures of a board: pegs ●, empty holes ○, optional hole numbers and marks."""

from __future__ import annotations

from pegcore.geometry import Board

PEG = "●"
HOLE = "○"


def render_board(board: Board, mask: int, marks: dict[int, str] | None = None,
                 numbers: bool = False) -> str:
    """The triangle as text, one row per line. `marks` maps 1-based holes to a symbol that
    replaces the peg/hole glyph (e.g. to show the last jump); `numbers` prints hole numbers."""
    marks = marks or {}
    # cell pitch must be even so each row shifts by a whole number of columns
    sep = "  " if numbers else " "
    shift = 2 if numbers else 1
    lines = []
    hole = 1
    for r in range(board.rows):
        cells = []
        for _ in range(r + 1):
            if numbers:
                cell = str(hole).rjust(2)
            else:
                cell = marks.get(hole, PEG if mask >> (hole - 1) & 1 else HOLE)
            cells.append(cell)
            hole += 1
        pad = " " * ((board.rows - 1 - r) * shift)
        lines.append((pad + sep.join(cells)).rstrip())
    return "\n".join(lines)


def render_numbered(board: Board, mask: int, move: list[int] | None = None) -> str:
    """The triangle with each hole's symbol and number ("●4", "○12"), so a small picture still
    says which hole is which; `move` ([from, over, to]) marks where it landed ◇ and the holes it
    emptied ◌."""
    marks = {}
    if move:
        marks = {move[0]: "◌", move[1]: "◌", move[2]: "◇"}
    lines = []
    hole = 1
    for r in range(board.rows):
        cells = []
        for _ in range(r + 1):
            cells.append((marks.get(hole, PEG if mask >> (hole - 1) & 1 else HOLE) + str(hole)).ljust(3))
            hole += 1
        lines.append((" " * ((board.rows - 1 - r) * 2) + " ".join(cells)).rstrip())
    return "\n".join(lines)


def move_text(move: list[int]) -> str:
    """[from, over, to] -> "4 → 1 over 2"."""
    return "%d → %d over %d" % (move[0], move[2], move[1])
