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
ALLOWED_PRIVATE = {"os._exit", "sys._getframe", "digitalinout._live", "digitalinout._pin"}


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


# -- no import circles ----------------------------------------------------------------------------
# Every import between the project's own modules counts, at the top of a file or inside a function
# (a lazy import still makes one module need the other), except those under `if TYPE_CHECKING:`:
# they never run, and only give type comments a name.
PACKAGES = {"pegboard": ROOT / "host" / "pegboard", "pegcore": ROOT / "firmware" / "pegcore",
            "pegfw": ROOT / "firmware" / "pegfw"}


def module_name(path):
    for package, folder in PACKAGES.items():
        if folder in path.parents:
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            return ".".join([package] + parts)
    raise ValueError(path)


def project_modules():
    return {module_name(f): f for folder in PACKAGES.values() for f in folder.rglob("*.py")
            if "device" not in f.relative_to(folder).parts}  # the simulator's fakes are not imported by name


def _type_checking_only(node, parents):
    return any(isinstance(p, ast.If) and "TYPE_CHECKING" in ast.unparse(p.test) and node in ast.walk(p)
               and not any(node in ast.walk(o) for o in p.orelse) for p in parents)


def imports_of(name, path, known):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    guards = [n for n in ast.walk(tree) if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)]
    out = set()
    for node in ast.walk(tree):
        if _type_checking_only(node, guards):
            continue
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from package import module` needs the module; `from module import name`, the module
            subs = ["%s.%s" % (node.module, a.name) for a in node.names if "%s.%s" % (node.module, a.name) in known]
            targets = subs if subs and len(subs) == len(node.names) else [node.module] + subs
        for t in targets:
            # importing a.b.c runs a/b/__init__.py (and a's) first: a package's face is needed too
            parts = t.split(".")
            for need in [".".join(parts[:k]) for k in range(1, len(parts))] + [t]:
                if need in known and need != name:
                    out.add(need)
    # and a module is loaded after its packages' faces (a/__init__.py runs before a/b.py)
    parts = name.split(".")
    out |= {p for p in (".".join(parts[:k]) for k in range(1, len(parts))) if p in known and p != name}
    return out


def import_graph():
    known = project_modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def circles(graph):
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_host_or_firmware():
    graph = import_graph()
    assert len(graph) > 80, "the scan found the project's modules"
    assert not circles(graph), "import circles: %s" % circles(graph)


def test_no_import_circles_among_the_simulators_device_fakes():
    """The fakes the firmware imports by CircuitPython's own names (keypad, board, ...), lazy imports
    inside functions included: none imports back one that imports it."""
    device = ROOT / "host" / "pegboard" / "sim" / "device"
    names = {f.stem for f in device.glob("*.py")}
    graph = {}
    for f in device.glob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"), str(f))
        graph[f.stem] = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} \
            | {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        graph[f.stem] = (graph[f.stem] & names) - {f.stem}
    assert "keypad" in graph and circles(graph) == []


def test_the_circle_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_architecture_tree_names_every_module():
    """docs/architecture.md's tree is how a reader finds a part: every module of the host and the
    firmware is named in it (the simulator's device fakes are named as a group)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [str(path.relative_to(ROOT)) for path in project_modules().values()
               if path.name not in ("__init__.py", "__main__.py") and path.name not in text]
    assert not missing, "docs/architecture.md does not name: %s" % ", ".join(sorted(missing))


def test_the_architecture_tree_names_no_module_that_is_gone():
    """The other way round: every Python file the tree names is in the project (a module renamed
    or removed leaves no stale name for a reader to look for)."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    tree = text.split("```")[1]  # the tree: the first block
    named = set(re.findall(r"\b([a-z_][a-z0-9_]*\.py)\b", tree))
    real = {p.name for part in ("firmware", "host", "tests", "bench") for p in (ROOT / part).rglob("*.py")}
    gone = sorted(named - real)
    assert named and not gone, "docs/architecture.md names files that are not in the project: %s" % ", ".join(gone)
