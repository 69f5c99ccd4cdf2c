"""`pegboard web`'s server: the page's files over HTTP and one WebSocket per browser (the
`websockets` library, asyncio), in front of the Bridge (pegboard.web.bridge) that shares the board
through its hub.

Who may do what: a browser that brings the token (the page's address printed by `pegboard web`
carries it after the #, which a browser never sends; the page hands it over in its first
WebSocket message, never in a URL) may send any request and, on a simulated board, move its pegs.
On a loopback bind that is every page: a WebSocket without the token is closed. Served on the
network (`--host`), a page without it is a spectator: it sees the board, may ask only what changes
nothing (READS) and is refused anything else here, before the board hears of it (`read_only`),
and never learns the board's port. A WebSocket opened from another site's page (its Origin not
this server's, or opaque: "null") is refused outright, and so is any request whose Host is not one
of this server's names (DNS rebinding).

Limits: VIEWERS_MAX pages in all and PER_ADDRESS_MAX from one address (more are refused with 503
before the upgrade); of those, SPECTATORS_MAX spectators and SPECTATORS_PER_ADDRESS from one address
(more are closed after their hello: spectators never take the places players need, and no one
address takes them all); IN_FLIGHT requests on their way per page (more are answered `busy`). A
WebSocket counts as a page only once it has said hello: until then it is one of at most
GREETING_PER_ADDRESS from its address (GREETING_MAX in all), and a newer one closes the oldest, so
sockets that never say hello hold no page's place.
A browser never holds the board up: what it has not taken is kept up to BACKLOG messages, past
that it is closed (it reconnects and catches up); one that goes away leaves nothing waiting."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import secrets
from typing import Any, Callable
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from pegboard.web.page import static_file

READS = ("state", "info", "stats")   # what a viewer without the token may ask
BACKLOG = 2000                       # messages a browser may leave untaken before it is closed
MESSAGE_MAX = 4096                   # a browser's message longer than this is ignored
VIEWERS_MAX = 64                     # pages open at once (each holds a descriptor and a queue)
PER_ADDRESS_MAX = 32                 # of those, from one address (every local page is 127.0.0.1)
SPECTATORS_MAX = 48                  # of those, spectators (--host): the other 16 places stay the players'
SPECTATORS_PER_ADDRESS = 8           # spectators from one address
GREETING_PER_ADDRESS = 16            # WebSockets from one address that have not said hello yet (pages opening at once)
GREETING_MAX = 64                    # ... from any: past either, a newer one closes the oldest
IN_FLIGHT = 8                        # a page's requests on their way to the board; more are answered busy
HELLO_S = 5.0                        # a WebSocket whose first message (the page's hello) is later is closed
REFUSED = 4001                       # the close code for a page without the token where one is needed
SILENT = 4002                        # the close code for a WebSocket that said no hello
HAND = {"lift": ("hole",), "place": ("hole",), "fill": ("empty",), "clear": (), "set": ("pegs",),
        "press": ("ms",)}            # the simulated hand's moves a player's page may make

logging.getLogger("websockets").setLevel(logging.CRITICAL)  # a browser closing a tab is not news


class Viewer:
    def __init__(self, ws: ServerConnection, control: bool, number: int, address: str) -> None:
        self.ws = ws
        self.control = control
        self.number = number
        self.address = address
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.closed = False
        self.in_flight = 0  # requests given to the bridge and not answered yet


class WebServer:
    """`hand(cmd, **args)`: the simulated board's control port, or None on a real board. Set
    `bridge` before `serve`."""

    def __init__(self, token: str, hand: Callable[..., dict[str, Any]] | None = None,
                 spectators: bool = False) -> None:
        self.token = token
        self.hand = hand
        self.spectators = spectators  # pages without the token may watch (served on the network)
        self.greeting: list[tuple[str, ServerConnection]] = []  # WebSockets yet to say hello, oldest first
        self.bridge: Any = None
        self.viewers: set[Viewer] = set()
        self.numbers = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopped: asyncio.Event | None = None
        self.allowed_hosts: set[str] = set()  # set by serve() once the port is bound (allow())
        self.any_ip_port: int | None = None

    # -- from the bridge's thread -----------------------------------------------------------------
    def deliver(self, viewer: Viewer | None, text: str) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._deliver, viewer, text)

    def _deliver(self, viewer: Viewer | None, text: str) -> None:
        if viewer is not None and viewer.in_flight > 0:
            viewer.in_flight -= 1  # a reply: one request fewer on its way
        for v in [viewer] if viewer is not None else list(self.viewers):
            if v.closed:
                continue
            if not v.control and text.startswith('{"web"'):
                text = self.spectators_copy(text)
            if v.queue.qsize() >= BACKLOG:
                v.closed = True  # too slow: closed; its page reconnects and catches up
                asyncio.ensure_future(v.ws.close(1008, "too far behind"))
                continue
            v.queue.put_nowait(text)

    # -- HTTP --------------------------------------------------------------------------------------
    def http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = urlsplit(request.path).path
        host = request.headers.get("Host", "")
        if not self.host_allowed(host):
            # another name for this address: DNS rebinding (a site whose name now points here), refused
            return connection.respond(403, "Host %r is not this server's: open the address pegboard web printed\n"
                                      % host[:100])
        if path == "/ws":
            origin = request.headers.get("Origin")
            # a browser always says whose page opens a WebSocket: only this server's own may; an opaque
            # origin ("null": a sandboxed frame, a file) is anyone's. A program that is no browser sends none.
            if origin is not None and origin != "http://" + host:
                return connection.respond(403, "a WebSocket from another site's page is refused\n")
            if self.full(self.address_of(connection)):
                return connection.respond(503, "too many pages are open on this board's server: close some\n")
            return None
        got = static_file(path)
        if got is None:
            return connection.respond(404, "not found\n")
        body, kind = got
        headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))), ("Cache-Control", "no-cache"),
                           ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                           # no other site may frame the page (clickjacking the controls)
                           ("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Frame-Options", "DENY"),
                           ("Connection", "close")])
        return Response(200, "OK", headers, body)

    @staticmethod
    def address_of(connection: ServerConnection) -> str:
        try:
            return str(connection.remote_address[0])
        except (TypeError, IndexError):
            return "?"

    def spectators_copy(self, text: str) -> str:
        """A {"web": ...} line as a spectator sees it: without the board's port."""
        try:
            obj = json.loads(text)
        except ValueError:
            return text
        if isinstance(obj, dict) and "port" in obj:
            del obj["port"]
            return json.dumps(obj)
        return text

    # -- one browser ---------------------------------------------------------------------------------
    def full(self, address: str) -> bool:
        """No place for another page from `address`, whoever it is."""
        return len(self.viewers) >= VIEWERS_MAX or \
            sum(v.address == address for v in self.viewers) >= PER_ADDRESS_MAX

    def room_for(self, address: str, control: bool) -> bool:
        """A place for a page that said hello: a spectator's also within the spectators' caps."""
        if self.full(address):
            return False
        spectators = [v for v in self.viewers if not v.control]
        return control or (len(spectators) < SPECTATORS_MAX and
                           sum(v.address == address for v in spectators) < SPECTATORS_PER_ADDRESS)

    def make_room_to_greet(self, address: str) -> None:
        """Close the oldest WebSocket yet to say hello from `address` (or from any) when there are as
        many as may wait: a page says hello as it opens, so the oldest silent one is the idle one."""
        mine = [g for g in self.greeting if g[0] == address]
        if len(mine) >= GREETING_PER_ADDRESS:
            self._close_silent(mine[0])
        if len(self.greeting) >= GREETING_MAX:
            self._close_silent(self.greeting[0])

    def _close_silent(self, greeting: tuple[str, ServerConnection]) -> None:
        self.greeting.remove(greeting)
        asyncio.ensure_future(greeting[1].close(SILENT, "no hello: newer pages came"))

    async def handler(self, ws: ServerConnection) -> None:
        address = self.address_of(ws)
        self.make_room_to_greet(address)
        greeting = (address, ws)
        self.greeting.append(greeting)
        try:
            control = await self._hello(ws)
        finally:
            if greeting in self.greeting:
                self.greeting.remove(greeting)
        if control is None:
            return
        if not self.room_for(address, control):  # checked again here: others said hello meanwhile
            await ws.close(1013, "too many pages are open on this board's server: close some")
            return
        await self._serve_page(ws, control, address)

    async def _hello(self, ws: ServerConnection) -> bool | None:
        """The page's first message, {"web": "hello", "token": ...}: whether it brought the token; None
        when the page may not stay (no hello in HELLO_S, or no token where one is needed)."""
        try:
            first = await asyncio.wait_for(ws.recv(), HELLO_S)
        except asyncio.TimeoutError:
            await ws.close(SILENT, "no hello in %.0f s" % HELLO_S)
            return None
        except ConnectionClosed:
            return None
        try:
            obj = json.loads(first) if isinstance(first, str) and len(first) <= MESSAGE_MAX else None
        except ValueError:
            obj = None
        given = obj.get("token") if isinstance(obj, dict) and obj.get("web") == "hello" else None
        control = isinstance(given, str) and secrets.compare_digest(given.encode("utf-8", "replace"),
                                                                    self.token.encode())
        if control or self.spectators:
            return control
        await ws.close(REFUSED, "this page has no token: open the address pegboard web printed, with its #token")
        return None

    async def _serve_page(self, ws: ServerConnection, control: bool, address: str) -> None:
        self.numbers += 1
        v = Viewer(ws, control, self.numbers, address)
        self.viewers.add(v)
        hello = {"web": "hello", "control": control, "sim": self.hand is not None, "board": bool(self.bridge.board_up)}
        if control:
            hello["port"] = self.bridge.port
        v.queue.put_nowait(json.dumps(hello))
        sender = asyncio.ensure_future(self._sender(v))
        try:
            async for message in ws:
                # a page whose own answers pile up is read no further until they go out: its
                # requests wait in its socket (it slows itself), instead of it being closed as too
                # far behind, and the others are served meanwhile
                while v.queue.qsize() >= BACKLOG // 2 and not v.closed:
                    await asyncio.sleep(0.01)
                if isinstance(message, str) and len(message) <= MESSAGE_MAX:
                    await self._message(v, message)
        except ConnectionClosed:
            pass
        finally:
            v.closed = True
            self.viewers.discard(v)
            sender.cancel()
            self.bridge.forget(v)

    async def _sender(self, v: Viewer) -> None:
        try:
            while True:
                await v.ws.send(await v.queue.get())
        except (ConnectionClosed, asyncio.CancelledError):
            return

    async def _message(self, v: Viewer, text: str) -> None:
        try:
            obj = json.loads(text)
        except ValueError:
            return
        if not isinstance(obj, dict):
            return
        if "hand" in obj:
            await self._hand(v, obj)
        elif "cmd" in obj:
            if not v.control and obj.get("cmd") not in READS:
                self._refuse(v, obj, "read_only", "this page only watches: the address with the token printed by "
                                                  "pegboard web can send requests")
            elif v.in_flight >= IN_FLIGHT:
                self._refuse(v, obj, "busy", "this page has %d requests waiting for the board's answers: wait for "
                                             "one" % v.in_flight)
            else:
                v.in_flight += 1
                self.bridge.submit(v, obj)

    @staticmethod
    def _refuse(v: Viewer, obj: dict[str, Any], error: str, message: str) -> None:
        """Answer a page's request here, before the board hears of it."""
        reply: dict[str, Any] = {"ok": False, "error": error, "message": message}
        if "id" in obj:
            reply = dict({"id": obj["id"]}, **reply)
        v.queue.put_nowait(json.dumps(reply))

    async def _hand(self, v: Viewer, obj: dict[str, Any]) -> None:
        cmd = obj.get("hand")
        out: dict[str, Any] = {"web": "hand", "id": obj.get("id")}
        if not v.control:
            out.update(ok=False, message="this page only watches: it cannot move pegs")
        elif self.hand is None:
            out.update(ok=False, message="move the real pegs: the page moves pegs only on a simulated board")
        elif cmd not in HAND:
            out.update(ok=False, message="no such move of the hand: %r" % (cmd,))
        else:
            args = {k: obj[k] for k in HAND[str(cmd)] if k in obj}
            try:
                got = await asyncio.to_thread(self.hand, cmd, **args)
                out.update(ok=True, pegs=got.get("pegs"))
            except Exception as e:  # noqa: BLE001 - the hand's refusal (no peg there ...) is the page's to show
                out.update(ok=False, message=str(e))
        v.queue.put_nowait(json.dumps(out))

    # -- the server ----------------------------------------------------------------------------------
    def allow(self, host: str, port: int) -> None:
        """The Host headers this server answers: its loopback names and the --host it was bound to, with its
        port. Bound to every address (LAN use), any IP address too (a browser on the LAN gives the one it
        used); a DNS name never, but localhost: a name is what DNS rebinding brings."""
        names = {"localhost", "127.0.0.1", "[::1]"}
        if host and host not in ("0.0.0.0", "::"):
            names.add("[%s]" % host if ":" in host else host)
        self.allowed_hosts = {"%s:%d" % (n, port) for n in names}
        self.any_ip_port = port if host in ("0.0.0.0", "::", "") else None

    def host_allowed(self, host: str) -> bool:
        if host in self.allowed_hosts:
            return True
        if self.any_ip_port is None:
            return False
        name, _, port = host.rpartition(":")
        try:
            ipaddress.ip_address(name.strip("[]"))
        except ValueError:
            return False
        return port == str(self.any_ip_port)

    async def serve(self, host: str, port: int, ready: Callable[[int], None]) -> None:
        self.loop = asyncio.get_running_loop()
        self.stopped = asyncio.Event()
        async with serve(self.handler, host, port, process_request=self.http, max_size=MESSAGE_MAX * 4,
                         compression=None) as server:
            bound = [s.getsockname()[1] for s in server.sockets]
            self.allow(host, int(bound[0]))
            ready(int(bound[0]))
            await self.stopped.wait()

    def stop(self) -> None:
        if self.loop is not None and self.stopped is not None:
            self.loop.call_soon_threadsafe(self.stopped.set)
