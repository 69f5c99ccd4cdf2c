"""One board, many programs: every pegboard program reaches the board through its hub
(pegboard.link.hub), which routes replies to the asker and events to all; programs find boards in
their own runtime folder, and every error names the port it tried."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from pegboard.link import runtime_file
from pegboard.link.hub_link import HubLink, hub_for
from pegboard.link.serial_link import SerialLink
from support import jump, pegboard_cli, until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the simulated board needs a pseudo-terminal")


@pytest.fixture
def env(runtime_env):
    return runtime_env


def pegboard(env, *argv, timeout=30):
    return pegboard_cli(env, *argv, timeout=timeout)


def start(env, *argv):
    return subprocess.Popen([sys.executable, "-m", "pegboard", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def read_until(proc, needle, what):
    said = []
    while not said or needle not in said[-1]:
        said.append(proc.stdout.readline())
        assert said[-1], "%s ended before it said %r: %s%s" % (what, needle, "".join(said), proc.stderr.read())
    return said


def no_hub_left(port):
    until(lambda: hub_for(port) is None, what="the hub to end with its last program")
    link = SerialLink(port).open()  # the port is free again
    link.close()
    return True


def test_while_a_demo_runs_other_programs_ask_and_stop_ends_it(sim, env):
    demo = start(env, "demo", "--port", sim.data_path)
    read_until(demo, "demonstrating", "the demo")
    st = pegboard(env, "state", "--json", "--port", sim.data_path)
    assert st.returncode == 0, st.stderr
    assert json.loads(st.stdout)["mode"] == "demo"
    hint = pegboard(env, "hint", "--port", sim.data_path)  # the board answers it (busy while it demonstrates)
    assert "in use" not in hint.stderr and "busy" in hint.stderr + hint.stdout
    stop = pegboard(env, "stop", "--port", sim.data_path)
    assert stop.returncode == 0, stop.stderr
    out, err = demo.communicate(timeout=20)
    assert demo.returncode == 0 and "stopped" in out, out + err
    assert no_hub_left(sim.data_path)


def test_two_monitors_see_every_event_and_the_first_leaving_disturbs_nothing(sim, env):
    first = start(env, "monitor", "--port", sim.data_path)
    read_until(first, "monitoring", "the first monitor")
    second = start(env, "monitor", "--port", sim.data_path)
    head = read_until(second, "monitoring", "the second monitor")
    assert "also using it: pegboard monitor (pid %d)" % first.pid in head[-1]
    jump(sim, (6, 5, 4))
    for mon in (first, second):
        said = read_until(mon, " move ", "a monitor")
        assert "move=[6, 5, 4]" in said[-1]
    first.send_signal(signal.SIGINT)
    out, err = first.communicate(timeout=20)
    assert first.returncode == 0 and "Traceback" not in err
    jump(sim, (13, 9, 6))
    assert "move=[13, 9, 6]" in read_until(second, " move ", "the second monitor")[-1]
    st = pegboard(env, "state", "--json", "--port", sim.data_path)
    assert st.returncode == 0 and json.loads(st.stdout)["moves"] == [[6, 5, 4], [13, 9, 6]]
    said = read_until(second, "→ state", "the second monitor")  # it sees other programs' requests, and who
    assert "(pegboard state (pid " in said[-1]
    second.send_signal(signal.SIGINT)
    second.communicate(timeout=20)
    assert no_hub_left(sim.data_path)


def test_request_ids_are_the_askers_own(sim, env):
    a = HubLink(sim.data_path, sim.data_path, name="a").open()
    b = HubLink(sim.data_path, sim.data_path, name="b").open()
    try:
        assert b.hub_pid == a.hub_pid, "one hub for the board"
        a.write(b'{"id": 1, "cmd": "state"}\n')
        b.write(b'{"id": 1, "cmd": "info"}\n')
        b.write(b"state\n")  # a bare word, as a person types it: answered without an id

        def replies(link, n):
            got = []
            deadline = time.monotonic() + 10
            while len(got) < n and time.monotonic() < deadline:
                line = link.read_line(0.2)
                if line is not None:
                    obj = json.loads(line)
                    if "event" not in obj:
                        got.append(obj)
            return got

        (ra,) = replies(a, 1)
        rb, rb2 = replies(b, 2)
        assert ra["id"] == 1 and "pegs" in ra
        assert rb["id"] == 1 and rb["rows"] == 5
        assert "id" not in rb2 and "pegs" in rb2
        assert a.read_line(0.3) is None, "nothing of b's came to a"
    finally:
        a.close()
        b.close()
    assert no_hub_left(sim.data_path)


class QuietLink:
    """A board that says nothing: the hub's lines from the board are given by the test."""
    connected_to = "quiet"
    on_lost = on_back = None

    def write(self, data):
        pass

    def read(self):
        return b""

    def fileno(self):
        return None

    def close(self):
        pass


def test_a_slow_program_is_dropped_and_the_others_go_on(env, monkeypatch):
    import socket

    from pegboard.link import hub as hubmod

    monkeypatch.setattr(hubmod, "BACKLOG", 4096)
    hub = hubmod.Hub(QuietLink(), "key")
    peers = {}
    for name in ("slow", "fast"):
        mine, peer = socket.socketpair()
        mine.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # the kernel keeps little for it
        mine.setblocking(False)
        client = hubmod.Client(mine, len(peers) + 1)
        client.ready, client.name = True, name
        hub.clients.append(client)
        hub.sel.register(mine, hubmod.selectors.EVENT_READ, client)
        peers[name] = (client, peer)
    fast_peer = peers["fast"][1]
    fast_peer.setblocking(False)
    got = b""
    try:
        for seq in range(1, 3001):
            hub.from_board(b'{"event": "lift", "seq": %d, "hole": 1}' % seq)
            try:
                got += fast_peer.recv(1 << 20)
            except BlockingIOError:
                pass
        slow, slow_peer = peers["slow"]
        assert slow.dropping and not slow.ready, "the program that never read was dropped"
        fast_peer.setblocking(True)
        fast_peer.settimeout(0.5)
        try:
            while got.count(b"\n") < 3000:
                got += fast_peer.recv(1 << 20)
        except socket.timeout:
            pass
        seqs = [json.loads(line)["seq"] for line in got.splitlines()]
        assert seqs == list(range(1, 3001)), "the program that reads got every event, in order"
        said = b""
        slow_peer.settimeout(0.1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the program reads at last: what it had, then the message
            try:
                data = slow_peer.recv(1 << 20)
            except socket.timeout:
                hub.flush(slow)
                continue
            if not data:
                break
            said += data
        last = json.loads(said.splitlines()[-1])
        assert last["hub"] == "dropped" and "unread" in last["message"]
        assert slow.closed and slow not in hub.clients
    finally:
        hub.close()
        for _, peer in peers.values():
            peer.close()


def test_a_killed_hub_is_replaced_and_its_programs_go_on(sim, env):
    mon = start(env, "monitor", "--port", sim.data_path)
    read_until(mon, "monitoring", "the monitor")
    hub = hub_for(sim.data_path)
    os.kill(hub["pid"], signal.SIGKILL)
    read_until(mon, "reconnected", "the monitor")
    st = pegboard(env, "state", "--json", "--port", sim.data_path)
    assert st.returncode == 0, st.stderr
    jump(sim, (6, 5, 4))
    assert "move=[6, 5, 4]" in read_until(mon, " move ", "the monitor")[-1]
    mon.send_signal(signal.SIGINT)
    mon.communicate(timeout=20)
    assert no_hub_left(sim.data_path)


def test_a_stale_hub_file_is_ignored_and_removed(sim, env, tmp_path):
    stale = runtime_file.runtime_dir() / "hub-999999.json"
    stale.write_text(json.dumps({"pid": 999999, "data": sim.data_path, "address": ["127.0.0.1", 1], "key": "x"}))
    st = pegboard(env, "state", "--json", "--port", sim.data_path)
    assert st.returncode == 0, st.stderr
    assert not stale.exists()


def announce(folder, sim, age=0.0):
    """A runtime file for `sim` in `folder`'s pegboard folder, as `pegboard sim` writes, its
    heartbeat `age` seconds old; with no age, renewed as `pegboard sim` renews it while its board
    runs (every 0.2 s, until the simulator stops): a busy machine's slow commands still find it."""
    d = folder / "pegboard"
    d.mkdir(mode=0o700, exist_ok=True)
    f = d / ("sim-%d.json" % os.getpid())
    f.write_text(json.dumps({"pid": os.getpid(), "data": sim.data_path, "control": sim.control_path,
                             "started": time.time()}))
    t = time.time() - age
    os.utime(f, (t, t))
    if not age:
        threading.Thread(target=_beat, args=(f, sim), daemon=True).start()
    return f


def _beat(f, sim):
    stop = threading.Event()
    while sim.running and not stop.wait(0.2):
        try:
            os.utime(f)
        except OSError:
            return  # the test's folder is gone


def test_boards_in_two_runtime_folders_are_never_mixed(sim, tmp_path):
    from pegboard.sim.simulator import Simulator

    with Simulator() as other:
        other.control("fill", empty=9)
        other.control("wait_idle")
        mine, theirs = tmp_path / "mine", tmp_path / "theirs"
        mine.mkdir()
        theirs.mkdir()
        for folder, empty in ((mine, 4), (theirs, 9), (mine, 4)):
            # announced afresh before each program: the heartbeat's age is not what this test is about
            # (a loaded machine takes seconds to start a program, and a 3 s old beat reads as a stopped sim)
            announce(mine, sim)
            announce(theirs, other)
            st = pegboard(dict(os.environ, XDG_RUNTIME_DIR=str(folder)), "state", "--json")
            assert st.returncode == 0, st.stderr
            assert json.loads(st.stdout)["empty_start"] == empty


def test_a_simulator_that_does_not_answer_is_skipped_with_a_note(sim, env, tmp_path):
    announce(tmp_path, sim, age=60)
    st = pegboard(env, "state")
    assert st.returncode == 1
    assert "skipping the simulated board on %s" % sim.data_path in st.stderr and "no board found" in st.stderr


def test_errors_name_the_port_they_tried(env, tmp_path):
    from pegboard.sim.ptys import close_fds, raw_pty

    missing = str(tmp_path / "ttyACM9")
    st = pegboard(env, "state", "--port", missing)
    assert st.returncode == 1 and missing in st.stderr
    master, slave, path = raw_pty()  # a port where nothing answers
    try:
        st = pegboard(env, "state", "--port", path)
        assert st.returncode == 1 and "no reply to 'state' from %s" % path in st.stderr
    finally:
        close_fds(master, slave)


def test_ports_lists_the_boards_and_who_uses_each(sim, env, tmp_path):
    announce(tmp_path, sim)
    free = pegboard(env, "ports")
    assert free.returncode == 0 and sim.data_path in free.stdout and "free" in free.stdout
    mon = start(env, "monitor")  # no --port: the announced simulator
    read_until(mon, "monitoring", "the monitor")
    used = pegboard(env, "ports")
    assert "in use by: pegboard monitor (pid %d)" % mon.pid in used.stdout
    mon.send_signal(signal.SIGINT)
    mon.communicate(timeout=20)


def test_no_board_found_says_what_was_looked_at(env, tmp_path, monkeypatch):
    st = pegboard(env, "state")
    assert st.returncode == 1 and "no board found (looked at " in st.stderr
    assert str(tmp_path / "pegboard") in st.stderr, "the runtime folder searched is named"


def test_programs_that_start_at_once_share_one_hub(sim, env):
    """Six programs reach for a board with no hub at the same moment: the hubs they start race for
    the port, one wins, and every program is answered through it."""
    procs = [subprocess.Popen([sys.executable, "-m", "pegboard", "state", "--json", "--port", sim.data_path],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(6)]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0 and json.loads(out)["empty_start"] == 4, err
    assert no_hub_left(sim.data_path)
