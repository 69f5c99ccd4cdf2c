"""How `pegboard` programs find each other without --port, through small JSON files in the user's
own runtime folder:
  sim-PID.json   a running `pegboard sim`: its data port (a symlink it re-points after `replug`, so
                 the path never changes) and control port; its heartbeat (the file's time, renewed
                 while the firmware runs) tells a simulator that answers from one that does not
  hub-PID.json   a board's hub (pegboard.link.hub): the port it holds, where programs reach it,
                 its key, and who uses the board now
Each file is removed when its program ends. A file whose process is gone (killed with SIGKILL) is
ignored and removed by the next reader.

The folder is $XDG_RUNTIME_DIR/pegboard, else a folder of the user's own in the temp folder
(pegboard-<uid>, mode 0700; on Windows the folder pegboard/run in %LOCALAPPDATA%): two users, or two test runs
with their own XDG_RUNTIME_DIR, never see each other's boards."""

from __future__ import annotations

import json
import os
import sys
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

STALE_BEAT_S = 3.0  # a simulator whose heartbeat is older does not answer (stopped, or its firmware is down)


def runtime_dir() -> Path:
    """The user's own folder for the files that announce running simulators and hubs (their ports and
    the hub's key). On POSIX it must be a real folder (not a symlink), the user's, and 0700: a folder in
    a shared /tmp that another user planted or can read is refused, saying why; a mode too open on the
    user's own folder is made 0700."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base and os.path.isdir(base):
        d = Path(base) / "pegboard"
    elif hasattr(os, "getuid"):
        d = Path(tempfile.gettempdir()) / ("pegboard-%d" % os.getuid())
    else:  # Windows: the user's own local application data
        d = Path(os.environ.get("LOCALAPPDATA") or tempfile.gettempdir()) / "pegboard" / "run"
    try:
        d.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        pass
    if hasattr(os, "getuid"):
        check_private_dir(d)
    return d


def check_private_dir(d: Path) -> None:
    """OSError unless `d` is a folder (not a symlink to one) that belongs to this user; its mode is
    narrowed to 0700 if it was wider."""
    st = os.lstat(d)
    if stat.S_ISLNK(st.st_mode):
        raise OSError("%s is a symlink, not a folder: someone may have planted it; remove it, or set "
                      "XDG_RUNTIME_DIR to a folder of your own" % d)
    if not stat.S_ISDIR(st.st_mode):
        raise OSError("%s is not a folder: remove it, or set XDG_RUNTIME_DIR to a folder of your own" % d)
    if st.st_uid != os.getuid():
        # someone else's folder in a shared /tmp: never trust the ports it names
        raise OSError("%s belongs to another user: set XDG_RUNTIME_DIR to a folder of your own" % d)
    if stat.S_IMODE(st.st_mode) & 0o077:
        os.chmod(d, 0o700)  # ours, but readable by others: the hub's key is kept here


def data_link_path(pid: int | None = None) -> str:
    """Where `pegboard sim` keeps its stable data-port symlink by default."""
    return str(runtime_dir() / ("sim-%d-data" % (pid or os.getpid())))


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` (in the runtime folder) as the user's alone: 0600, created anew
    (O_EXCL) and never through a symlink (O_NOFOLLOW), then renamed into place. Raises OSError."""
    tmp = path.with_suffix(".tmp")
    try:
        os.unlink(tmp)  # a stale one of ours (a crash); a planted symlink is removed, never followed
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write(data: str, control: str | None, kind: str = "sim", **more: Any) -> Path | None:
    """Announce a port: kind "sim" (data and control ports) or "hub" (with `more`: its address,
    key, users). Returns the file, or None when it cannot be written (the port still works, given
    as --port)."""
    try:
        path = runtime_dir() / ("%s-%d.json" % (kind, os.getpid()))
        info = {"pid": os.getpid(), "data": data, "control": control, "started": time.time()}
        info.update(more)
        write_private(path, json.dumps(info))  # the hub's key is in it
    except OSError as e:
        print("pegboard: cannot announce %s (commands need --port to find it): %s" % (data, e), file=sys.stderr)
        return None
    return path


def beat(path: Path | None) -> None:
    """The announcing program is alive and answering: renew the file's time."""
    if path is not None:
        try:
            os.utime(path)
        except OSError:
            pass


def remove(path: Path | None) -> None:
    if path is None:
        return
    try:
        path.unlink()
    except OSError:
        pass


def alive(pid: Any) -> bool:
    """Whether process `pid` runs (on Windows, without signalling it: os.kill there would end it)."""
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:  # a runtime file's `true` is no process 1
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        ok = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel32.CloseHandle(handle)
        return bool(ok) and code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running(kind: str = "sim") -> list[dict[str, Any]]:
    """The programs of `kind` running now, newest first: {"pid", "data", "control", "started",
    "beat_age" (seconds since the heartbeat), ...}."""
    out = []
    try:
        files = list(runtime_dir().glob("%s-*.json" % kind))
    except OSError:
        return []
    for f in files:
        try:
            info = json.loads(f.read_text())
            info["beat_age"] = max(0.0, time.time() - f.stat().st_mtime)
        except (OSError, ValueError, TypeError):
            continue
        if not isinstance(info, dict) or not alive(info.get("pid")):
            remove(f)
            if kind == "sim" and isinstance(info, dict) and isinstance(info.get("pid"), int):
                remove(Path(data_link_path(info["pid"])))  # its data link, left by a killed simulator
            continue
        if isinstance(info.get("data"), str):
            info["file"] = str(f)
            out.append(info)
    out.sort(key=lambda i: -float(i.get("started") or 0))
    return out


def answering_sim(note: Any = None) -> dict[str, Any] | None:
    """The newest simulator that answers; each one skipped (its heartbeat is stale) is said to
    `note(text)`."""
    for sim in running("sim"):
        if sim["beat_age"] <= STALE_BEAT_S:
            return sim
        if note:
            note("skipping the simulated board on %s (pid %d): it has not answered for %.0f s"
                 % (sim["data"], sim["pid"], sim["beat_age"]))
    return None
