"""The simulator's one error: a bad argument, a firmware folder it cannot run, a missing tool."""


class SimError(Exception):
    pass
