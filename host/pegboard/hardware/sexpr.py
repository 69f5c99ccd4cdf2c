"""KiCad's S-expression files (.kicad_mod, .kicad_sym, .kicad_pcb) read into nested lists: an atom is
a str (a quoted string with its quotes taken off), a list is (head, args...)."""

from __future__ import annotations

import re
from typing import Any

class Quoted(str):
    """An atom that was a quoted string in the file (written back with its quotes)."""


_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse(text: str) -> list:
    """The first expression of the text."""
    stack: list[list] = [[]]
    pos = 0
    while True:
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        opened, closed, quoted, atom = m.groups()
        if opened:
            stack.append([])
        elif closed:
            if len(stack) < 2:
                raise ValueError("unbalanced ')' at %d" % pos)
            done = stack.pop()
            stack[-1].append(done)
        elif quoted is not None:
            stack[-1].append(Quoted(quoted.replace('\\"', '"').replace("\\\\", "\\")))
        else:
            stack[-1].append(atom)
    if len(stack) != 1 or not stack[0]:
        raise ValueError("unbalanced S-expression")
    return stack[0][0]


def items(node: list, head: str) -> list[list]:
    """The node's children that are lists starting with head."""
    return [c for c in node[1:] if isinstance(c, list) and c and c[0] == head]


def item(node: list, head: str) -> Any:
    """The first child list starting with head, or None (Any: callers index what a KiCad file
    always has)."""
    found = items(node, head)
    return found[0] if found else None


def quote(s: str) -> str:
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def dump(node: list | str, indent: int = 0) -> str:
    """An expression as KiCad writes it, in its own order: a list of atoms (or of lists of atoms)
    on one line; otherwise each list item on a line of its own."""
    if not isinstance(node, list):
        return quote(node) if isinstance(node, Quoted) else node
    if all(not isinstance(c, list) or all(not isinstance(d, list) for d in c) for c in node) and len(node) <= 5:
        return "(" + " ".join(dump(c) for c in node) + ")"
    out = "("
    for i, c in enumerate(node):
        if isinstance(c, list):
            out += "\n" + "  " * (indent + 1) + dump(c, indent + 1)
        else:
            out += ("" if i == 0 else " ") + dump(c)
    return out + ")"
