"""Benchmarks: `python -m bench [module ...]` prints one JSON object of figures (RP2040 timings: emulated
cycles, bench/util.py; none measured on a board)."""
