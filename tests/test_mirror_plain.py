"""`pegboard mirror` (and `make run`) without a terminal: the board printed as text after each
change, the end of its start-up included, which an empty board makes without an event."""

from __future__ import annotations

import threading

from pegboard.commands.ui import _plain


class StartingBoard:
    """A board client whose board is starting for its first `starting` state replies, then in free
    play; it sends no event (an empty board's start-up ends silently). `polls` polls end the test."""

    def __init__(self, starting: int, polls: int, stop: threading.Event) -> None:
        self.starting, self.polls, self.stop = starting, polls, stop

    def request(self, cmd: str) -> dict:
        assert cmd == "state"
        self.starting -= 1
        mode = "starting" if self.starting >= 0 else "setup"
        return {"ok": True, "mode": mode, "pegs": [], "empty_start": None, "moves": [], "rows": 5, "holes": 15,
                "position": [], "seq": 1}

    def poll(self, timeout: float) -> list:
        self.polls -= 1
        if self.polls <= 0:
            self.stop.set()
        return []


def test_the_end_of_an_empty_boards_start_up_is_printed_though_no_event_says_so(capsys):
    stop = threading.Event()
    assert _plain(StartingBoard(3, 10, stop), stop=stop) == 0  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert out.count("the board is starting") == 1 and out.count("free play") == 1, out
