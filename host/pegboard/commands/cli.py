"""`pegboard` command line: one small module per command (commands/*.py), each with
`register(subparsers)` that adds its parser and sets `func(args) -> int`.

Exit codes, the same for every command and written at the end of each one's --help: 0 done,
1 the board or the solver said no (or no board was found), 2 bad usage or input, 130 interrupted
by Ctrl-C (after stopping what the command started on the board). With --json a failure is also a
JSON object on stdout: {"ok": false, "error": CODE, "message": ...}.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
from typing import Any, Iterator, Protocol

from pegboard import __version__
from pegboard.commands.usage import UsageError

# Command modules, in the order `pegboard --help` lists them.
COMMANDS = [
    "ui",       # run, mirror
    "board",    # ports, state, hint, stop, selftest
    "senses",   # roles, sound
    "position",  # play (from here), setup
    "show",     # demo, guide, watch
    "monitor",
    "web",
    "solve",
    "games",
    "review",
    "puzzle",
    "sim",
    "deploy",
    "hardware",
]


EXIT_STATUS = ("exit status: 0 done, 1 the board or the solver said no (or no board was found), "
               "2 bad usage or input, 130 interrupted by Ctrl-C (what the command started on the board "
               "is stopped first)")

# for the commands that run until stopped (mirror, monitor): Ctrl-C is how they end
EXIT_STATUS_UNTIL_STOPPED = ("exit status: 0 quit or stopped by Ctrl-C, 1 no board found or the link was lost, "
                             "2 bad usage or input")


class Subcommands(Protocol):
    """What each command module's `register(sub)` is given: argparse's subparsers action (whose
    class argparse keeps private)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


# Each command's --help ends with these command lines, under "examples:" (tests/test_cli_edges.py
# parses every one, and runs those that need no board). Keyed by the command's words after
# `pegboard`; every command and subcommand has an entry.
EXAMPLES: dict[str, list[str]] = {
    "run": ["pegboard run", "pegboard run --sim --empty 5", "pegboard run --sim --runtime micropython"],
    "mirror": ["pegboard mirror", "pegboard mirror --plain", "pegboard mirror --port /dev/ttyACM0"],
    "ports": ["pegboard ports"],
    "state": ["pegboard state", "pegboard state --json", "pegboard state --port /dev/ttyACM0"],
    "hint": ["pegboard hint", "pegboard hint --json"],
    "stop": ["pegboard stop"],
    "selftest": ["pegboard selftest", "pegboard selftest --seconds 60", "pegboard selftest --hole 1",
                 "pegboard selftest --in-order", "pegboard selftest --report"],
    "roles": ["pegboard roles", "pegboard roles motion", "pegboard roles colour"],
    "sound": ["pegboard sound", "pegboard sound --volume 30", "pegboard sound --quiet 22-7",
              "pegboard sound --play win"],
    "play": ["pegboard play", "pegboard play --finish 13", "pegboard play --target leave:3"],
    "challenge": ["pegboard challenge finish", "pegboard challenge finish:13", "pegboard challenge leave:3",
                  "pegboard challenge most", "pegboard challenge none"],
    "setup": ["pegboard setup --pegs 2,4,5,7,9,12,13",
              "pegboard solve --empty 4 --json > solution.json", "pegboard setup solution.json"],
    "demo": ["pegboard demo", "pegboard solve --empty 4 --json > solution.json", "pegboard demo solution.json"],
    "guide": ["pegboard solve --empty 4 --finish 4 --json > solution.json", "pegboard guide solution.json"],
    "watch": ["pegboard watch", "pegboard watch --speed 500", "pegboard watch --step"],
    "monitor": ["pegboard monitor", "pegboard monitor --raw"],
    "review": ["pegboard review", "pegboard review 3", "pegboard review --json"],
    "puzzle": ["pegboard puzzle", "pegboard puzzle --grade 3", "pegboard puzzle --today", "pegboard puzzle --number 7"],
    "web": ["pegboard web", "pegboard web --open", "pegboard web --host 0.0.0.0 --web-port 8080",
            "pegboard web --port /dev/ttyACM0"],
    "solve": ["pegboard solve --empty 5", "pegboard solve --empty all --count",
              "pegboard solve --empty 4 --finish 4 --json", "pegboard solve --empty 1 --min-moves",
              "pegboard solve --rows 6 --empty 3 --svg solution.svg --gif solution.gif",
              "pegboard solve --empty 5 --all --json > every-solution.jsonl"],
    "games": ["pegboard games", "pegboard games --json", "pegboard games --export 3 game3.json",
              "pegboard games --gif 3 game3.gif"],
    "sim": ["pegboard sim", "pegboard sim --runtime chip", "pegboard sim --runtime thumb --console",
            "pegboard sim --runtime rp2040 --uf2 adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.8.uf2",
            "pegboard sim --settings hardware/boards/shift-74hc165.toml", "pegboard sim --link /tmp/pegboard-port"],
    "deploy": ["pegboard deploy", "pegboard deploy --board pico", "pegboard deploy --drive /media/me/CIRCUITPY --py",
               "pegboard deploy --board shift-74hc165 --no-restart"],
    "hardware": ["pegboard hardware plate -o plate.svg", "pegboard hardware bom"],
    "hardware plate": ["pegboard hardware plate -o plate.svg",
                       "pegboard hardware plate --rows 6 --pitch 22 --hole 7 -o plate-21.svg"],
    "hardware schematic": ["pegboard hardware schematic hardware/boards/pico-gpio.toml -o pico.svg",
                           "pegboard hardware schematic --supply external hardware/boards/pico-gpio.toml -o ext.svg",
                           "pegboard hardware wiring hardware/boards/shift-74hc165.toml -o shift.svg"],
    "hardware section": ["pegboard hardware section -o section.svg"],
    "hardware box": ["pegboard hardware box -o box.svg"],
    "hardware pcb": ["pegboard hardware pcb --out my-pcb", "pegboard hardware pcb --out my-pcb --no-kicad"],
    "hardware bom": ["pegboard hardware bom", "pegboard hardware bom -o parts.txt", "pegboard hardware bom --markdown"],
}


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's own, but a line of the description or epilog that begins with spaces (an
    example command line) is kept as it is; other lines are wrapped as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for line in text.splitlines():
            if not line.strip():
                out.append("")
            elif line.startswith(" "):
                out.append(indent + line.rstrip())
            else:
                out.append(super()._fill_text(line, width, indent))
        return "\n".join(out)


class _Parser(argparse.ArgumentParser):
    """Every command's parser (argparse makes subparsers of the parent's class): --json errors,
    and the exit codes at the end of each command's --help."""

    json_errors = False  # set by main when --json is on the command line

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not kwargs.get("epilog"):
            kwargs["epilog"] = EXIT_STATUS
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        """Subcommands' parsers, each made by `_command_parser` (subcommands of subcommands too)."""
        action = super().add_subparsers(**kwargs)
        add = action.add_parser

        def add_parser(name: str, **kw: Any) -> argparse.ArgumentParser:
            return _command_parser(add, name, **kw)

        action.add_parser = add_parser  # type: ignore[method-assign]
        return action

    def error(self, message: str) -> None:  # type: ignore[override]
        if self.json_errors:
            _json_failure("usage", "%s: %s" % (self.prog, message))
            self.exit(2)
        self.print_usage(sys.stderr)
        self.exit(2, "%s: error: %s\n" % (self.prog, message))


def _command_parser(add: Any, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A command's parser: its --help begins with what it does (its line in the parent's --help)
    unless it says more, and ends with its exit codes and its examples (EXAMPLES)."""
    if kwargs.get("help") and not kwargs.get("description"):
        kwargs["description"] = kwargs["help"][0].upper() + kwargs["help"][1:] + "."
    parser: argparse.ArgumentParser = add(name, **kwargs)
    examples = EXAMPLES.get(parser.prog.split(" ", 1)[-1], [])
    if examples:
        parser.epilog = "%s\n\nexamples:\n%s" % (parser.epilog or EXIT_STATUS,
                                                "\n".join("  " + line for line in examples))
    return parser


def check_output(option: str, path: str, suffix: str = "") -> None:
    """Refuse an output file before the work starts (a long job must not end in "cannot write"):
    the wrong ending, a folder that is missing or not writable, a folder given as the file."""
    if os.path.isdir(path):
        raise UsageError("%s %s: that is a folder; give a file name" % (option, path))
    if suffix and not path.lower().endswith(suffix):
        raise UsageError("%s %s: the file name must end in %s" % (option, path, suffix))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError("%s %s: there is no folder %s" % (option, path, folder))
    if not os.access(folder, os.W_OK):
        raise UsageError("%s %s: the folder %s is not writable" % (option, path, folder))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UsageError("%s %s: the file is not writable" % (option, path))


def _json_failure(code: str, message: str) -> None:
    import json

    print(json.dumps({"ok": False, "error": code, "message": message}), flush=True)


# the exit codes are each command's (their --help); here, how games begin and end at the board
POSITIONS = """any position, set by hand:
  A full board less one starts a game. Take every peg out and the game ends; pegs set
  by hand are free play (hint, demo and solvable are about them). `pegboard play` (or
  the board's button held 3 s) starts a game from the pegs as they stand; `pegboard
  setup --pegs 2,4,5` makes the board light what to fill (green) and take out
  (orange) until the pegs match, then a game starts from them."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegboard", description="Play, mirror, solve and debug the lit peg solitaire board.",
                     epilog=POSITIONS, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="pegboard " + __version__)
    # each command's parser is made by _command_parser (its description, exit codes and examples)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module("pegboard.commands." + name).register(sub)
    return parser


# the terminal UIs, and monitor (which shows the board's words escaped itself, in colour): every other
# command's terminal output has its control characters shown as escapes (pegboard.safe_text)
DRAWS_ITS_OWN_TERMINAL = ("mirror", "run", "monitor")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _Parser.json_errors = "--json" in argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    as_json = bool(getattr(args, "json", False))
    streams = sys.stdout, sys.stderr
    if args.command not in DRAWS_ITS_OWN_TERMINAL:
        from pegboard.safe_text import guard_terminal

        sys.stdout, sys.stderr = guard_terminal(sys.stdout), guard_terminal(sys.stderr)
    try:
        with _sigterm_as_interrupt():
            return _run(args, as_json)
    finally:
        sys.stdout, sys.stderr = streams


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (`kill`, `timeout`) ends a command as Ctrl-C does: what it started on the board is
    stopped first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _run(args: argparse.Namespace, as_json: bool) -> int:
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not as noise when Python exits
        return code
    except UsageError as e:
        if as_json:
            _json_failure("usage", str(e))
        else:
            print("pegboard: error: %s" % e, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`pegboard solve ... | head`): stop quietly, as cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        from pegboard.link.client import BoardError

        if isinstance(e, BoardError):  # the board said no, or went quiet: not a crash
            from pegboard.commands.boardargs import fail

            return fail(e, as_json)
        raise
