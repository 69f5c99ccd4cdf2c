"""Bad input from the user: its own module, so every command (and `boardargs`) can raise it
without importing the command line that catches it."""


class UsageError(Exception):
    """Bad input from the user: printed as `pegboard: error: ...` with exit code 2."""
