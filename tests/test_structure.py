"""The codebase keeps its seams: one command table that the docs and `info` agree with, and no
module reaching into another's private names."""

import ast
import importlib
import re
from pathlib import Path

from pegfw import board_requests
from pegfw.commands import COMMANDS

ROOT = Path(__file__).resolve().parent.parent

# Private names that are fine to use: the standard library's own, where documented (os._exit) or
# with no public alias.
# os and sys's own; and the simulator's device fakes, where one fake reads another's state as the
# C module it stands in for does on the chip (neopixel_write checks a DigitalInOut, keypad's rarer
# scanners share its scanner)
ALLOWED_PRIVATE = {"os._exit", "sys._getframe", "digitalinout._live", "digitalinout._pin", "keypad._Scanner"}


def documented_commands():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z]+)` \|", section, re.M))


def test_the_command_table_is_what_the_docs_list():
    assert documented_commands() == set(COMMANDS)


def test_every_command_has_its_handler_and_no_handler_is_left_out():
    handlers = set()
    for module in set(COMMANDS.values()):
        m = importlib.import_module(module)
        handlers |= {(module, n[4:]) for n in dir(m) if n.startswith("cmd_") and callable(getattr(m, n))}
    assert handlers == set((module, name) for name, module in COMMANDS.items())


def test_info_capabilities_are_commands():
    assert set(board_requests.CAPABILITIES) <= set(COMMANDS)
    assert set(COMMANDS) - set(board_requests.CAPABILITIES) == {"info", "state", "stop"}  # always there


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def private_uses(path):
    """`x._name` where x is not self or cls, and `from m import _name`, in one file; a private name
    the file itself defines (one class of a module using another's) is its own business."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and _private(n.name)}
    own |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
            and _private(n.attr)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls") or node.attr in own:
                continue
            text = ast.unparse(node)
            if text not in ALLOWED_PRIVATE:
                out.append("%s:%d: %s" % (path, node.lineno, text))
        elif isinstance(node, ast.ImportFrom):
            out += ["%s:%d: from %s import %s" % (path, node.lineno, node.module, a.name)
                    for a in node.names if _private(a.name)]
    return out


def test_no_module_uses_another_ones_private_names():
    files = [f for part in ("firmware", "host/pegboard", "bench") for f in sorted((ROOT / part).rglob("*.py"))]
    found = [use for f in files for use in private_uses(f)]
    assert not found, "\n".join(found)


def test_the_scan_sees_a_private_use(tmp_path):
    f = tmp_path / "probe.py"
    f.write_text("import os\nx = os._exit\ny = link._write\nfrom m import _helper\nself._ok = 1\n")
    found = private_uses(f)
    assert sorted(u.split(": ", 1)[1] for u in found) == ["from m import _helper", "link._write"]
