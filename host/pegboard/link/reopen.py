"""The one way a link to a board comes back after its port or hub went away: closed, `on_lost`
told, opened again until it opens or `reconnect_for` runs out (NoBoard "disconnected"), then
`on_back` told. SerialLink (a pulled cable) and HubLink (a killed hub) both come back this way."""

from __future__ import annotations

import time
from typing import Callable, Protocol

from pegboard.link.errors import NoBoard


class Reopenable(Protocol):
    reconnect_for: float
    reconnects: int
    on_lost: Callable[[], None] | None
    on_back: Callable[[], None] | None

    def open(self) -> object: ...

    def close(self) -> None: ...


def reopen(link: Reopenable, gone: str, pause_s: float) -> None:
    """Wait for `link` to open again, trying every `pause_s`; `gone` says what went away, for the
    error when it does not come back."""
    link.close()
    if link.on_lost:
        link.on_lost()
    deadline = time.monotonic() + link.reconnect_for
    while True:
        try:
            link.open()
            break
        except NoBoard:
            if time.monotonic() > deadline:
                raise NoBoard("%s and did not come back within %.0f s" % (gone, link.reconnect_for),
                              "disconnected") from None
            time.sleep(pause_s)  # a device or a hub coming back: polled, nothing to wait on
    link.reconnects += 1
    if link.on_back:
        link.on_back()
