"""pegfw: the lit board's firmware application (everything but the pure core in pegcore)."""

VERSION = "0.1.0"


def unload(name):
    """Let a module that has done its job (start-up, a finished show, a rare command) leave the
    heap; the chip compiles it again if it is ever needed. Callers drop their own references."""
    import sys

    sys.modules.pop(name, None)
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot])
    try:
        delattr(parent, name[dot + 1:])  # importing a submodule made it an attribute of its package
    except (AttributeError, KeyError):  # never loaded, or gone already (MicroPython: KeyError)
        pass
