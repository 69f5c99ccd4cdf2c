"""The one error of `pegboard deploy`: its message says what was found and what to do."""


class DeployError(Exception):
    pass
