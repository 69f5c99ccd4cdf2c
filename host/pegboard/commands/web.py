"""`pegboard web`: the board in a browser (docs/web.md). Serves the page on 127.0.0.1 (or --host) and
bridges a WebSocket to the board, found as every command finds it, through the board's hub: one more
program sharing the board."""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import secrets
import socket
from pathlib import Path
from typing import Any, Callable

from pegboard.commands.boardargs import PORT_HELP, open_link
from pegboard.commands.cli import EXIT_STATUS_UNTIL_STOPPED, Subcommands
from pegboard.commands.usage import UsageError

DEFAULT_WEB_PORT = 8421
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")  # served to this computer only: every page needs the token


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "web", help="the board in a browser: serves a live page of the board and bridges it to the board",
        description="Serves the page that shows the board live (pegs, lights, mode, verdict, moves, stats) "
                    "and plays it (hint, demo, watch, stop, new game, play from here, a solution file) on "
                    "http://127.0.0.1:PORT, printing its address; any number of browsers at once. The address "
                    "printed carries a token after the #: without it a page is not let in (with --host, it "
                    "only watches). On a "
                    "simulated board the page moves pegs when you click. The same page, opened as a file "
                    "(the pegboard.html that `pegboard deploy` puts on the board's drive) in Chrome or Edge, "
                    "reaches a board by USB (Web Serial) with nothing installed. docs/web.md has the details.",
        epilog=EXIT_STATUS_UNTIL_STOPPED)
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--host", default="127.0.0.1", metavar="ADDR",
                   help="the address to serve on (default 127.0.0.1: this computer only, and every page needs the "
                        "token); e.g. 0.0.0.0 to show the board on the local network: pages there watch, and play "
                        "only with the token")
    p.add_argument("--web-port", type=int, default=DEFAULT_WEB_PORT, metavar="N",
                   help="the page's TCP port (default %d; 0: any free one)" % DEFAULT_WEB_PORT)
    p.add_argument("--open", action="store_true", help="open the page in the default browser too")
    p.set_defaults(func=web)


def sim_hand(*ports: str | None) -> Callable[..., dict[str, Any]] | None:
    """The control port (the virtual hand) of the running simulator whose data port is one of
    `ports`, else None (a real board)."""
    from pegboard.link.runtime_file import running

    real = {os.path.realpath(p) for p in ports if p}
    for sim in running():
        if sim.get("control") and os.path.realpath(sim["data"]) in real:
            from pegboard.sim.hand import Hand  # POSIX only, as the simulator is

            return Hand(sim["control"])
    return None


def _shown_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return "[%s]" % host if ":" in host else host


def redirect_file(url: str) -> Path:
    """A page of the user's own (0600, in the runtime folder) that sends the browser on to `url`:
    opened by its file name, so the token is never on a command line other users can read (the
    browser's), as Jupyter's server does. Raises OSError."""
    from pegboard.link.runtime_file import runtime_dir, write_private

    path = runtime_dir() / ("web-%d-open.html" % os.getpid())
    shown = html.escape(url, quote=True)
    write_private(path, '<!DOCTYPE html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0;url=%s">\n'
                        '<title>pegboard</title>\n<p>Opening <a href="%s">the board\'s page</a>...</p>\n'
                        % (shown, shown))
    return path


def open_page(url: str) -> Path | None:
    """Open the page in the default browser through a redirect file; the file, or None (said why)."""
    import webbrowser

    try:
        path = redirect_file(url)
    except OSError as e:
        print("(cannot open a browser: the page that sends it on could not be written: %s)" % e, flush=True)
        return None
    webbrowser.open(path.as_uri())
    return path


def web(args: argparse.Namespace) -> int:
    from pegboard.web.bridge import Bridge
    from pegboard.web.server import WebServer

    if not 0 <= args.web_port <= 65535:
        raise UsageError("--web-port must be 0..65535")
    link = open_link(args)  # no board: NoBoard, exit 1, before anything is served
    token = secrets.token_urlsafe(12)
    hand = sim_hand(link.target, link.connected_to)
    server = WebServer(token, hand, spectators=args.host not in LOCAL_HOSTS)
    bridge = Bridge(lambda: open_link(args), server.deliver, link)
    server.bridge = bridge
    what = "the simulated board" if hand else "the board"
    opened: list[Path | None] = []  # the page that sent the browser on: removed at the end

    def ready(port: int) -> None:
        base = "http://%s:%d/" % (_shown_host(args.host), port)
        print("page: %s#token=%s" % (base, token), flush=True)
        if server.spectators:
            print("view: %s   (read-only: for spectators on the network)" % base, flush=True)
        print("(%s on %s; open the page in a browser, any number at once; %s. Ctrl-C stops.)"
              % (what, link.connected_to or link.target,
                 "the address with the token plays, without it a page only watches" if server.spectators
                 else "only the address with the token is let in"), flush=True)
        if args.open:
            opened.append(open_page("http://127.0.0.1:%d/#token=%s" % (port, token) if args.host == "127.0.0.1"
                                    else "%s#token=%s" % (base, token)))

    bridge.start()
    try:
        asyncio.run(server.serve(args.host, args.web_port, ready))
    except OSError as e:
        raise UsageError("cannot serve on %s port %d: %s" % (args.host, args.web_port, e.strerror or e)) from None
    except KeyboardInterrupt:
        pass
    finally:
        bridge.stop()
        bridge.join(5)
        close = getattr(hand, "close", None)
        if close:
            close()
        for path in opened:
            if path is not None:
                path.unlink(missing_ok=True)
    return 0
