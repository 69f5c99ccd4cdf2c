"""`pegboard monitor`: the protocol traffic, pretty and coloured (or raw)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from pegboard.boardargs import connect
from pegboard.client import LINK_ERRORS

COLORS = {"move": "32", "game_over": "35", "illegal": "31", "undo": "33", "new_game": "36", "hint": "34"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("monitor", help="watch the protocol live (events and replies)")
    p.add_argument("--port", help="serial device path or pyserial URL (default: find the board)")
    p.add_argument("--raw", action="store_true", help="print lines exactly as received")
    p.set_defaults(func=run)


def pretty(line: bytes, color: bool) -> str:
    try:
        obj = json.loads(line)
    except ValueError:
        return line.decode("utf-8", "replace")
    if not isinstance(obj, dict):
        return line.decode("utf-8", "replace")
    name = obj.get("event") or ("reply" if obj.get("ok") else "error")
    rest = " ".join("%s=%s" % (k, json.dumps(v)) for k, v in obj.items() if k not in ("event", "seq"))
    head = "%-10s" % name
    if "seq" in obj:
        head = "#%-4d %s" % (obj["seq"], head)
    code = COLORS.get(name, "31" if name == "error" else "0")
    return ("\033[%sm%s\033[0m %s" % (code, head, rest)) if color else "%s %s" % (head, rest)


def run(args: argparse.Namespace) -> int:
    b = connect(args)
    color = sys.stdout.isatty()
    try:
        while True:
            try:
                data = b.ser.readline() if b.ser else b""
            except LINK_ERRORS:
                print("-- disconnected; waiting for the board --", flush=True)
                b._reconnect()
                continue
            if not data:
                time.sleep(0.01)
                continue
            line = data.rstrip(b"\r\n")
            print(line.decode("utf-8", "replace") if args.raw else pretty(line, color), flush=True)
    except KeyboardInterrupt:
        return 0
    finally:
        b.close()
