"""Benchmarks: `python -m bench [module ...]` prints one JSON object of measured figures."""
