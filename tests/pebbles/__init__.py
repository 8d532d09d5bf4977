"""Pebbles, a small game that lives only in the test suite.

It proves that a game is a set of plug-ins: its rules core (:mod:`tests.pebbles.core`)
and its codec (:mod:`tests.pebbles.codec`, the generic one) are registered through
entry points alone (``tests/plugins/senet_pebbles-0.dist-info``), and it has no text
renderer and no bot heuristics of its own, so those layers fall back to generic ones.
"""
