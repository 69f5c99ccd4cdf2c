"""The errors every board-talking module shares: the board said no, did not answer, or is not there."""

from __future__ import annotations

from typing import Any


class BoardError(Exception):
    """The board answered with an error, or did not answer."""

    def __init__(self, message: str, code: str = "no_reply", reply: dict[str, Any] | None = None,
                 silent: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.reply = reply or {}
        self.silent = silent  # no_reply, and nothing at all came back on the link: maybe not the board's port


class NoBoard(BoardError):
    """No port to talk through: none found, it cannot be opened, or it went away for good."""
