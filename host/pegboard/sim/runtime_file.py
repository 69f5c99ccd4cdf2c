"""How `pegboard` commands find a running `pegboard sim` (or `pegboard monitor`'s tap) without
--port: the simulator writes a small JSON file per process into the user's runtime folder while it
runs (and removes it when it ends), next to a symlink to its data port that it re-points after
`replug`, so the port path never changes. A monitor writes one for its tap the same way.

The folder is $XDG_RUNTIME_DIR/pegboard, else <temp dir>/pegboard-<uid>. A file whose process is
gone (a simulator killed with SIGKILL) is ignored and removed by the next reader."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def runtime_dir() -> Path:
    base = os.environ.get("XDG_RUNTIME_DIR")
    d = Path(base) / "pegboard" if base and os.path.isdir(base) else \
        Path(tempfile.gettempdir()) / ("pegboard-%d" % os.getuid())
    d.mkdir(mode=0o700, parents=True, exist_ok=True)
    if d.stat().st_uid != os.getuid():
        # someone else's folder in a shared /tmp: never trust the ports it names
        raise OSError("%s belongs to another user: set XDG_RUNTIME_DIR to a folder of your own" % d)
    return d


def data_link_path(pid: int | None = None) -> str:
    """Where `pegboard sim` keeps its stable data-port symlink by default."""
    return str(runtime_dir() / ("sim-%d-data" % (pid or os.getpid())))


def write(data: str, control: str | None, kind: str = "sim") -> Path | None:
    """Announce a port: kind "sim" (data and control ports) or "tap" (a monitor's tap). Returns the
    file, or None when it cannot be written (the port still works, given as --port)."""
    try:
        path = runtime_dir() / ("%s-%d.json" % (kind, os.getpid()))
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"pid": os.getpid(), "data": data, "control": control, "started": time.time()}))
        os.replace(tmp, path)
    except OSError as e:
        print("pegboard: cannot announce %s (commands need --port to find it): %s" % (data, e), file=sys.stderr)
        return None
    return path


def remove(path: Path | None) -> None:
    if path is None:
        return
    try:
        path.unlink()
    except OSError:
        pass


def _alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running(kind: str = "sim") -> list[dict[str, Any]]:
    """The simulators (or taps) running now, newest first: {"pid", "data", "control", "started"}."""
    out = []
    try:
        files = list(runtime_dir().glob("%s-*.json" % kind))
    except OSError:
        return []
    for f in files:
        try:
            info = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(info, dict) or not _alive(info.get("pid")):
            remove(f)
            if isinstance(info, dict) and isinstance(info.get("pid"), int):
                remove(Path(data_link_path(info["pid"])))  # its data link, left by a killed simulator
            continue
        if isinstance(info.get("data"), str):
            out.append(info)
    out.sort(key=lambda i: -float(i.get("started") or 0))
    return out


def find_running(kind: str = "sim") -> dict[str, Any] | None:
    found = running(kind)
    return found[0] if found else None
