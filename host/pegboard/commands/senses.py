"""The board's senses: `roles` (how its lights tell the roles: colour, or a pattern in time too)
and `sound` (its piezo: volume, quiet hours, a tune to try it)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pegboard.commands.boardargs import add_port, connect
from pegboard.commands.cli import Subcommands

TUNES = ("click", "buzz", "win", "lost", "best")  # pegfw.sound.TUNES' names (the board checks them too)


def register(sub: Subcommands) -> None:
    p = sub.add_parser("roles", help="how the board's lights tell the roles apart: by colour, or (motion) by a "
                                     "pattern in time as well, for eyes that cannot tell the hues apart")
    add_port(p)
    p.add_argument("mode", nargs="?", choices=("colour", "motion"),
                   help="colour, or motion: the peg to jump pulses slowly, the one jumped over blinks twice, the "
                        "hole to land in is steady with a short break, a landing option breathes, a peg to pull "
                        "out blinks evenly, an illegal or lost peg flickers (none: say which is on)")
    p.set_defaults(func=roles)
    p = sub.add_parser("sound", help="the board's piezo: a click for a move, a buzz for an illegal placement, a "
                                     "tune for a win or a lost game, a chirp for a personal best")
    add_port(p)
    p.add_argument("--volume", type=int, metavar="PCT", help="0 (silent) .. 100")
    p.add_argument("--quiet", metavar="FROM-TO",
                   help='quiet hours in whole hours, e.g. 22-7 (from 22:00 to 07:00); "" for none. The board '
                        "has no clock: it takes this laptop's time of day with every `sound`")
    p.add_argument("--play", choices=TUNES, help="play a tune now (a piezo check)")
    p.set_defaults(func=sound)


def roles(args: argparse.Namespace) -> int:
    with connect(args) as b:
        r = b.request("roles", **({"name": args.mode} if args.mode else {}))
    print(json.dumps(r) if args.json else "roles: %s" % r["name"])
    return 0


def sound(args: argparse.Namespace) -> int:
    req: dict[str, Any] = {}
    if args.volume is not None:
        req["volume"] = args.volume
    if args.quiet is not None:
        req["quiet"] = args.quiet
    if args.play is not None:
        req["play"] = args.play
    with connect(args) as b:
        if b.request("sound").get("piezo"):
            now = time.localtime()
            req["clock"] = now.tm_hour * 60 + now.tm_min  # quiet hours need the time of day
        r = b.request("sound", **req)
    if args.json:
        print(json.dumps(r))
    elif not r.get("piezo"):
        print("this board has no piezo (PEGBOARD_PIEZO_PIN in its settings.toml: hardware/README.md, Sound)")
    else:
        quiet = "quiet hours %s" % r["quiet"] if r["quiet"] else "no quiet hours"
        state = "silent now" if r["silent"] else "sounding"
        print("volume %d%%, %s, %s" % (r["volume"], quiet, state))
        if args.play and not r.get("played"):
            print("(not played: the board is silent now)")
    return 0
