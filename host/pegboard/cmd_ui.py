"""`pegboard mirror`, `pegboard play` and `pegboard run` (the main job behind `make run`)."""

from __future__ import annotations

import argparse
import sys
import time

from pegboard.boardargs import connect, describe_state
from pegboard.client import Board, BoardError
from pegboard.render import move_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mirror", help="live view of the board in the terminal (Textual UI)")
    p.add_argument("--port", help="serial device path or pyserial URL (default: find the board)")
    p.add_argument("--plain", action="store_true", help="print text frames instead (logs, non-terminals)")
    p.set_defaults(func=mirror)
    p = sub.add_parser("play", help="play on a simulated board in the terminal (click holes to move pegs)")
    p.add_argument("--runtime", choices=["cpython", "micropython"], default="cpython")
    p.add_argument("--empty", type=int, default=1, help="start with this hole empty (default 1)")
    p.set_defaults(func=play)
    p = sub.add_parser("run", help="the main job: mirror the real board if plugged in, else play the simulated one")
    p.set_defaults(func=run)


def mirror(args: argparse.Namespace) -> int:
    board = connect(args)
    if args.plain or not sys.stdout.isatty():
        return _plain(board)
    from pegboard.tui import BoardApp

    BoardApp(board, title="pegboard mirror %s" % board.port).run()
    board.close()
    return 0


def _plain(board: Board, until: float | None = None) -> int:
    last = None
    try:
        while until is None or time.monotonic() < until:
            for e in board.poll(0.2):
                print("event: %s" % {k: v for k, v in e.items() if k != "seq"}, flush=True)
            st = board.request("state")
            frame = describe_state(st)
            if frame != last:
                print(frame + "\n", flush=True)
                last = frame
    except KeyboardInterrupt:
        pass
    except BoardError as e:
        print("pegboard: %s" % e, file=sys.stderr)
        return 1
    return 0


def play(args: argparse.Namespace) -> int:
    from pegboard.sim import Simulator

    if not 1 <= args.empty <= 15:
        from pegboard.cli import UsageError

        raise UsageError("--empty must be a hole 1..15")
    with Simulator(runtime=args.runtime) as sim:
        board = Board(sim.data_path).open()
        sim.control("fill", empty=args.empty)
        if not sys.stdout.isatty():
            return _scripted_show(sim, board)
        from pegboard.tui import BoardApp

        BoardApp(board, hand=sim.control, title="pegboard play (simulated board)").run()
        board.close()
    return 0


def _scripted_show(sim, board: Board) -> int:
    """No terminal to play in: fill the twin with hole 1 empty, let the board demonstrate a
    solution, and print each frame."""
    sim.control("wait_idle")
    print(describe_state(board.request("state")) + "\n", flush=True)
    r = board.request("demo")
    print("the board demonstrates %d moves:" % len(r["moves"]), flush=True)
    while True:
        for e in board.poll(0.5):
            if e.get("event") == "demo_step":
                px = sim.control("pixels")
                print("%2d. %s   (LEDs %d mA)" % (e["step"], move_text(e["move"]), px["ma"]))
                print(_demo_frame(px["pixels"]) + "\n", flush=True)
            elif e.get("event") == "demo_done":
                print("done: one peg left." if len(r["moves"]) == 13 else "done.", flush=True)
                return 0


def _demo_frame(pixels: list[list[int]]) -> str:
    # lit holes as pegs, dark as empty: what a spectator sees on the wood
    from pegcore.geometry import Board as Geometry
    from pegboard.render import render_board

    mask = 0
    for i, (r, g, b) in enumerate(pixels):
        if r + g + b > 60:
            mask |= 1 << i
    return render_board(Geometry(5), mask)


def run(args: argparse.Namespace) -> int:
    from pegboard.ports import find_data_port

    port = None
    try:
        port = find_data_port()
    except Exception:
        port = None
    if port:
        print("board found on %s" % port)
        return mirror(argparse.Namespace(port=port, plain=not sys.stdout.isatty()))
    if sys.stdout.isatty():
        print("no board plugged in: starting the simulated board", flush=True)
    return play(argparse.Namespace(runtime="cpython", empty=1))
