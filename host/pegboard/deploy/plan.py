"""What `pegboard deploy` copies: boot.py, code.py, the modules of pegcore/ and pegfw/ the chip
imports (found by reading the sources: modules only the host uses stay off the drive), the tables
the chip reads, and the libraries CircuitPython lacks."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pegcore

from pegboard.deploy.errors import DeployError

FIRMWARE = Path(pegcore.__file__).resolve().parent.parent
# lib/ holds only what CircuitPython lacks: adafruit_pixelbuf is built into it on RP2040
LIBS = ("neopixel",)
PACKAGES = ("pegcore", "pegfw")
DATA_FILES = ("pegcore/t5_hints.bin", "pegcore/t5_finish.bin", "pegcore/t5_ends.bin",  # what the chip reads
              "pegcore/t6_book.bin", "pegcore/t7_book.bin", "pegcore/t5_puzzles.bin", "pegcore/t6_puzzles.bin")


MODULE_NAME = re.compile(r"^(%s)(\.[a-z_][a-z0-9_]*)+$" % "|".join(PACKAGES))


def _imports(path: Path) -> set[str]:
    """Every module a firmware file imports, at any depth of its code, and every module it names
    in a string (pegfw.ondemand loads shows and rare commands by name: "pegfw.show_demo")."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_NAME.match(node.value):
            out.add(node.value)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out |= {node.module + "." + a.name for a in node.names}
    return out


def chip_modules() -> list[str]:
    """The firmware's own modules the chip can import, following imports from boot.py and code.py
    ("pegfw.app" ...): modules only the host uses (the PC solver's helpers) stay off the drive."""
    seen: set[str] = set()
    todo = _imports(FIRMWARE / "boot.py") | _imports(FIRMWARE / "code.py")
    while todo:
        name = todo.pop()
        top = name.split(".")[0]
        if top not in PACKAGES or name in seen:
            continue
        path = FIRMWARE / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = FIRMWARE / name.replace(".", "/") / "__init__.py"
            if not path.exists():
                continue  # "from pegfw import colors" also names the attribute pegfw.VERSION
        seen.add(name)
        if "." in name:
            todo.add(name.rsplit(".", 1)[0])  # importing a submodule runs its package's __init__
        todo |= _imports(path) - seen
    return sorted(seen)


def _module_file(name: str) -> str:
    """pegfw.app -> pegfw/app.py; pegfw -> pegfw/__init__.py."""
    rel = name.replace(".", "/")
    return rel + "/__init__.py" if (FIRMWARE / rel).is_dir() else rel + ".py"


def plan() -> list[tuple[Path, str]]:
    """(source file, destination path relative to the drive) for everything deploy copies, the
    modules as .py (pegboard.deploy.stage swaps in .mpy when it compiles)."""
    files = [(FIRMWARE / name, name) for name in ("boot.py", "code.py")]
    files += [(FIRMWARE / _module_file(m), _module_file(m)) for m in chip_modules()]
    files += [(FIRMWARE / rel, rel) for rel in DATA_FILES]
    for lib in LIBS:
        spec = importlib.util.find_spec(lib)  # located, not imported: Blinka's parts raise on a PC
        if spec is None or not spec.origin:
            raise DeployError("the %s library is not installed (pip install adafruit-circuitpython-neopixel)" % lib)
        files.append((Path(spec.origin), "lib/%s.py" % lib))
    return files


def firmware_file_names() -> set[str]:
    """The drive paths of every file a deploy of this firmware writes into its packages and lib/: each
    module of pegcore/ and pegfw/ (all of them, as .py and as .mpy: an older deploy copied modules the
    chip no longer imports), each table, each library, and each under its temporary name (.tmp). On a
    drive no deploy listed its files on, only these are taken for an older deploy's."""
    modules = [p.relative_to(FIRMWARE).as_posix()[:-3] for pkg in PACKAGES for p in (FIRMWARE / pkg).rglob("*.py")]
    modules += ["lib/%s" % lib for lib in LIBS]
    names = {m + ext for m in modules for ext in (".py", ".mpy")} | set(DATA_FILES)
    return names | {name + ".tmp" for name in names}
