"""Issue "guard2", findings 1 and 7: what a drive (or a solution file) someone else made can do to
`pegboard deploy` and the commands reading a solution file. A drive holding symbolic links
(code.py.tmp -> ~/.bashrc, pegfw -> ~/src, settings.toml -> ~/.ssh/id_rsa) is refused naming the
link, with the user's files and the drive untouched, also where O_NOFOLLOW is missing (Windows);
deploy removes only files a deploy wrote (its list on the drive, .pegboard-files; on a drive
without one, only the firmware's own module names) and says which it left; and boot_out.txt, the
drive's settings.toml and solution files are read only as regular files of a bounded size: a FIFO
never blocks, /dev/zero is refused. Each test is an attack that worked before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_deploy import deploy, fresh_drive

no_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="Windows has no FIFOs in its file system")
REFUSED = "a CIRCUITPY drive holds no links"
TIMEOUT = 60  # a hang shows as a TimeoutExpired failure, never as a wait in the test


def snapshot(top: Path) -> dict[str, object]:
    """Every file's bytes, every folder (None) and every link (its target) under `top`, never
    following a link."""
    out: dict[str, object] = {}
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = Path(folder) / name
            rel = path.relative_to(top).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            else:
                out[rel] = None if path.is_dir() else path.read_bytes()
    return out


def symlink(target: Path, link: Path) -> None:
    """`link` (in place of the file a fresh drive has there) pointing at `target`."""
    if link.is_file():
        link.unlink()
    try:
        link.symlink_to(target, target_is_directory=target.is_dir())
    except OSError as e:  # Windows without the right to make links
        pytest.skip("cannot make a symbolic link here: %s" % e)


def home(tmp_path: Path) -> Path:
    """The user's own files a planted drive aims at."""
    h = tmp_path / "home"
    (h / "src").mkdir(parents=True)
    (h / ".ssh").mkdir()
    (h / ".bashrc").write_text("# my shell\n")
    (h / "src" / "myproject.py").write_text("# my project\n")
    (h / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    return h


def run_deploy(drive: Path, *more: str) -> subprocess.CompletedProcess:
    """`pegboard deploy --drive DRIVE --py --no-restart` as a program of its own (a hang cannot stall the run)."""
    return subprocess.run([sys.executable, "-m", "pegboard", "deploy", "--drive", str(drive), "--py", "--no-restart",
                           *more], capture_output=True, text=True, timeout=TIMEOUT)


def one_line(text: str) -> str:
    return " ".join(text.split())


# -- finding 1: links on the drive ------------------------------------------------------------------

LINKS = [  # (the link on the drive, what in the user's home it points at)
    ("code.py.tmp", ".bashrc"),  # the temporary name code.py is written under
    ("pegfw", "src"),  # the firmware's folder: its files written into ~/src, its "stale" ones removed
    ("settings.toml", ".ssh/id_rsa"),  # merged: the key would be copied onto the drive
    ("pegfw/app.py", ".bashrc"),  # a file deploy replaces
    ("lib", "src"),
]


@pytest.mark.parametrize("on_drive, target", LINKS)
def test_a_link_on_the_drive_is_refused_naming_it_and_nothing_is_written(capsys, tmp_path, on_drive, target):
    h = home(tmp_path)
    d = fresh_drive(tmp_path)
    (d / on_drive).parent.mkdir(exist_ok=True)
    symlink(h / target, d / on_drive)
    victims, drive = snapshot(h), snapshot(d)
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    err = one_line(err)
    assert code == 2, out + err
    assert "%s is a symbolic link (to %s)" % (d / on_drive, h / target) in err and REFUSED in err
    assert "Nothing on %s was changed" % d in err and "deploying" not in out
    assert snapshot(h) == victims and snapshot(d) == drive


def test_the_reported_attack_leaves_the_users_files_as_they_were(tmp_path):
    h = home(tmp_path)
    d = fresh_drive(tmp_path)
    symlink(h / ".bashrc", d / "code.py.tmp")
    symlink(h / "src", d / "pegfw")
    symlink(h / ".ssh" / "id_rsa", d / "settings.toml")
    victims, drive = snapshot(h), snapshot(d)
    p = run_deploy(d)
    assert p.returncode == 2 and REFUSED in p.stderr, p.stdout + p.stderr
    assert snapshot(h) == victims and snapshot(d) == drive  # ~/.bashrc, ~/src/myproject.py and the key as they were


def test_without_o_nofollow_as_on_windows_a_link_is_refused_all_the_same(tmp_path):
    h = home(tmp_path)
    d = fresh_drive(tmp_path)
    symlink(h / ".bashrc", d / "code.py.tmp")
    victims = snapshot(h)
    script = ("import os, sys\n"
              "for name in ('O_NOFOLLOW', 'O_NONBLOCK'):\n"
              "    if hasattr(os, name): delattr(os, name)\n"
              "from pegboard.commands.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    p = subprocess.run([sys.executable, "-c", script, "deploy", "--drive", str(d), "--py", "--no-restart"],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert p.returncode == 2 and REFUSED in p.stderr and "code.py.tmp" in p.stderr, p.stdout + p.stderr
    assert snapshot(h) == victims


# -- finding 1: removing only what a deploy wrote ---------------------------------------------------

def test_a_drive_without_a_list_gives_up_only_the_firmwares_own_files(capsys, tmp_path):
    d = fresh_drive(tmp_path)  # deployed by an older pegboard: no .pegboard-files
    (d / "pegfw").mkdir()
    (d / "pegfw" / "myproject.py").write_text("# mine\n")
    (d / "pegfw" / "app.mpy").write_bytes(b"C\x06")  # an older compiled deploy's: --py now writes app.py
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0, out + err
    assert (d / "pegfw" / "myproject.py").read_text() == "# mine\n"
    assert "left pegfw/myproject.py where it is: not one of pegboard deploy's files" in one_line(out)
    assert not (d / "pegfw" / "app.mpy").exists() and "removed pegfw/app.mpy" in out
    assert "pegfw/app.py" in (d / ".pegboard-files").read_text().splitlines()  # the next deploy knows its own


def test_a_deploy_removes_only_the_files_its_list_names(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    assert deploy(capsys, "--drive", str(d), "--no-restart", "--py")[0] == 0
    (d / "pegfw" / "helpers.py").write_text("# mine, added after the deploy\n")
    outside = tmp_path / "outside.py"
    outside.write_text("# not on the drive\n")
    with open(d / ".pegboard-files", "a") as f:  # a list someone edited: nothing outside the drive goes
        f.write("../outside.py\n%s\nsettings.toml\npegfw/old.py\n" % outside)
    (d / "pegfw" / "old.py").write_text("# a module the last deploy wrote\n")
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0, out + err
    assert (d / "pegfw" / "helpers.py").read_text() == "# mine, added after the deploy\n"
    assert "left pegfw/helpers.py where it is" in out and "removed pegfw/old.py" in out
    assert not (d / "pegfw" / "old.py").exists()
    assert outside.read_text() == "# not on the drive\n" and (d / "settings.toml").exists()
    listed = (d / ".pegboard-files").read_text().splitlines()
    assert "pegfw/app.py" in listed and "pegfw/old.py" not in listed and "pegfw/helpers.py" not in listed


# -- finding 7: only regular files, of a bounded size -----------------------------------------------

@no_fifos
@pytest.mark.parametrize("fifo", ["boot_out.txt", "settings.toml"])
def test_a_fifo_on_the_drive_does_not_block_deploy(tmp_path, fifo):
    d = fresh_drive(tmp_path)
    (d / fifo).unlink()
    os.mkfifo(d / fifo)
    p = run_deploy(d)
    assert p.returncode == 2, p.stdout + p.stderr
    assert str(d / fifo) in p.stderr and ("FIFO" in p.stderr or "in the way" in p.stderr)
    assert not (d / "pegfw").exists() and "deploying" not in p.stdout


@no_fifos
def test_a_fifo_given_as_the_settings_file_is_named_as_one(tmp_path):
    d = fresh_drive(tmp_path)
    os.mkfifo(tmp_path / "settings.toml")
    p = run_deploy(d, "--settings", str(tmp_path / "settings.toml"))
    assert p.returncode == 2 and "is a FIFO (named pipe), not a file" in p.stderr, p.stdout + p.stderr
    assert not (d / "pegfw").exists()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_boot_out_txt_linked_to_dev_zero_is_refused_without_reading_it(tmp_path):
    d = fresh_drive(tmp_path)
    symlink(Path("/dev/zero"), d / "boot_out.txt")
    p = subprocess.run([sys.executable, "-c", LIMITED_MEMORY, "deploy", "--drive", str(d), "--py", "--no-restart"],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert p.returncode == 2, p.stdout + p.stderr[-2000:]
    assert "boot_out.txt is a symbolic link (to /dev/zero)" in p.stderr and "MemoryError" not in p.stderr


# pegboard with its memory capped (the old deploy read /dev/zero until it ran out)
LIMITED_MEMORY = ("import resource, sys\n"
                  "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
                  "from pegboard.commands.cli import main\n"
                  "sys.exit(main(sys.argv[1:]))\n")


def test_a_huge_boot_out_txt_is_refused_naming_it(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    with open(d / "boot_out.txt", "a") as f:
        f.write("x" * 100_000)
    code, out, err = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 2 and "%s is over 16 KB" % (d / "boot_out.txt") in one_line(err), out + err
    assert not (d / "pegfw").exists()


@no_fifos
@pytest.mark.parametrize("command", ["demo", "guide", "setup"])
def test_a_fifo_solution_file_does_not_block_the_command(tmp_path, command):
    fifo = tmp_path / "solution.json"
    os.mkfifo(fifo)
    p = subprocess.run([sys.executable, "-m", "pegboard", command, str(fifo), "--port", str(tmp_path / "no-board")],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "%s is a FIFO (named pipe), not a file" % fifo in p.stderr and "a solution file is" in p.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_as_the_solution_file_is_refused_as_one():
    from pegboard.solve.solution_file import SolutionError, load_solution

    with pytest.raises(SolutionError, match="/dev/zero is a device, not a file"):
        load_solution("/dev/zero")
