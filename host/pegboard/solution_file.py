"""Solution files: {"rows": 5, "empty": 4, "moves": [[4, 2, 1], ...]}, checked completely."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pegcore.geometry import Board, start_mask
from pegcore.moves import MoveError, validate_moves


class SolutionError(ValueError):
    pass


# A solution file is a few hundred bytes and 3 levels deep ({"moves": [[4, 2, 1], ...]}); the limits
# leave room for pretty-printing and keep a hostile file from costing memory or a RecursionError.
MAX_BYTES = 64 * 1024
MAX_DEPTH = 8


def load_solution(path: str | Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise SolutionError("cannot read %s: %s" % (path, e.strerror or e)) from None
    if len(raw) > MAX_BYTES:
        raise SolutionError("%s is over %d KB: a solution file is a few hundred bytes" % (path, MAX_BYTES // 1024))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SolutionError("%s is not UTF-8 text" % path) from None
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise SolutionError("%s is nested %d levels deep (at most %d): a solution file is "
                            '{"rows": 5, "empty": 4, "moves": [[4, 2, 1], ...]}' % (path, depth, MAX_DEPTH))
    try:
        sol = json.loads(text)
    except ValueError as e:
        raise SolutionError("%s is not JSON: %s" % (path, e)) from None
    return check_solution(sol, str(path))


def nesting(text: str) -> int:
    """How deep the JSON text's brackets nest (outside strings), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check_solution(sol: Any, where: str = "solution") -> dict[str, Any]:
    if not isinstance(sol, dict):
        raise SolutionError("%s: expected an object with rows, empty and moves" % where)
    rows = sol.get("rows", 5)
    try:
        board = Board(rows)
    except ValueError as e:
        raise SolutionError("%s: %s" % (where, e)) from None
    empty = sol.get("empty")
    try:
        board.check_hole(empty)
    except ValueError as e:
        raise SolutionError("%s: empty: %s" % (where, e)) from None
    moves = sol.get("moves")
    if not isinstance(moves, list) or not moves:
        raise SolutionError("%s: moves must be a non-empty list of [from, over, to]" % where)
    try:
        validate_moves(board, start_mask(board, empty), moves)
    except MoveError as e:
        raise SolutionError("%s: move %d %s: %s" % (where, e.step + 1, moves[e.step], e.why)) from None
    return {"rows": rows, "empty": empty, "moves": moves}


def save_solution(path: str | Path, rows: int, empty: int, moves: list[list[int]]) -> None:
    Path(path).write_text(json.dumps({"rows": rows, "empty": empty, "moves": moves}) + "\n", encoding="utf-8")
