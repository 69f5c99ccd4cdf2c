"""Raw pseudo-terminals: the simulator's data and control ports. POSIX only (pty, tty, imported
where a terminal is made): on Windows the simulator does not run, and `pegboard sim` and `run` say
so plainly (pegboard.commands.sim.NO_PTYS); the rest of the CLI runs there."""

from __future__ import annotations

import os


def raw_pty() -> tuple[int, int, str]:
    """A raw pseudo-terminal: (master fd, slave fd, slave path). Raw both ways, so bytes pass
    unchanged (no echo, no line editing, no CR/LF translation); the master is non-blocking, so
    the side that holds it never waits on a slow reader. POSIX only: Windows has neither module
    (`pegboard sim` says so before it gets here)."""
    import pty
    import tty

    master, slave = pty.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


def close_fds(*fds: int) -> None:
    """Close each fd that is open (>= 0); one already gone is no error at shutdown."""
    for fd in fds:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass
