"""The host as a Windows user meets it: every pegboard process here (the command and the hub it
starts) runs with the POSIX-only modules and calls hidden (termios, pty, tty, fcntl, grp, pwd,
resource; os.getuid and friends, os.fork, os.setsid, os.O_NOCTTY), by a sitecustomize that Python
loads at start-up.

What this cannot show: pyserial's Windows backend and the Win32 calls (they need Windows itself).
pyserial is therefore imported first, with its own POSIX backend, and only then are the modules
hidden: what is tested is that pegboard's own code reaches none of them on the paths a Windows
user takes. The Windows-only branches (drive letters, process flags) are tested with their system
calls faked, and .github/workflows/host.yml runs the suite on real Windows and macOS where the
repository is public (the CI here runs Linux only)."""

import json
import os
import select
import socket
import subprocess
import sys
import threading

import pytest

from pegboard.commands.cli import COMMANDS

SITECUSTOMIZE = '''
import os, sys
if os.environ.get("PEGBOARD_AS_WINDOWS"):
    import json, pathlib, selectors, shutil, socket, subprocess, tempfile, threading  # noqa: F401
    tempfile.gettempdir()
    import serial, serial.tools.list_ports  # noqa: F401  (its POSIX backend: see the test's docstring)
    for name in ("termios", "pty", "tty", "fcntl", "grp", "pwd", "resource"):
        sys.modules[name] = None  # import fails, as on Windows
    for name in ("getuid", "geteuid", "getgid", "getegid", "fork", "forkpty", "setsid", "killpg",
                 "O_NOCTTY", "O_NONBLOCK", "ttyname", "openpty"):
        if hasattr(os, name):
            delattr(os, name)
'''


@pytest.fixture
def as_windows(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ, PEGBOARD_AS_WINDOWS="1", PYTHONPATH=str(tmp_path / "site"),
               XDG_RUNTIME_DIR="", LOCALAPPDATA=str(tmp_path / "appdata"))
    env.pop("XDG_RUNTIME_DIR")
    return env


def pegboard(env, *argv, timeout=120):
    return subprocess.run([sys.executable, "-m", "pegboard", *argv], capture_output=True, text=True, env=env,
                          timeout=timeout)


def test_the_harness_hides_what_windows_lacks(as_windows):
    probe = ("import os\ntry:\n    import termios\n    print('termios')\nexcept ImportError:\n    pass\n"
             "print(hasattr(os, 'getuid'), hasattr(os, 'O_NOCTTY'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=as_windows).stdout
    assert out.split() == ["False", "False"]


def subcommands():
    from pegboard.commands.cli import build_parser

    parser = build_parser()
    names = []
    for action in parser._subparsers._group_actions:  # noqa: SLF001 - argparse keeps its subparsers there
        names += list(action.choices)
    return names


def test_every_command_helps_as_windows(as_windows):
    names = subcommands()
    assert len(names) >= len(COMMANDS)
    for name in ["--help"] + [n + " --help" for n in names]:
        p = pegboard(as_windows, *name.split())
        assert p.returncode == 0 and "usage:" in p.stdout, (name, p.stderr)


def test_solve_and_the_hardware_documents_as_windows(as_windows, tmp_path):
    p = pegboard(as_windows, "solve", "--empty", "1")
    assert p.returncode == 0 and "Solution from hole 1 (13 jumps)" in p.stdout, p.stdout + p.stderr
    out = tmp_path / "plate.svg"
    p = pegboard(as_windows, "hardware", "plate", "-o", str(out))
    assert p.returncode == 0 and out.read_text().lstrip().startswith("<"), p.stderr


def bridge(path):
    """The simulated board's data port as a TCP port (socket://, a URL a Windows user may give)."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = server.accept()
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        try:
            while True:
                r, _, _ = select.select([conn, fd], [], [], 0.5)
                if conn in r:
                    data = conn.recv(4096)
                    if not data:
                        return
                    os.write(fd, data)
                if fd in r:
                    conn.sendall(os.read(fd, 4096))
        except OSError:
            return
        finally:
            os.close(fd)
            conn.close()
            server.close()

    threading.Thread(target=serve, daemon=True).start()
    return "socket://127.0.0.1:%d" % server.getsockname()[1]


@pytest.mark.skipif(sys.platform == "win32", reason="the simulated board needs a pseudo-terminal")
def test_state_through_the_hub_over_a_socket_url_as_windows(sim, as_windows, tmp_path):
    url = bridge(sim.data_path)
    p = pegboard(as_windows, "state", "--json", "--port", url)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["empty_start"] == 4
    assert (tmp_path / "appdata" / "pegboard" / "run").is_dir(), "the runtime folder is in LOCALAPPDATA"


def test_ports_as_windows(as_windows):
    p = pegboard(as_windows, "ports")
    assert p.returncode in (0, 1) and "Traceback" not in p.stderr, p.stderr
