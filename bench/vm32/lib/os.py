# os for micropython32: only what the simulator's fakes ask for (nothing is set in the bench)


def getenv(name, default=None):
    return default
