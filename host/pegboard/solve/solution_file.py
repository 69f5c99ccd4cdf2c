"""Solution files: {"rows": 5, "empty": 4, "moves": [[4, 2, 1], ...]}, or with "start": [holes]
(the pegs of a hand-set start) instead of "empty"; checked completely."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pegcore.geometry import Board, start_mask
from pegcore.moves import MoveError, validate_moves
from pegcore.rules import holes_of

from pegboard.regular_file import FileRefused, read_regular


class SolutionError(ValueError):
    pass


# A solution file is a few hundred bytes and 3 levels deep ({"moves": [[4, 2, 1], ...]}); the limits
# leave room for pretty-printing and keep a hostile file from costing memory or a RecursionError.
MAX_BYTES = 64 * 1024
MAX_DEPTH = 8


def load_solution(path: str | Path) -> dict[str, Any]:
    try:  # a regular file only: a FIFO would block here, /dev/zero never end
        raw = read_regular(Path(path), MAX_BYTES)
    except FileRefused as e:
        raise SolutionError("%s: a solution file is a few hundred bytes" % e) from None  # as the page says it
    except OSError as e:
        raise SolutionError("cannot read %s: %s" % (path, e.strerror or e)) from None
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
    empty, start = sol.get("empty"), sol.get("start")
    if (empty is None) == (start is None):
        raise SolutionError("%s: give the start as empty (one hole) or start (the holes with pegs), one of them"
                            % where)
    if start is not None:
        mask = _start_mask(board, start, where)
        gap = board.full & ~mask
        if not gap & (gap - 1):  # a full board less one: the same as empty
            empty = holes_of(gap)[0] if gap else None
    else:
        try:
            board.check_hole(empty)
        except ValueError as e:
            raise SolutionError("%s: empty: %s" % (where, e)) from None
        mask = start_mask(board, empty)
    moves = sol.get("moves")
    if not isinstance(moves, list) or not moves:
        raise SolutionError("%s: moves must be a non-empty list of [from, over, to]" % where)
    try:
        validate_moves(board, mask, moves)
    except MoveError as e:
        raise SolutionError("%s: move %d %s: %s" % (where, e.step + 1, moves[e.step], e.why)) from None
    return {"rows": rows, "empty": empty, "start": holes_of(mask), "moves": moves}


def _start_mask(board: Board, start: Any, where: str) -> int:
    if not isinstance(start, list) or not start:
        raise SolutionError("%s: start must be a non-empty list of the holes with pegs" % where)
    mask = 0
    for h in start:
        try:
            board.check_hole(h)
        except ValueError as e:
            raise SolutionError("%s: start: %s" % (where, e)) from None
        if mask >> (h - 1) & 1:
            raise SolutionError("%s: start: hole %d is listed twice" % (where, h))
        mask |= 1 << (h - 1)
    return mask
