"""pegboard: the laptop side of the lit peg solitaire board (CLI, client, simulator)."""

__version__ = "0.1.0"
