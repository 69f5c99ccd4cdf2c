"""`pegboard sim`: run the simulated board until interrupted."""

from __future__ import annotations

import argparse
import signal
import threading

from pegboard.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sim", help="run the simulated board behind a pseudo-terminal",
        description="Runs the unchanged firmware with fake hardware at the lowest layer. Prints "
                    "'data: PATH' (the serial port to open) and 'control: PATH' (the virtual hand: "
                    "JSON lines such as {\"cmd\":\"fill\",\"empty\":1}), then runs until SIGINT/SIGTERM.")
    p.add_argument("--firmware", default=None, help="firmware folder (default: the project's firmware/)")
    p.add_argument("--settings", default=None, help="settings.toml to use (default: the firmware's)")
    p.add_argument("--runtime", choices=["cpython", "micropython"], default="cpython")
    p.add_argument("--heap", default="256K",
                   help="MicroPython heap size (default 256K: the VM's 64-bit objects take about twice "
                        "the RP2040's room, and the fakes and their link need ~30 KB)")
    p.add_argument("--link", metavar="PATH", help="keep a symlink to the data port here, re-pointed after replug")
    p.add_argument("--console", action="store_true", help="echo the firmware's console output to stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pegboard.sim import SimError, Simulator
    from pegboard.sim.settings import SettingsError

    kw = {}
    if args.firmware:
        kw["firmware"] = args.firmware
    try:
        sim = Simulator(settings=args.settings, runtime=args.runtime, heap=args.heap, link=args.link,
                        console=args.console, **kw)
    except (SimError, SettingsError, OSError) as e:
        raise UsageError(str(e)) from None
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    with sim:
        print("data: %s" % sim.data_path, flush=True)
        print("control: %s" % sim.control_path, flush=True)
        while not stop.wait(0.2):
            pass
    return 0
