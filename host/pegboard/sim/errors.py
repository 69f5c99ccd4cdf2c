"""The simulator's one error: a bad argument, a firmware folder it cannot run, a missing tool."""


class SimError(Exception):
    """The simulated board cannot run as asked; `missing` names a tool to install when that is why."""

    def __init__(self, message: str = "", missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing
