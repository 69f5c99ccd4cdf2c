"""Issue "guard": what another program or user on this machine can send the board's shared link, and
what it can plant in the runtime folder, never ends the service for the others nor gives them the hub's
key. Each test is an attack that worked before its fix."""

import json
import os
import select
import socket
import stat
import subprocess
import sys
import time

import pytest
from support import jump, pegboard_cli, until
from websupport import board, browser, web  # noqa: F401  (fixtures: `pegboard web` on a simulated board, Chromium)

from pegboard.link import runtime_file
from pegboard.link.hub_link import hub_for

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX runtime folders and the simulated board")


def hello(hub, line):
    """Connect to the hub and send one hello line; what it answered (b"" when it dropped us)."""
    with socket.create_connection(tuple(hub["address"]), timeout=5) as s:
        s.sendall(line)
        s.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return got
            got += chunk


@pytest.mark.parametrize("key", ["é", 7, None, ["k"], "x" * 10000, "\udcff"])
def test_a_bad_hello_drops_that_client_and_the_hub_serves_on(sim, runtime_env, key):
    watch = subprocess.Popen([sys.executable, "-m", "pegboard", "monitor", "--port", sim.data_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=runtime_env)
    try:
        hub = until(lambda: hub_for(sim.data_path), 20, "the monitor's hub")
        line = json.dumps({"key": key}).encode("utf-8", "surrogatepass") + b"\n"
        assert hello(hub, line) == b""  # dropped, told nothing
        assert hello(hub, b'{"key": "\xc3\xa9"}\n') == b""
        st = pegboard_cli(runtime_env, "state", "--json", "--port", sim.data_path)
        assert st.returncode == 0, st.stderr  # the hub still serves
        assert hub_for(sim.data_path)["pid"] == hub["pid"]  # the same hub: it did not end and restart
        assert watch.poll() is None  # and the monitor is still attached
    finally:
        watch.terminate()
        watch.wait(10)


def test_the_right_key_is_still_welcome(sim, runtime_env):
    watch = subprocess.Popen([sys.executable, "-m", "pegboard", "monitor", "--port", sim.data_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=runtime_env)
    try:
        hub = until(lambda: hub_for(sim.data_path), 20, "the monitor's hub")
        welcome = hello(hub, json.dumps({"key": hub["key"], "name": "test"}).encode() + b"\n")
        assert json.loads(welcome.splitlines()[0])["hub"] == "welcome"
    finally:
        watch.terminate()
        watch.wait(10)


def _tmp_runtime(monkeypatch, tmp_path):
    """No XDG_RUNTIME_DIR: the folder is <temp>/pegboard-<uid>, here in a temp dir of the test's own."""
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(runtime_file.tempfile, "gettempdir", lambda: str(tmp_path))
    return tmp_path / ("pegboard-%d" % os.getuid())


def test_a_planted_symlink_for_the_runtime_folder_is_refused(monkeypatch, tmp_path):
    folder = _tmp_runtime(monkeypatch, tmp_path)
    readable = tmp_path / "world-readable"
    readable.mkdir(mode=0o755)
    folder.symlink_to(readable)
    with pytest.raises(OSError, match="is a symlink, not a folder"):
        runtime_file.runtime_dir()
    assert runtime_file.write("/dev/null", None) is None  # nothing announced through it
    assert list(readable.iterdir()) == []


def test_an_open_runtime_folder_of_ours_is_made_private(monkeypatch, tmp_path):
    folder = _tmp_runtime(monkeypatch, tmp_path)
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    assert runtime_file.runtime_dir() == folder
    assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700


def test_runtime_files_are_the_users_alone_and_never_written_through_a_link(monkeypatch, tmp_path):
    folder = _tmp_runtime(monkeypatch, tmp_path)
    folder.mkdir(mode=0o700)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    # a link where the file's temporary name will be: removed, never followed
    (folder / ("hub-%d.tmp" % os.getpid())).symlink_to(victim)
    path = runtime_file.write("/dev/null", None, kind="hub", key="secret")
    assert path is not None and stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    assert json.loads(path.read_text())["key"] == "secret"
    assert victim.read_text() == "keep"


@pytest.mark.parametrize("text", ["Adafruit CircuitPython 9.2.8;$(touch /tmp/pwned) on 2025-05-28; Raspberry Pi Pico",
                                  "Adafruit CircuitPython 9.2.8`id` on x", "Adafruit CircuitPython 9.2.8-a|b on x",
                                  "Adafruit CircuitPython 9.2 on x"])
def test_a_crafted_boot_out_gives_no_version(tmp_path, text):
    from pegboard.deploy.bootout import drive_info

    (tmp_path / "boot_out.txt").write_text(text + "\nBoard ID:raspberry_pi_pico\n")
    assert drive_info(tmp_path).version is None  # refused by deploy as "names no CircuitPython version"


@pytest.mark.parametrize("version", ["9.2.8", "10.3.0-alpha.4"])
def test_a_plain_boot_out_version_is_taken(tmp_path, version):
    from pegboard.deploy.bootout import drive_info

    (tmp_path / "boot_out.txt").write_text("Adafruit CircuitPython %s on 2025-05-28; Raspberry Pi Pico with rp2040\n"
                                           "Board ID:raspberry_pi_pico\n" % version)
    assert drive_info(tmp_path).version == version


def test_deploy_never_runs_a_fetcher_with_the_drives_version():
    import inspect

    from pegboard.deploy import mpycross

    assert "circuitpython_build_tools" not in inspect.getsource(mpycross)


def test_printable_shows_every_control_character_as_an_escape():
    from pegboard.safe_text import printable

    assert printable("a\x1b]0;title\x07b\x9b2Jc\x7f\u00e9") == "a\\x1b]0;title\\x07b\\x9b2Jc\\x7f\u00e9"


@pytest.mark.parametrize("line", [b'{"cmd": "state", "\\u001b]52;c;cHduZWQ=\\u0007": 1}', b'\x1b[2J not json',
                                  b'["\x1b[2J"]', b'{"event": "\\u001b]0;x\\u0007", "seq": 1}'])
def test_monitor_prints_no_control_character_of_a_line(line):
    from pegboard.commands.monitor import pretty

    for color in (False, True):
        shown = pretty(line, color)
        assert not any(ch in shown for ch in "\x07\x9b\x9d") and "\x1b]" not in shown and "\x1b[2J" not in shown
        assert "\\x1b" in shown


def test_a_viewers_escape_sequences_never_reach_the_monitors_terminal(sim, runtime_env):
    watch = subprocess.Popen([sys.executable, "-m", "pegboard", "monitor", "--port", sim.data_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=runtime_env)
    out = b""
    try:
        # the monitor taps what passes once it is attached: a request sent before its "monitoring" line may pass unseen
        while b"monitoring" not in out:
            assert select.select([watch.stdout], [], [], 20)[0], "the monitor never started: %r" % out
            out += os.read(watch.stdout.fileno(), 65536)
        hub = until(lambda: hub_for(sim.data_path), 20, "the monitor's hub")
        with socket.create_connection(tuple(hub["address"]), timeout=5) as s:
            s.sendall(json.dumps({"key": hub["key"], "name": "evil\x1b]0;pwned\x07"}).encode() + b"\n")
            s.sendall(b'{"cmd": "state", "id": "\\u001b]0;pwned\\u0007", "\\u001b[2J": 1}\n')
            s.settimeout(10)
            got = b""
            while b"pegs" not in got:
                got += s.recv(65536)
        while b"state" not in out:  # the monitor shows the request (the tap reaches it after our reply, maybe)
            assert select.select([watch.stdout], [], [], 20)[0], "the monitor never showed the request: %r" % out
            out += os.read(watch.stdout.fileno(), 65536)
    finally:
        watch.terminate()
        out += watch.communicate(timeout=10)[0]
    assert b"\\x1b" in out  # the request was shown, its escapes spelled out
    assert b"\x1b" not in out and b"\x07" not in out


def on_a_terminal(env, *argv, timeout=30):
    """`pegboard ARGV` with its stdout and stderr a pseudo-terminal: all it wrote there."""
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "pegboard", *argv], stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        if select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break  # the command ended and closed the terminal
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    p.wait(10)
    os.close(master)
    return out


def test_commands_print_no_control_character_of_another_programs_name(runtime_env, board):  # noqa: F811
    watch = subprocess.Popen([sys.executable, "-m", "pegboard", "monitor", "--port", board.link],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=runtime_env)
    try:
        hub = until(lambda: hub_for(board.link), 20, "the monitor's hub")
        with attach(hub, "evil\x1b]0;pwned\x07\x9b2J") as s:
            s.recv(4096)  # welcome: it is a user now
            until(lambda: any("evil" in u for u in hub_for(board.link)["users"]), 10, "the name listed")
            out = on_a_terminal(runtime_env, "ports")
    finally:
        watch.terminate()
        watch.wait(10)
    assert b"evil" in out and b"\\x1b]0;pwned\\x07" in out, out
    assert b"\x1b" not in out and b"\x07" not in out and "\x9b".encode() not in out


# -- a flood through the hub slows its sender, never the others ------------------------------------

FLOOD = 5000


class Attached:
    """`pegboard monitor` (its output kept) and the terminal UI (`pegboard mirror` on a pseudo-terminal
    of 120 x 40) on the board at `port`, as a user at the laptop has them open."""

    def __init__(self, port, env):
        import fcntl
        import pty
        import struct
        import termios
        import threading

        self.port = port
        self.monitor = subprocess.Popen([sys.executable, "-m", "pegboard", "monitor", "--port", port],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        def own_terminal():  # the pty as the UI's controlling terminal: it hangs up when this test ends
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.tui = subprocess.Popen([sys.executable, "-m", "pegboard", "mirror", "--port", port], stdin=slave,
                                    stdout=slave, stderr=slave, env=dict(env, TERM="xterm-256color"),
                                    preexec_fn=own_terminal)
        os.close(slave)
        self.master = master
        threading.Thread(target=self._drain, daemon=True).start()  # a terminal that is never read blocks its UI
        self.pids = {self.monitor.pid, self.tui.pid}
        try:
            self.hub = until(lambda: (lambda h: h if h and self.pids <= users_pids(h) else None)(hub_for(port)), 60,
                             "the monitor and the terminal UI to attach")
        except BaseException:
            self._end()  # neither outlives the test (the UI, in a session of its own, would spin on)
            raise

    def _drain(self):
        try:
            while os.read(self.master, 65536):
                pass
        except OSError:
            pass

    def still_attached(self):
        hub = hub_for(self.port)
        assert self.monitor.poll() is None and self.tui.poll() is None, "a program ended"
        assert hub["pid"] == self.hub["pid"], "the hub ended and another took its place"
        assert self.pids <= users_pids(hub), hub["users"]

    def _end(self):
        for p in (self.tui, self.monitor):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(5)
        os.close(self.master)

    def close(self):
        self._end()
        out = self.monitor.stdout.read()
        assert "disconnected" not in out and "Traceback" not in out, out[-2000:]


def users_pids(hub):
    """The pids of the programs the hub's runtime file lists as attached ("name (pid N)")."""
    import re

    return {int(m) for u in hub.get("users", []) for m in re.findall(r"\(pid (\d+)\)", u)}


def attach(hub, name):
    s = socket.create_connection(tuple(hub["address"]), timeout=30)
    s.sendall(json.dumps({"key": hub["key"], "name": name}).encode() + b"\n")
    return s


def replies(s, count, timeout=120):
    """The JSON lines `s` receives until `count` of them are replies (they carry an id)."""
    got, buf, deadline = [], b"", time.monotonic() + timeout
    while len(got) < count:
        assert time.monotonic() < deadline, "%d of %d replies came" % (len(got), count)
        chunk = s.recv(1 << 20)
        assert chunk, "the hub closed the connection after %d replies: %r" % (len(got), buf[-300:])
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            obj = json.loads(line)
            assert obj.get("hub") not in ("dropped", "gone"), obj
            if "id" in obj:
                got.append(obj)
    return got


def keep_a_game(sim, port, env):
    """Play a move and empty the board (an abandoned game, kept), then fill it again: hole 5 empty."""
    sim.control("fill", empty=5)
    sim.control("wait_idle")
    jump(sim, (12, 8, 5))
    sim.control("clear")  # a game with a move, abandoned once the board stays empty: one kept game
    until(lambda: json.loads(pegboard_cli(env, "games", "--json", "--port", port).stdout)["games"],
          30, "the abandoned game to be kept")
    sim.control("fill", empty=5)
    sim.control("wait_idle")


def test_a_flood_of_requests_through_the_hub_drops_no_program_and_answers_every_one(sim, runtime_env):
    keep_a_game(sim, sim.data_path, runtime_env)
    open_ = Attached(sim.data_path, runtime_env)
    demo = None
    try:
        hub = open_.hub
        before = board_counts(hub)
        assert before[0]["total"] >= 1, before
        demo = subprocess.Popen([sys.executable, "-m", "pegboard", "demo", "--port", sim.data_path],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=runtime_env)
        until(lambda: demo.pid in users_pids(hub_for(sim.data_path)), 20, "the demo to attach")
        with attach(hub, "flood") as s:
            s.sendall(b"".join(b'{"cmd": "info", "id": %d}\n' % i for i in range(FLOOD)))
            got = replies(s, FLOOD)
        ids = sorted(r["id"] for r in got)
        assert ids == list(range(FLOOD))  # each request answered once
        answered = [r for r in got if r.get("ok")]
        busy = [r for r in got if not r.get("ok")]
        assert answered and all(r["error"] == "busy" and r.get("hub") for r in busy), busy[:3]
        open_.still_attached()
        assert demo.wait(120) == 0, demo.stdout.read()  # the demo ran to its end
        assert board_counts(hub) == before  # the board's kept games and their counts are untouched
    finally:
        if demo is not None and demo.poll() is None:
            demo.terminate()
            demo.wait(10)
        open_.close()


def board_counts(hub):
    """The games the board keeps and its game counts (stats), asked through the hub."""
    with attach(hub, "counts") as s:
        s.sendall(b'{"cmd": "records", "id": 1}\n{"cmd": "stats", "id": 2}\n')
        records, stats = sorted(replies(s, 2), key=lambda r: r["id"])
    assert records["ok"] and stats["ok"], (records, stats)
    return records, {k: stats[k] for k in ("games", "wins", "best", "abandoned", "challenges_kept")}


# -- pegboard web: only its own pages, under its own names ---------------------------------------------

def ws_handshake(base, host=None, origin=None, path="/ws"):
    """The status line a WebSocket handshake to `base` gets, with the Host and Origin given."""
    import base64
    from urllib.parse import urlsplit

    u = urlsplit(base)
    lines = ["GET %s HTTP/1.1" % path, "Host: %s" % (host or u.netloc), "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: %s" % base64.b64encode(os.urandom(16)).decode(), "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append("Origin: %s" % origin)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return s.recv(4096).split(b"\r\n")[0].decode()


def test_a_websocket_from_an_opaque_or_foreign_origin_is_refused(web):  # noqa: F811
    base = web.base
    assert " 403 " in ws_handshake(base, origin="null")  # a sandboxed frame on any site
    assert " 403 " in ws_handshake(base, origin="http://evil.example")
    assert " 101 " in ws_handshake(base, origin=base.rstrip("/"))  # the page it served
    assert " 101 " in ws_handshake(base)  # a program, no browser: no Origin


def test_another_host_name_is_refused_dns_rebinding(web):  # noqa: F811
    from urllib.parse import urlsplit

    port = urlsplit(web.base).port
    assert " 403 " in ws_handshake(web.base, host="evil.example:%d" % port)
    assert " 403 " in ws_handshake(web.base, host="evil.example:%d" % port, origin="http://evil.example:%d" % port)
    assert " 403 " in ws_handshake(web.base, host="evil.example:%d" % port, path="/")
    assert " 101 " in ws_handshake(web.base, host="localhost:%d" % port, origin="http://localhost:%d" % port)


def test_the_page_may_not_be_framed_by_another_site(web):  # noqa: F811
    import urllib.request

    with urllib.request.urlopen(web.base, timeout=10) as r:
        assert r.headers["Content-Security-Policy"] == "frame-ancestors 'none'"
        assert r.headers["X-Frame-Options"] == "DENY"


def ws_join(w, token=None, hello=True):
    """A WebSocket to `pegboard web` as its page makes one: the hello (with `token`) first; the
    connection, and the server's first message (None when it closed the socket instead)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    # entered by hand: kept open past this call (a test holds many), closed by the test
    ws = connect(w.base.replace("http://", "ws://") + "ws", open_timeout=10, close_timeout=2).__enter__()
    if hello:
        ws.send(json.dumps({"web": "hello", "token": token}))
    try:
        return ws, json.loads(ws.recv(timeout=10))
    except ConnectionClosed:
        return ws, None


def test_on_loopback_a_websocket_without_the_token_is_closed_unheard(web):  # noqa: F811
    for token in (None, "", "wrong", web.token + "x", "é"):
        ws, first = ws_join(web, token)
        assert first is None and ws.close_code == 4001, (token, first, ws.close_code, ws.close_reason)
        assert "token" in ws.close_reason
    ws, first = ws_join(web, hello=False)  # a socket that never says hello is closed too (after HELLO_S)
    assert first is None and ws.close_code == 4002
    ws, first = ws_join(web, web.token)
    assert first["web"] == "hello" and first["control"] is True and first["port"]
    ws.close()


def test_the_token_never_travels_in_a_url_and_the_page_still_plays(browser, web):  # noqa: F811
    ctx = browser.new_context()
    page = ctx.new_page()
    urls = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    page.on("request", lambda r: urls.append(r.url))
    page.goto(web.page)
    page.wait_for_function("window.pegboardPage && pegboardPage.states > 0 && pegboardPage.control", timeout=15000)
    assert urls and not [u for u in urls if web.token in u], urls
    ctx.close()
    # a page opened without the token is not let in on a loopback bind, and says so
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(web.base)
    page.wait_for_function("document.getElementById('conn').textContent.indexOf('not let in') >= 0", timeout=15000)
    ctx.close()


def test_spectators_on_the_network_learn_nothing_of_the_port(board):  # noqa: F811
    from websupport import WebProcess

    w = WebProcess(board.link, "--host", "127.0.0.2")
    try:
        ws, first = ws_join(w)
        assert first["web"] == "hello" and first["control"] is False and "port" not in first, first
        ws.close()
        ws, first = ws_join(w, w.token)
        assert first["control"] is True and first["port"]
        ws.close()
    finally:
        w.stop()


def test_pages_past_the_caps_are_refused_and_the_others_stay(web):  # noqa: F811
    from websockets.exceptions import InvalidStatus

    from pegboard.web import server

    joined = []
    try:
        for _ in range(server.PER_ADDRESS_MAX):  # every local page comes from 127.0.0.1
            ws, first = ws_join(web, web.token)
            assert first["web"] == "hello"
            joined.append(ws)
        with pytest.raises(InvalidStatus) as refused:
            ws_join(web, web.token)
        assert refused.value.response.status_code == 503
        joined.pop().close()
        ws, first = until(lambda: ws_join(web, web.token), 10, "a place freed by a closed page",
                          ignore=(InvalidStatus,))
        joined.append(ws)
        for ws in joined:  # every page let in is still served
            ws.send(json.dumps({"cmd": "state", "id": 1}))
            while json.loads(ws.recv(timeout=10)).get("id") != 1:
                pass
    finally:
        for ws in joined:
            ws.close()


def test_a_flood_through_pegboard_web_is_answered_and_drops_nobody(board, web):  # noqa: F811
    keep_a_game(board, web.port, dict(os.environ))
    open_ = Attached(web.port, dict(os.environ))
    demo = None
    try:
        before = board_counts(open_.hub)
        assert before[0]["total"] >= 1, before
        demo = subprocess.Popen([sys.executable, "-m", "pegboard", "demo", "--port", web.port],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        until(lambda: demo.pid in users_pids(hub_for(web.port)), 20, "the demo to attach")
        other, _ = ws_join(web, web.token)
        flood, _ = ws_join(web, web.token)
        for i in range(FLOOD):
            flood.send(json.dumps({"cmd": "info", "id": i}))
        got = {}
        while len(got) < FLOOD:
            obj = json.loads(flood.recv(timeout=60))
            if "id" in obj:
                assert obj["id"] not in got
                got[obj["id"]] = obj
        answered = [r for r in got.values() if r.get("ok")]
        busy = [r for r in got.values() if not r.get("ok")]
        assert answered and busy and all(r["error"] == "busy" for r in busy), busy[:3]
        other.send(json.dumps({"cmd": "state", "id": "mine"}))  # the other page is served on
        while json.loads(other.recv(timeout=10)).get("id") != "mine":
            pass
        open_.still_attached()
        assert demo.wait(120) == 0, demo.stdout.read()  # the demo ran to its end
        assert board_counts(open_.hub) == before  # the board's kept games and their counts are untouched
    finally:
        if demo is not None and demo.poll() is None:
            demo.terminate()
            demo.wait(10)
        open_.close()


def test_open_hands_the_browser_a_private_file_not_the_token(monkeypatch, tmp_path):
    from pegboard.commands import web as webcmd

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    opened = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url))
    url = "http://127.0.0.1:8421/#token=s3cret<&\">"
    path = webcmd.open_page(url)
    assert opened == [path.as_uri()] and "s3cret" not in opened[0]
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    text = path.read_text()
    assert 'content="0;url=http://127.0.0.1:8421/#token=s3cret&lt;&amp;&quot;&gt;"' in text


ATTACK = """<!DOCTYPE html><meta charset="utf-8"><body><script>
window.seen = {};
function tryIt(name, token) {
  var ws = new WebSocket("ws://%(host)s:%(port)d/ws");
  ws.onopen = function () { seen[name + "_open"] = true; ws.send(JSON.stringify({web: "hello", token: token})); };
  ws.onmessage = function (m) { seen[name] = String(m.data); };
  ws.onclose = function () { seen[name + "_closed"] = true; };
}
tryIt("direct", "");
window.addEventListener("message", function (m) {
  if (m.data.got) seen[m.data.name] = m.data.got; else seen[m.data.name + "_closed"] = true;
});
</script>
<iframe sandbox="allow-scripts" srcdoc='<script>
var ws = new WebSocket("ws://%(host)s:%(port)d/ws"), got = null;
ws.onopen = function () { ws.send(JSON.stringify({web: "hello", token: ""})); };
ws.onmessage = function (m) { parent.postMessage({name: "framed", got: String(m.data)}, "*"); };
ws.onclose = function () { parent.postMessage({name: "framed", got: null}, "*"); };
</script>'></iframe>"""


def test_a_page_of_another_site_or_a_sandboxed_frame_reads_nothing(browser, board):  # noqa: F811
    """Chromium on another site's page (another local server: its own origin; and an opaque "null" one
    in a sandboxed frame) reaching for the board's server, here one serving spectators too (--host):
    neither is let in."""
    import http.server
    import threading
    from urllib.parse import urlsplit

    from websupport import WebProcess

    w = WebProcess(board.link, "--host", "127.0.0.2")
    body = ATTACK % {"host": urlsplit(w.base).hostname, "port": urlsplit(w.base).port}

    class Site(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto("http://127.0.0.1:%d/" % site.server_address[1])
        page.wait_for_function("(seen.direct || seen.direct_closed) && (seen.framed || seen.framed_closed)",
                               timeout=20000)
        seen = page.evaluate("seen")
        assert not seen.get("direct") and not seen.get("framed"), seen
        ctx.close()
    finally:
        site.shutdown()
        w.stop()


def test_bidi_and_other_format_controls_are_shown_as_escapes_not_obeyed():
    # U+202E would print the rest of a name reversed; a zero-width joiner or an isolate hides text
    import io
    import unicodedata

    from pegboard.safe_text import SafeWriter, printable

    name = "evil\u202egnp.exe\u2066x\u2069\u200b"
    assert printable(name) == "evil\\u202egnp.exe\\u2066x\\u2069\\u200b"
    out = io.StringIO()
    SafeWriter(out).write(name + "\tok\n")
    assert out.getvalue() == "evil\\u202egnp.exe\\u2066x\\u2069\\u200b\tok\n"
    left = [hex(c) for c in range(0x10000) if unicodedata.category(chr(c)) == "Cf" and printable(chr(c)) == chr(c)]
    assert left == []
