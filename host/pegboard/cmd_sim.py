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
    p.add_argument("--runtime", choices=["cpython", "micropython", "chip"], default="cpython",
                   help="what runs the firmware: CPython, the unix MicroPython VM, or 'chip': MicroPython's "
                        "core set up as a CircuitPython board (32-bit where gcc -m32 works, a 1.5 KB "
                        "Python stack; built on first use, docs/chip-runtime.md)")
    p.add_argument("--heap", default=None,
                   help="MicroPython heap size (default: 192K on the chip runtime, as an RP2040 has; 256K "
                        "on the 64-bit unix VM, whose objects take about twice the room)")
    p.add_argument("--no-chip-time", dest="chip_time", action="store_false", default=None,
                   help="chip runtime: do not hold loop passes to the RP2040's watchdog (chip time is on by "
                        "default: a pass that would take over 4 s on an RP2040, at 230x the VM's CPU time, "
                        "resets the board)")
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
                        console=args.console, chip_time=args.chip_time if args.runtime == "chip" else None,
                        **kw)
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
