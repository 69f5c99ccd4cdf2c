"""`pegboard mirror` and `pegboard run` (the main job behind `make run`; `run --sim` plays the
simulated board even with a real one plugged in)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from pegboard.commands.cli import EXIT_STATUS_UNTIL_STOPPED, Subcommands
from pegboard.commands.boardargs import PORT_HELP, connect, describe_state
from pegboard.link.client import BoardClient, BoardError
from pegboard.pictures.text import move_text
from pegboard.tui.words import event_text, pegs


def register(sub: Subcommands) -> None:
    p = sub.add_parser("mirror", help="live view of the board in the terminal (Textual UI)",
                       description="Shows the board live: every move, hint and demo step as it happens, the "
                                   "holes in the colours the board lights them, a legend, a log in plain words, "
                                   "and keys for hint, demo, solver show, stop, new game and a solution browser. "
                                   "On a running `pegboard sim` clicking a hole moves a peg. Without a terminal "
                                   "(or with --plain) it prints the events and the board after each change.",
                       epilog=EXIT_STATUS_UNTIL_STOPPED)
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--plain", action="store_true", help="print text frames instead (logs, non-terminals)")
    p.set_defaults(func=mirror)
    p = sub.add_parser("run", help="the main job: mirror the real board if plugged in, else play the simulated one",
                       description="Mirrors a plugged-in board; else a running simulated board (`pegboard sim`, "
                                   "or another `pegboard run`'s) until it stops; else starts a "
                                   "simulated board to play on in the terminal: click the jumping peg, then the "
                                   "empty hole it lands in, then the jumped peg. Without a terminal it prints a "
                                   "demonstration: the board after each move of a solution.")
    p.add_argument("--sim", action="store_true", help="play the simulated board even if a board is plugged in")
    p.add_argument("--runtime", choices=["cpython", "micropython"], default="cpython",
                   help="the simulated board's runtime (with --sim, or when no board is found)")
    p.add_argument("--empty", type=int, default=1, help="the simulated board starts with this hole empty (default 1)")
    p.set_defaults(func=run)


def _hand_for(port: str | None):
    """The control port of the running simulator whose data port this is, else None."""
    from pegboard.sim.hand import Hand
    from pegboard.link.runtime_file import running

    for sim in running():
        if port and sim.get("control") and os.path.realpath(sim["data"]) == os.path.realpath(port):
            return Hand(sim["control"])
    return None


# why a command meant for a terminal prints text instead: one line on stderr
NO_TERMINAL_MIRROR = ("pegboard: no terminal: printing the board's events as text instead of the live view "
                      "(run it in a terminal for the live view)")
NO_TERMINAL_PLAY = ("pegboard: no terminal: printing a demonstration instead of the interactive board "
                    "(run it in a terminal to play)")


def mirror(args: argparse.Namespace) -> int:
    board = connect(args)
    if args.plain or not sys.stdout.isatty():
        if not args.plain:
            print(NO_TERMINAL_MIRROR, file=sys.stderr, flush=True)
        return _plain(board)
    from pegboard.tui.app import BoardApp

    port = board.connected_to
    hand = _hand_for(port)
    what = "simulated board (%s)" % port if hand else port
    BoardApp(board, hand=hand, title="pegboard mirror: %s" % what).run()
    board.close()
    return 0


def _plain(board: BoardClient, until: float | None = None, stop: threading.Event | None = None) -> int:
    """Events in plain words, and the board after each change (from the board's events, not a timer),
    until `until` (a monotonic time) or `stop`."""
    try:
        st = board.request("state")
        print(describe_state(st) + "\n", flush=True)
        while (until is None or time.monotonic() < until) and not (stop is not None and stop.is_set()):
            events = board.poll(0.1)
            for e in events:
                text = event_text(e)
                if text:
                    print(text, flush=True)
            if any(e.get("event") in FRAME_EVENTS for e in events):
                st = board.request("state")
                print(describe_state(st) + "\n", flush=True)
            elif st.get("mode") == "starting":
                # an empty board ends its start-up with no event (nothing changed on it): asked again
                # until it has read its pegs, shown once it has
                st = board.request("state")
                if st.get("mode") != "starting":
                    print(describe_state(st) + "\n", flush=True)
    except KeyboardInterrupt:
        pass
    except BoardError as e:
        print("pegboard: %s" % e, file=sys.stderr)
        return 1
    return 0


# events after which the pegs or the game changed: worth a new picture
FRAME_EVENTS = ("new_game", "move", "undo", "illegal", "recovered", "game_over", "resumed", "reconnected", "resync")


def play(args: argparse.Namespace) -> int:
    from pegboard.commands.sim import NO_PTYS
    from pegboard.commands.usage import UsageError

    if not 1 <= args.empty <= 15:
        raise UsageError("--empty must be a hole 1..15")
    if sys.platform == "win32":
        raise UsageError(NO_PTYS)
    from pegboard.link import runtime_file
    from pegboard.link.hub_link import HubLink
    from pegboard.sim.simulator import Simulator

    if not sys.stdout.isatty():
        print(NO_TERMINAL_PLAY, file=sys.stderr, flush=True)
    from pegboard.sim import kept_flash

    try:  # its flash kept between runs, as `pegboard sim` keeps it: the games played here stay
        flash = kept_flash.path_of(kept_flash.DEFAULT_NAME)
        kept_flash.load(flash)
    except (kept_flash.FlashError, OSError) as e:
        raise UsageError(str(e)) from None
    try:  # refused while another simulator plays the same kept board (its games would be overwritten)
        sim = Simulator(runtime=args.runtime, flash=flash)
    except kept_flash.FlashError as e:
        raise UsageError(str(e)) from None
    with sim:
        # announced and reached through its hub like any board: `pegboard state`, `monitor` ...
        # in another terminal find it and share it with this screen
        announced = runtime_file.write(sim.data_path, sim.control_path)
        beating = threading.Event()
        threading.Thread(target=_heartbeat, args=(sim, announced, beating), daemon=True).start()
        try:
            return _play(sim, args, HubLink(sim.data_path, port=sim.data_path, name="pegboard run"))
        finally:
            beating.set()
            runtime_file.remove(announced)


def _heartbeat(sim, announced, stop: threading.Event) -> None:
    from pegboard.link import runtime_file

    while not stop.wait(0.5):
        if sim.running:
            runtime_file.beat(announced)


def _play(sim, args: argparse.Namespace, link) -> int:
    """The simulated board filled, then played in the terminal UI (or shown, without a terminal)."""
    board = BoardClient(link=link).open()
    try:
        sim.control("fill", empty=args.empty)
        if not sys.stdout.isatty():
            return _scripted_show(sim, board)
        from pegboard.tui.app import BoardApp

        BoardApp(board, hand=sim.control, title="pegboard run (simulated board)").run()
        return 0
    finally:
        board.close()


def _scripted_show(sim, board: BoardClient) -> int:
    """No terminal to play in: the board demonstrates a solution from the filled board, and each
    move is printed with the position after it (from the moves, not the LEDs, which light the
    move being made)."""
    from pegcore.geometry import Board
    from pegcore.rules import mask_of
    from pegboard.pictures.text import render_board

    sim.control("wait_idle")
    st = board.request("state")
    print(describe_state(st) + "\n", flush=True)
    geometry = Board(5)
    mask = mask_of(st["position"])
    r = board.request("demo")
    moves = r["moves"]
    print("the board demonstrates %d moves:" % len(moves), flush=True)
    while True:
        for e in board.poll(0.5):
            if e.get("event") == "demo_step":
                mv = e["move"]
                mask ^= (1 << (mv[0] - 1)) | (1 << (mv[1] - 1)) | (1 << (mv[2] - 1))
                px = sim.control("pixels")
                print("%2d. %s   (%s left; LEDs %d mA)" % (e["step"], move_text(mv), pegs(bin(mask).count("1")),
                                                           px["ma"]))
                print(render_board(geometry, mask) + "\n", flush=True)
            elif e.get("event") == "demo_done":
                left = bin(mask).count("1")
                print("done: one peg left." if left == 1 else "done: %d pegs left." % left, flush=True)
                return 0


def run(args: argparse.Namespace) -> int:
    from pegboard.link.ports import find_data_port
    from pegboard.link.runtime_file import answering_sim

    if not getattr(args, "sim", False):
        try:
            port = find_data_port()
        except Exception:  # noqa: BLE001 - a port scan that fails means: play the simulated board
            port = None
        if port:
            print("board found on %s" % port)
            if not sys.stdout.isatty():
                print(NO_TERMINAL_MIRROR, file=sys.stderr, flush=True)
            # found, not named: the mirror finds it again at every connect (a board plugged back into
            # another socket has another name; its hub looks for the same board by its serial number)
            return mirror(argparse.Namespace(port=getattr(args, "port", None), plain=not sys.stdout.isatty()))
    try:
        sim = answering_sim()
    except Exception:  # noqa: BLE001 - an unreadable runtime folder: this program's own board
        sim = None
    if sim:
        print("a simulated board runs on %s (pid %d): playing it here" % (sim["data"], sim["pid"]), flush=True)
        if not _mirror_sim(sim):
            return 0
        print("the simulated board on %s stopped: starting this program's own" % sim["data"], flush=True)
    elif sys.stdout.isatty():
        print("starting the simulated board" if getattr(args, "sim", False)
              else "no board plugged in: starting the simulated board", flush=True)
    return play(argparse.Namespace(runtime=getattr(args, "runtime", "cpython"), empty=getattr(args, "empty", 1)))


def _mirror_sim(sim: dict) -> bool:
    """Show another program's running simulated board until it stops (True: the caller starts one
    of its own, never waiting on a board that is gone for good) or the user quits (False). A
    simulator withdraws its announcement before it shuts down, so its going is seen at once."""
    from pegboard.link.runtime_file import alive

    board = connect(argparse.Namespace(port=sim["data"]))
    stopped = threading.Event()
    done = threading.Event()
    on_stop: list = []

    def watch() -> None:
        while not done.wait(0.25):
            if not (os.path.exists(sim["file"]) and alive(sim["pid"])):
                stopped.set()
                for f in on_stop:
                    f()
                return

    threading.Thread(target=watch, daemon=True).start()
    try:
        if not sys.stdout.isatty():
            print(NO_TERMINAL_MIRROR, file=sys.stderr, flush=True)
            _plain(board, stop=stopped)
        else:
            from pegboard.tui.app import BoardApp

            app = BoardApp(board, hand=_hand_for(sim["data"]), title="pegboard run: simulated board (%s)" % sim["data"])
            on_stop.append(lambda: app.call_from_thread(app.exit, 0))
            app.run()
    finally:
        done.set()
        board.close()
    return stopped.is_set()
