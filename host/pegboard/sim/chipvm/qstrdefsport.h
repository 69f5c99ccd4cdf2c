// qstrs specific to this port (none beyond those found in its sources)
