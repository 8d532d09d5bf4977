"""Senet benchmarks: ``python -m tests.bench`` (``make bench``).

Each benchmark is a sibling module with a ``run(*, quick, out)`` function that
measures its figures beside a baseline taken in the same run and prints them.
Machine-readable figures are lines of exactly ``<dotted.name>: <number>`` at
column 0; everything meant only for people is indented or is a header without
a number after its colon.
"""
