"""Benchmarks: each module prints its figures; `make bench` runs them all."""
