"""The board's "watch the solver" named step by step on the PC: the board's reply to a step gives
only its number, so the same core search is run here from the same position (the board's watch
starts from the position it follows) and step N is read off it, with its move."""

from __future__ import annotations

from typing import Any, Iterator

from pegcore import search
from pegcore.geometry import Board

from pegboard.pictures.text import move_text


class WatchSteps:
    def __init__(self, rows: int, mask: int) -> None:
        self.rows, self.mask = rows, mask
        self.board = Board(rows)
        self._steps: Iterator[Any] = search.steps(self.board, mask)
        self._last: Any = None  # the latest (kind, jump, mask, count) read

    def _at(self, n: int) -> Any:
        if self._last is not None and self._last[3] > n:  # asked for an earlier step: from the start
            self._steps, self._last = search.steps(self.board, self.mask), None
        while self._last is None or (self._last[3] < n and self._last[0] in (search.TRY, search.BACK)):
            try:
                self._last = next(self._steps)
            except StopIteration:
                break
        return self._last

    def text(self, n: int) -> str:
        """"search step 66: tries 4 → 1 over 2", "… takes back …", or how the search ended."""
        kind, jump, _, count = self._at(n)
        b = self.board
        if count == n and kind in (search.TRY, search.BACK):
            move = move_text([b.jump_from[jump] + 1, b.jump_over[jump] + 1, b.jump_to[jump] + 1])
            return "search step %d: %s %s" % (n, "tries" if kind == search.TRY else "takes back", move)
        if kind == search.SOLVED:
            return "search step %d: solved, one peg left" % n
        return "search step %d: every line tried, no solution from here" % n
