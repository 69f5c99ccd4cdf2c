"""`pegboard` command line: one small module per command (cmd_*.py), each with
`register(subparsers)` that adds its parser and sets `func(args) -> int`.

Exit codes: 0 ok, 1 the operation failed (no solution, board not answering), 2 bad usage/input.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from pegboard import __version__

# Command modules, in the order `pegboard --help` lists them.
COMMANDS = [
    "cmd_ui",       # run, mirror, play
    "cmd_board",    # ports, state, hint, stop, selftest
    "cmd_show",     # demo, guide, watch
    "cmd_monitor",
    "cmd_solve",
    "cmd_sim",
    "cmd_deploy",
    "cmd_hardware",
]


class UsageError(Exception):
    """Bad input from the user: printed as `pegboard: error: ...` with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, "%s: error: %s\n" % (self.prog, message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegboard", description="Play, mirror, solve and debug the lit peg solitaire board.")
    parser.add_argument("--version", action="version", version="pegboard " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module("pegboard." + name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not as noise when Python exits
        return code
    except UsageError as e:
        print("pegboard: error: %s" % e, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`pegboard solve ... | head`): stop quietly, as cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as e:
        from pegboard.client import BoardError

        if isinstance(e, BoardError):  # the board said no, or went quiet: not a crash
            from pegboard.boardargs import fail

            return fail(e)
        raise
    except KeyboardInterrupt:
        return 130
