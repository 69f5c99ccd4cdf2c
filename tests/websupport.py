"""What the browser page's tests share (tests/test_web*.py): the system's Chromium driven by
Playwright (never a downloaded browser; without either the tests skip, saying why, and under CI=true
fail, saying it), a simulated board the `pegboard web` command finds with its hand, that command in
a process of its own, and a tap on the board's hub that sees every line that reaches the board."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from support import until

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_path() -> str | None:
    """$PEGBOARD_CHROMIUM, else Debian's chromium (or another system Chromium on PATH)."""
    given = os.environ.get("PEGBOARD_CHROMIUM")
    if given:
        return given if os.path.exists(given) else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def on_ci() -> bool:
    """CI=true (GitHub Actions and most CI services set it): a browser suite that cannot run there fails."""
    return os.environ.get("CI", "").strip().lower() == "true"


def missing(reason: str) -> None:
    """Skip with the reason; on CI, fail with it: there the page's tests must run, not vanish."""
    if on_ci():
        pytest.fail("CI=true: %s (the browser suite must run on CI, not be skipped)" % reason, pytrace=False)
    pytest.skip(reason)


def need_browser() -> str:
    """The Chromium to drive, or the test skips with the plain reason (fails with it under CI=true)."""
    if sys.platform == "win32":
        pytest.skip("the page's tests run against the simulated board, which needs pseudo-terminals (Linux, macOS)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("playwright is not installed (pip install -e '.[dev]'): the browser page's tests need it")
    path = chromium_path()
    if path is None:
        missing("no Chromium on this machine (Debian: apt-get install chromium; or set PEGBOARD_CHROMIUM): "
                "the browser page's tests need one")
    assert path is not None
    return path


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (the system's), one a test module."""
    path = need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=["--disable-gpu", "--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def announced_board(tmp_path, runtime=None):
    """A simulated board at a stable path, announced in the runtime folder with its control port
    (as `pegboard sim` does), filled with hole 1 empty: a generator for a fixture."""
    from pegboard.link import runtime_file
    from pegboard.sim.simulator import Simulator

    link = str(tmp_path / "board")
    with Simulator(link=link, **({"runtime": runtime} if runtime else {})) as sim:
        sim.link = link
        announced = runtime_file.write(link, sim.control_path)
        try:
            # the firmware first (thumbvm boots in emulated cycles: many seconds of a loaded PC's time, past
            # wait_idle's 10 s deadline when the fill comes before it has started)
            until(lambda: any(" ready:" in line for line in sim.console), 120, "the firmware to start", every=0.2)
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            yield sim
        finally:
            runtime_file.remove(announced)


@pytest.fixture
def board(tmp_path):
    yield from announced_board(tmp_path)


class WebProcess:
    """`pegboard web --port PORT --web-port 0 ...` in a process of its own; `page` and `view` are the
    addresses it printed."""

    def __init__(self, port: str, *more: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "pegboard", "web", "--port", port, "--web-port", "0", *more],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        self.port = port
        self.page = self.view = None
        self.said = []
        deadline = time.monotonic() + 30
        while self.page is None or (self.view is None and "--host" in more):
            line = self.p.stdout.readline()
            if not line:
                raise AssertionError("pegboard web ended: %s" % self.p.stderr.read())
            self.said.append(line)
            if line.startswith("page: "):
                self.page = line.split()[1]
            elif line.startswith("view: "):
                self.view = line.split()[1]
            assert time.monotonic() < deadline, "pegboard web printed no address"
        self.base = self.page.split("#", 1)[0]
        self.token = self.page.split("#token=", 1)[1]

    def stop(self) -> int:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGINT)
            try:
                self.p.wait(15)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(5)
        return self.p.returncode


@pytest.fixture
def web(board):
    """`pegboard web` on the simulated board."""
    w = WebProcess(board.link)
    try:
        yield w
    finally:
        w.stop()


def after_the_pages_next_request(tap: "Tap", page, who: str = "pegboard web") -> None:
    """Wait until an `info` the page asks now has passed the hub (a read any page may make, and one
    the bridge never answers from a cache, as it may a `state`): whatever the page sent before it has
    passed too (one WebSocket, one bridge, in order), so what the tap holds then is complete."""
    before = len(tap.requests("info", who=who))
    page.evaluate("pegboardPage.proto.request('info')")
    until(lambda: len(tap.requests("info", who=who)) > before, 20, "the page's info request at the hub")


class Tap:
    """Every line that passes the board's hub (as `pegboard monitor` sees them), kept with who sent
    each request."""

    def __init__(self, port: str) -> None:
        from pegboard.link.hub_link import HubLink

        self.link = HubLink(port, port=port, name="test tap", tap=True).open()
        self.lines: list[tuple[str, str, dict]] = []  # (arrow, who, obj)
        self.stopping = threading.Event()

        def tap(arrow: str, line: bytes) -> None:
            try:
                obj = json.loads(line)
            except ValueError:
                obj = {"raw": line.decode("utf-8", "replace")}
            self.lines.append((arrow, self.link.tap_from, obj if isinstance(obj, dict) else {"raw": obj}))

        self.link.tap = tap
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stopping.is_set():
            try:
                self.link.read_line(0.05)
            except Exception as e:  # noqa: BLE001 - kept: a tap that stopped seeing lines fails its test
                self.died = e
                return

    died: Exception | None = None

    def requests(self, cmd: str | None = None, who: str | None = None) -> list[dict]:
        """The requests seen, by command and sender; a tap that stopped reading fails the test here,
        so "nothing reached the board" is never read from a dead tap."""
        if self.died is not None or not self.thread.is_alive():
            raise AssertionError("the tap stopped reading the hub: %r" % (self.died,))
        return [o for a, w, o in list(self.lines) if a == ">" and (cmd is None or o.get("cmd") == cmd)
                and (who is None or who in w)]

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(2)
        self.link.close()


def open_page(browser, url: str, width: int = 1280, height: int = 800):
    """A new page (its own context: its own storage, as another person's browser) at `url`, once it
    is connected and has drawn the board."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.ws_in = []  # every WebSocket message the page received, as it came: what reached it
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: page.ws_in.append(payload)))
    page.goto(url)
    page.wait_for_function("window.pegboardPage && pegboardPage.states > 0", timeout=15000)
    return page


def replies_received(page) -> list[dict]:
    """The replies (objects with an id) among the WebSocket messages the page received."""
    out = []
    for message in list(page.ws_in):
        for line in (message if isinstance(message, str) else message.decode()).splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and "id" in obj and "event" not in obj:
                out.append(obj)
    return out


def page_state(page) -> dict:
    return page.evaluate("pegboardPage.st")


def wait_page(page, js: str, timeout: float = 10.0, what: str = "") -> None:
    """Until the expression `js` is true in the page."""
    try:
        page.wait_for_function(js, timeout=timeout * 1000, polling=10)
    except Exception as e:  # playwright's TimeoutError: say what was awaited
        raise AssertionError("timed out after %.0f s waiting for %s (%s): %s"
                             % (timeout, what or js, js, page.evaluate("pegboardPage.st"))) from e
