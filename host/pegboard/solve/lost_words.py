"""Why a position cannot be won, in plain words: pegcore.lost_reason's proof as one short sentence
with the holes numbered 1..N, for `pegboard solve`, `hint`, `state` and the TUI's log."""

from __future__ import annotations

from typing import Any

from pegcore import lost_reason as L
from pegcore.geometry import MAX_ROWS, MIN_ROWS, Board
from pegcore.rules import mask_of


def _list(holes: list[int], word: str = "and") -> str:
    """[3] -> "3"; [3, 12] -> "3 and 12"; [1, 4, 9] -> "1, 4 and 9"."""
    text = [str(h) for h in holes]
    return text[0] if len(text) == 1 else "%s %s %s" % (", ".join(text[:-1]), word, text[-1])


def _pegs(holes: list[int]) -> str:
    return ("peg %s" if len(holes) == 1 else "pegs %s") % _list(holes)


def _in_holes(holes: list[int]) -> str:
    return ("hole %s" if len(holes) == 1 else "holes %s") % _list(holes, "or")


def reason(board: Board, mask: int, finish: int | None = None) -> tuple[str, list[int]] | None:
    """pegcore.lost_reason.reason: (code, 1-based holes) or None."""
    got = L.reason(board, mask, finish)
    return None if got is None else (got[0], list(got[1]))


def lost_words(board: Board, mask: int, finish: int | None = None) -> str | None:
    """Why one peg (in hole `finish`, or anywhere) cannot be left from the pegs of `mask`, in a
    sentence; None when there is no simple reason (or the position can be won)."""
    got = reason(board, mask, finish)
    return None if got is None else words(board, mask, finish, got[0], got[1])


def words(board: Board, mask: int, finish: int | None, code: str, holes: list[int]) -> str:
    """The sentence for a reason (code, holes) of the pegs of `mask`."""
    if code == L.NO_MOVE:
        if not holes:
            return "the board is empty"
        if len(holes) == 1:
            return "the last peg is in hole %d, not %d" % (holes[0], finish or 0)
        return "no jump is left"
    if code == L.ISOLATED:
        if len(holes) == 1:
            return "peg %d can never jump or be jumped: it stays, and so does one of the others (a jump keeps " \
                   "the peg that jumps)" % holes[0]
        return "%s can never jump or be jumped: they stay to the end" % _pegs(holes)
    if code == L.APART:
        return "%s can never meet the other pegs: no jump can ever bring them together, so each side keeps a peg" \
            % _pegs(holes)
    if code == L.COLOUR:
        rule = "colour parity: jumps keep the parities of the three colour classes (colour = row + column mod 3)"
        if not holes:
            return "%s, and no single peg has these" % rule
        return "%s; these allow one last peg only in %s" % (rule, _in_holes(holes))
    if code == L.OUT_OF_REACH:
        if finish is not None:
            return "no peg can ever get to hole %d" % finish
        return "colour parity allows one last peg only in %s, and no peg can ever get %s" \
            % (_in_holes(holes), "there" if len(holes) == 1 else "to any of them")
    if code == L.PAGODA:
        rule = "a pagoda count: with weights on the holes such that no jump makes the pegs' total heavier"
        if len(holes) == 1:
            w = L.pagoda_for(board, mask, holes[0])
            if w is not None:
                return "%s, these pegs weigh %d and one peg in hole %d would weigh %d" \
                    % (rule, L.weight(w, mask), holes[0], w[holes[0] - 1])
        return "%s (one set of weights for each hole the last peg could still be in: %s), these pegs weigh " \
               "less than one peg there" % (rule, _list(holes))
    return code


def reason_json(board: Board, mask: int, finish: int | None = None) -> dict[str, Any] | None:
    """{"code", "holes", "text"} for JSON output, or None."""
    got = reason(board, mask, finish)
    if got is None:
        return None
    return {"code": got[0], "holes": got[1], "text": words(board, mask, finish, got[0], got[1])}


def board_words(pegs: list[int], holes: int, finish: int | None = None) -> str | None:
    """lost_words for a position as a board reports it: its pegs (1-based holes) on a board of
    `holes` holes (None for a size pegcore does not know)."""
    rows = next((r for r in range(MIN_ROWS, MAX_ROWS + 1) if r * (r + 1) // 2 == holes), None)
    if rows is None:
        return None
    board = Board(rows)
    if any(not isinstance(h, int) or not 1 <= h <= board.holes for h in pegs) or \
            (finish is not None and not 1 <= finish <= board.holes):
        return None
    return lost_words(board, mask_of(pegs), finish)
