"""Playing the simulated board by hand, as a person would, for tests."""

from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver


def play_a_solution(sim, client, empty: int = 1) -> dict:
    """Fill the board but `empty`, play the solver's solution one jump at a time at a person's
    pace (the sensors see each move), and return the board's state after."""
    b = Board(5)
    sim.control("fill", empty=empty)
    sim.control("wait_idle")
    for j in Solver(b).solution(start_mask(b, empty)):
        f, o, t = b.move_of(j)
        sim.control("lift", hole=f)
        sim.control("place", hole=t)
        sim.control("lift", hole=o)
        sim.control("wait_idle")
    return client.request("state")
