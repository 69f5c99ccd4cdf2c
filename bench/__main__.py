"""Run every bench module (bench/*.py with `run() -> dict`) or the ones named, print ONE JSON object
{"figures": {name: {"value", "unit", "budget", "ok", ...}}, "ok": all budgets held}; exit 1 if not."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys

import bench


def main(argv: list[str]) -> int:
    names = argv or sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_")
                           and m.name not in ("util", "mp"))
    figures: dict[str, dict] = {}
    for name in names:
        mod = importlib.import_module("bench." + name)
        for key, fig in mod.run().items():
            figures["%s.%s" % (name, key)] = fig
    ok = all(f.get("ok", True) for f in figures.values())
    print(json.dumps({"figures": figures, "ok": ok}, indent=2))
    return 0 if ok else 1


sys.exit(main(sys.argv[1:]))
