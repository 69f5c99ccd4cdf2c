# T5 solution counts in the MicroPython VM (needs ~1 MB heap for the count memo).
import sys
sys.path.insert(0, "firmware")
from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver

b = Board(5)
print("t5", [Solver(b).count(start_mask(b, e)) for e in range(1, 16)])
