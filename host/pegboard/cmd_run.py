"""`pegboard run`: the main job behind `make run`."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="the main job: the real board if plugged in, else a demonstration")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pegboard.cli import main

    # Until the simulated board exists: show the solver at work on the classic start.
    return main(["solve", "--empty", "1"])
