"""Run every bench module (bench/*.py with `run() -> dict`) or the ones named, print ONE JSON object
{"figures": {name: {"value", "unit", "budget", "ok", ...}}, "ok": all budgets held}; exit 1 if not.

The results are kept in bench/results.json (a run of some modules updates just their figures) and
the README's figures table is rewritten from them (bench/readme.py). `--readme`: rewrite the
README's table from bench/results.json without measuring anything."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys

import bench
from bench import readme

NOT_BENCHES = ("util", "mp", "readme", "hint_wait")  # (hint_wait: part of firmware)


def main(argv: list[str]) -> int:
    if argv == ["--readme"]:
        if not readme.RESULTS.exists():
            print("bench: no %s yet: run `python -m bench` first" % readme.RESULTS, file=sys.stderr)
            return 2
        if not readme.update_readme():
            print("bench: README.md has no bench figures markers", file=sys.stderr)
            return 2
        return 0
    names = argv or sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_")
                           and m.name not in NOT_BENCHES)
    figures: dict[str, dict] = {}
    for name in names:
        mod = importlib.import_module("bench." + name)
        for key, fig in mod.run().items():
            figures["%s.%s" % (name, key)] = fig
    ok = all(f.get("ok", True) for f in figures.values())
    print(json.dumps({"figures": figures, "ok": ok}, indent=2))
    results = readme.save(figures, replace_all=not argv)
    if not readme.update_readme(results):
        print("bench: README.md has no bench figures markers: its table was not updated", file=sys.stderr)
    return 0 if ok else 1


sys.exit(main(sys.argv[1:]))
