"""Solving on the PC: the numpy engine, the hint tables' generator, solution files."""
