"""Code that is loaded for one piece of work and leaves the heap when the work ends: a show, a
long request (a job), a rare request, a resumed game's catch-up.

Each piece of work is an *owner* ("show", "job", "request", "resume"). `begin(owner)` notes which
modules are loaded; whatever is imported after it belongs to the owner; `end(owner)` drops the
firmware's modules loaded since, except those a later owner still needs (a demo started by a
request outlives the request). A module dropped from `sys.modules` goes back to the heap once
nothing uses it; if it is needed again, the chip compiles it again.

Start-up's modules are dropped by name (pegfw.startup, code.py): they run once, before any owner."""

import sys

_owners = []  # [owner, the module names loaded when it began], in the order they began
frozen = [False]  # a deploy is writing the drive (`quiet`): no code is compiled from it meanwhile


def unload(name):
    """Drop module `name` from sys.modules (and from its package's attributes)."""
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot])
    try:
        delattr(parent, name[dot + 1:])  # importing a submodule made it an attribute of its package
    except (AttributeError, KeyError):  # never loaded, or gone already (MicroPython: KeyError)
        pass


def load(name):
    """Import module `name` (dotted) and return it: `__import__` returns the top package. A module
    not in memory while a deploy rewrites the files it would be read from is `busy`."""
    if frozen[0] and name not in sys.modules:
        # imported here, not at the top: start-up loads this module before its first light, and
        # protocol's code is in memory whenever the App is
        from pegfw.protocol import ProtocolError

        raise ProtocolError("busy", "the board is being updated (%s is not in memory): ask again after it "
                            "restarts" % name)
    __import__(name)
    return sys.modules[name]


def begin(owner):
    """From now on, what is imported belongs to `owner` (an owner begun twice ends first)."""
    end(owner)
    _owners.append([owner, list(sys.modules)])


def forget():
    """A new App starts with no owners and nothing frozen (a test or the simulator may build
    several in one run)."""
    frozen[0] = False
    while _owners:
        _owners.pop()


def live(owner):
    for o in _owners:
        if o[0] == owner:
            return True
    return False


def end(owner):
    """`owner`'s work is done: drop the firmware modules loaded since it began, but for those
    loaded after a later owner began that is still live (a demo started by a request needs its
    show's code after the request's answer)."""
    for i in range(len(_owners)):
        if _owners[i][0] == owner:
            before = _owners.pop(i)[1]
            later = _owners[i:]
            break
    else:
        return
    for name in list(sys.modules):
        if name.startswith("peg") and name not in before and not _loaded_for(later, name):
            unload(name)


def _loaded_for(owners, name):
    for o in owners:
        if name not in o[1]:
            return True
    return False
