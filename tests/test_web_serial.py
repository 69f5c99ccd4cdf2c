"""The page's Web Serial path: the one-file page `pegboard deploy` puts on the drive (pegboard.html),
opened from a file as a player would open it from the drive, with a stand-in `navigator.serial`
injected by the test. Its port is wired, through a test-only WebSocket, to the simulated board's
data port: the page opens it (asserting DTR), follows a game the hand plays to the verdict, asks for
a hint, and says so when the board is unplugged, catching up when it is back."""

from __future__ import annotations

import threading

import pytest
from websupport import browser, board, wait_page  # noqa: F401 - fixtures
from support import jump

from test_web_page import solution

FAKE_SERIAL = """
(() => {
  const url = "ws://127.0.0.1:%d/";
  class FakePort extends EventTarget {
    constructor() { super(); this.readable = null; this.writable = null; this.ws = null; this.signals = {}; }
    getInfo() { return { usbVendorId: 0x239A, usbProductId: 0x80F4 }; }
    open(options) {
      window.__serialOptions = options;
      return new Promise((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.binaryType = "arraybuffer";
        let ctrl = null;
        ws.onopen = () => {
          this.ws = ws;
          this.readable = new ReadableStream({ start(c) { ctrl = c; } });
          this.writable = new WritableStream({ write(chunk) { ws.send(chunk); } });
          window.__serialOpened = (window.__serialOpened || 0) + 1;
          resolve();
        };
        ws.onmessage = (m) => { if (ctrl) ctrl.enqueue(new Uint8Array(m.data)); };
        ws.onerror = () => reject(new DOMException("Failed to open serial port.", "NetworkError"));
        ws.onclose = () => {
          if (this.ws !== ws) return;
          this.ws = null;
          try { ctrl.error(new DOMException("The device has been lost.", "NetworkError")); } catch (e) {}
        };
      });
    }
    async setSignals(s) { Object.assign(this.signals, s); window.__serialSignals = Object.assign({}, this.signals); }
    async close() {
      const ws = this.ws;
      this.ws = null;
      if (ws) ws.close();
      this.readable = null;
      this.writable = null;
    }
  }
  const port = new FakePort();
  let granted = false;
  const serial = {
    requestPort: async () => { granted = true; return port; },
    getPorts: async () => (granted ? [port] : []),
    addEventListener() {}, removeEventListener() {}
  };
  Object.defineProperty(Navigator.prototype, "serial", { get: () => serial, configurable: true });
})();
"""


class PortOverWebSocket:
    """A test-only WebSocket server: each connection opens the simulated board's data port (refused
    while it is unplugged) and passes bytes both ways; the port failing closes the connection."""

    def __init__(self, port_path: str) -> None:
        from websockets.sync.server import serve

        self.path = port_path
        self.ports: dict[int, object] = {}
        self.server = serve(self.handler, "127.0.0.1", 0, process_request=self.check)
        self.port = self.server.socket.getsockname()[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def check(self, connection, request):
        import serial

        try:
            self.ports[id(connection)] = serial.Serial(self.path, timeout=0.05)
        except (OSError, serial.SerialException):
            return connection.respond(503, "the board is unplugged\n")
        return None

    def handler(self, ws):
        port = self.ports.pop(id(ws))
        done = threading.Event()

        def board_to_page():
            try:
                while not done.is_set():
                    data = port.read(4096)
                    if data:
                        ws.send(data)
            except Exception:  # noqa: BLE001 - unplugged: the page's port is lost
                pass
            done.set()
            ws.close()

        t = threading.Thread(target=board_to_page, daemon=True)
        t.start()
        try:
            for message in ws:
                port.write(message if isinstance(message, bytes) else message.encode())
        except Exception:  # noqa: BLE001 - the page closed its port, or the board went
            pass
        done.set()
        t.join(2)
        port.close()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def wired(board):  # noqa: F811
    w = PortOverWebSocket(board.link)
    try:
        yield w
    finally:
        w.close()


def test_web_serial_plays_a_game_from_the_page_on_the_drive(browser, board, wired, tmp_path):  # noqa: F811
    from pegboard.web.page import DRIVE_NAME, single_file

    html = tmp_path / DRIVE_NAME
    html.write_text(single_file(), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(FAKE_SERIAL % wired.port)
    page.goto(html.as_uri())
    assert "not connected" in page.inner_text("#conn")
    page.click("#usb")
    wait_page(page, "window.pegboardPage && pegboardPage.states > 0", what="the page connected by Web Serial")
    assert page.evaluate("window.__serialSignals") == {"dataTerminalReady": True}
    assert "by USB" in page.inner_text("#conn")
    assert page.evaluate("pegboardPage.info.holes") == 15
    page.keyboard.press("h")  # a request over Web Serial
    wait_page(page, "pegboardPage.events.some(e => e.event === 'hint')", what="the hint")
    moves = solution()
    for k, mv in enumerate(moves[:4], 1):
        jump(board, mv)
        wait_page(page, "(pegboardPage.st.moves || []).length === %d" % k, what="move %d" % k)
    # unplugged: the page says so; the moves made meanwhile are caught up when the port is back
    board.control("unplug")
    wait_page(page, "document.body.classList.contains('offline')", what="the page saying the board is gone")
    for mv in moves[4:6]:
        jump(board, mv)
    board.control("replug")
    wait_page(page, "(pegboardPage.st.moves || []).length === 6", timeout=15, what="the page catching up")
    assert page.evaluate("pegboardPage.events.filter(e => e.event === 'resync').pop().missed") == moves[4:6]
    assert page.evaluate("window.__serialOpened") == 2
    for k, mv in enumerate(moves[6:], 7):
        jump(board, mv)
        wait_page(page, "(pegboardPage.st.moves || []).length === %d" % k, what="move %d" % k)
    wait_page(page, "!document.getElementById('banner').hidden", what="the verdict")
    assert "You won" in page.inner_text("#banner")
    # clicks on a real board's holes move nothing: the page says to move the real pegs
    page.click("#hole-1")
    assert "lift and place the real pegs" in page.inner_text("#log")
    assert not errors
    ctx.close()
