"""Why a serial port would not open, in words that say what to do, on each system.

pyserial reports a failed open as SerialException("could not open port X: [Errno N] ...") on
POSIX, with "Could not exclusively lock port" when another program holds it (exclusive=True),
and as SerialException("could not open port 'COM3': PermissionError(13, 'Access is denied.',
None, 5)") on Windows, where a port held by another program gives exactly that (Windows opens a
COM port for one program at a time)."""

from __future__ import annotations

import errno
import os
import sys

BUSY_WORDS = ("exclusively lock", "Resource temporarily unavailable", "Device or resource busy", "Resource busy")


def is_busy(text: str, platform: str = sys.platform) -> bool:
    if any(w in text for w in BUSY_WORDS) or "[Errno %d]" % errno.EBUSY in text:
        return True
    return platform == "win32" and ("Access is denied" in text or "PermissionError(13" in text)


def is_denied(text: str, platform: str = sys.platform) -> bool:
    return platform != "win32" and ("Permission denied" in text or "[Errno %d]" % errno.EACCES in text)


def holders(path: str) -> list[str]:
    """The programs that have `path` open, as "name (pid N)" (Linux: from /proc; elsewhere: none known)."""
    if not sys.platform.startswith("linux") or not os.path.exists(path):
        return []
    real = os.path.realpath(path)
    found = []
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []
    for pid in pids:
        if int(pid) == os.getpid():
            continue
        try:
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError:
            continue  # another user's process, or gone
        for fd in fds:
            try:
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == real:
                    with open("/proc/%s/comm" % pid) as f:
                        found.append("%s (pid %s)" % (f.read().strip(), pid))
                    break
            except OSError:
                continue
    return found


def _group_of(path: str) -> str | None:
    try:
        import grp

        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (ImportError, OSError, KeyError):
        return None


def explain(port: str, text: str, platform: str = sys.platform) -> tuple[str, str]:
    """(message, code) for a port that did not open with pyserial's `text`."""
    if is_busy(text, platform):
        held = holders(port)
        if held:
            who = "it is held by %s: close that program" % ", ".join(held)
        elif platform == "win32":
            who = ("Windows lets one program at a time open a COM port: close the other one (a serial "
                   "terminal, Thonny, Mu, the Arduino IDE)")
        elif platform == "darwin":
            who = "close the other program (`lsof %s` names it)" % port
        else:
            who = "close the other program (`fuser -v %s` names it)" % port
        return ("%s is in use by a program other than pegboard: %s. pegboard programs share a board "
                "among themselves" % (port, who), "busy_port")
    if is_denied(text, platform):
        group = _group_of(port)
        if platform == "darwin":
            advice = "check the port's permissions: ls -l %s" % port
        else:
            advice = ("add yourself to the group that owns it%s: `sudo usermod -aG %s $USER` (dialout on Debian, "
                      "Ubuntu and Fedora; uucp on Arch), then log out and in again"
                      % (" (%s)" % group if group else "", group or "dialout"))
        return "cannot open %s: permission denied. To use serial ports, %s" % (port, advice), "permission"
    if "No such file" in text or "[Errno %d]" % errno.ENOENT in text or "FileNotFoundError" in text:
        return ("cannot open %s: there is no such port (unplugged, or another name now? `pegboard ports` "
                "lists the boards)" % port, "no_board")
    return "cannot open %s: %s" % (port, text), "no_board"
