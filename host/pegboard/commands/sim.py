"""`pegboard sim`: run the simulated board until interrupted."""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from pegboard.deploy.circuitpython import NEWEST_TESTED, OLDEST
from pegboard.commands.cli import Subcommands, UsageError, check_output


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "sim", help="run the simulated board behind a pseudo-terminal",
        description="Runs the unchanged firmware with fake hardware at the lowest layer. Prints "
                    "'data: PATH' (the serial port to open; a symlink that follows the port across "
                    "replug) and 'control: PATH' (the virtual hand: JSON lines such as "
                    "{\"cmd\":\"fill\",\"empty\":1}; docs/simulator.md lists them all), then runs until "
                    "SIGINT/SIGTERM. While it runs, pegboard commands without --port find it. If the "
                    "firmware stops, its last console lines are printed here.",
        epilog="exit status: 0 stopped by SIGINT/SIGTERM, 2 bad usage or input (a missing --settings file, "
               "a --link in a missing folder)")
    p.add_argument("--firmware", default=None, help="firmware folder (default: the project's firmware/)")
    p.add_argument("--settings", default=None, help="settings.toml to use (default: the firmware's); "
                                                    "it must exist")
    p.add_argument("--runtime", choices=["cpython", "micropython", "chip", "thumb", "rp2040"], default="cpython",
                   help="what runs the firmware: CPython, the unix MicroPython VM, 'chip': MicroPython's "
                        "core set up as a CircuitPython board (32-bit, a 1.5 KB Python stack), 'thumb': "
                        "the same core built for a Cortex-M0+ and run in an emulator that counts the "
                        "chip's cycles (both built on first use), or 'rp2040': CircuitPython's own binary "
                        "(--uf2) in an emulated RP2040, the firmware on its drive (docs/chip-runtime.md)")
    p.add_argument("--uf2", metavar="FILE", default=None,
                   help="rp2040 runtime: CircuitPython's UF2 for the Raspberry Pi Pico, as circuitpython.org "
                        "gives it (default: $PEGBOARD_UF2)")
    p.add_argument("--heap", default=None,
                   help="MicroPython heap size (default: 192K on the chip and thumb runtimes, as an RP2040 has; 320K "
                        "on the 64-bit unix VM, whose objects take about twice the room)")
    p.add_argument("--no-chip-time", dest="chip_time", action="store_false", default=None,
                   help="chip and thumb runtimes: do not hold loop passes to the RP2040's watchdog (chip "
                        "time is on by default: a pass that would take over 4 s on an RP2040 resets the "
                        "board; thumb counts the emulated cycles, chip assumes 230x the VM's CPU time)")
    p.add_argument("--link", metavar="PATH", help="keep the symlink to the data port here (default: in the "
                                                  "runtime folder, see docs/simulator.md)")
    p.add_argument("--console", action="store_true", help="echo the firmware's console output to stderr")
    p.add_argument("--name", default=None, metavar="NAME",
                   help="the simulated board's name: its flash (kept games, stats) is kept between runs in the "
                        "user's data folder under this name (default: board)")
    p.add_argument("--fresh", action="store_true", help="start with erased flash (the kept one is replaced)")
    p.add_argument("--list", action="store_true", help="list the simulated boards whose flash is kept, and exit")
    p.add_argument("--circuitpython", metavar="VERSION", default=NEWEST_TESTED,
                   help="the CircuitPython version the board runs (default: %s, the newest tested; the firmware "
                        "supports %s to %s.x). The chip and thumb "
                        "runtimes read settings.toml as it does: up to 10.1 os.getenv gives a bare integer "
                        "as an int and raises ValueError for a malformed value; from 10.2.0 it gives every "
                        "value as a str, and supervisor.get_setting types them. CPython and the unix VM "
                        "use the PC's os.getenv whatever the version"
                        % (NEWEST_TESTED, OLDEST, NEWEST_TESTED.split(".")[0]))
    p.set_defaults(func=run)


NO_PTYS = ("the simulated board needs pseudo-terminals, which Windows does not have: run pegboard in WSL "
           "for it, or plug in a board (everything else works here)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    if sys.platform == "win32":
        raise UsageError(NO_PTYS)
    from pegboard.sim.errors import SimError
    from pegboard.sim.simulator import Simulator
    from pegboard.link import runtime_file
    from pegboard.sim.settings import SettingsError

    from pegboard.sim import kept_flash

    if args.list:
        boards = kept_flash.kept()
        for k in boards:
            print("%-16s %5d bytes written  %s" % (k.name, k.used, k.path))
        if not boards:
            print("no simulated board's flash is kept yet (in %s)" % (kept_flash.data_dir() / "boards"))
        return 0
    try:
        flash = kept_flash.path_of(args.name or kept_flash.DEFAULT_NAME)
        if args.fresh:
            flash.unlink(missing_ok=True)
        kept_flash.load(flash)  # a damaged file is refused here, saying what to do
    except (kept_flash.FlashError, OSError) as e:
        raise UsageError(str(e)) from None
    if args.settings and not Path(args.settings).is_file():
        raise UsageError("--settings %s: no such file" % args.settings)
    if args.link:
        check_output("--link", args.link)  # before a chip runtime's first build, not after it
    if args.uf2 and args.runtime != "rp2040":
        raise UsageError("--uf2 is for --runtime rp2040")
    if args.uf2 and not Path(args.uf2).is_file():
        raise UsageError("--uf2 %s: no such file" % args.uf2)
    kw = {}
    if args.firmware:
        kw["firmware"] = args.firmware
    if args.runtime == "rp2040":
        kw["uf2"] = args.uf2
    try:
        link = args.link or runtime_file.data_link_path()
        sim = Simulator(settings=args.settings, runtime=args.runtime, heap=args.heap, link=link,
                        console=args.console, chip_time=args.chip_time if args.runtime in ("chip", "thumb") else None,
                        circuitpython=args.circuitpython, flash=flash, **kw)
    except (SimError, SettingsError, kept_flash.FlashError, OSError) as e:
        raise UsageError(str(e)) from None
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: its terminal closed
        signal.signal(sig, lambda *_: stop.set())
    with sim:
        print("data: %s" % link, flush=True)
        print("control: %s" % sim.control_path, flush=True)
        print("(the data port is %s now; %s follows it across unplug/replug. Commands without --port find "
              "this simulator.)" % (sim.data_path, link), flush=True)
        print("flash: %s (kept between runs; --fresh for a new one)" % flash, flush=True)
        info = runtime_file.write(link, sim.control_path)
        try:
            _watch_firmware(sim, stop, info)
        finally:
            runtime_file.remove(info)
    return 0


def _watch_firmware(sim, stop: threading.Event, announced) -> None:
    """Until stopped: say so on stdout when the firmware stops or the watchdog resets it; while
    it runs, the runtime file's heartbeat says this simulator answers (pegboard.link.runtime_file)."""
    from pegboard.link import runtime_file

    seen_resets = sim.watchdog_resets
    reported = False
    while not stop.wait(0.2):
        if sim.running:
            runtime_file.beat(announced)
        if sim.watchdog_resets != seen_resets:
            seen_resets = sim.watchdog_resets
            print("the watchdog reset the firmware (%d so far)" % seen_resets, flush=True)
        if not sim.running and not reported:
            reported = True
            lines = [x for x in list(sim.console)[-12:] if x.strip()]
            print("the firmware stopped; its last console lines:", flush=True)
            for line in lines:
                print("  | %s" % line, flush=True)
            print("(power_cycle on the control port starts it again)", flush=True)
        elif sim.running:
            reported = False
