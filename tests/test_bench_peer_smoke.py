"""Smoke test of the peer benchmark: it runs end to end and prints its figures.

Opt-in: the benchmark installs boardgame.io from the npm registry the first time
it runs, which CI must never do, so this is skipped unless ``node`` and ``npm``
are on ``PATH`` and ``SENET_PEER_BENCH=1`` is set. A few moves of every workload
only; timings are never asserted (the machine is shared and noisy).
"""

from __future__ import annotations

import os
import re

import pytest

from tests.bench import peer, service
from tests.sync import in_thread

FIGURES = (
    "peer.unary_throughput_vs_bgio",
    "peer.play_throughput_vs_bgio",
    "peer.unary_vs_null_throughput",
    "peer.play_vs_null_throughput",
    "peer.play_p50_vs_bgio",
    "peer.play_p99_vs_bgio",
    "peer.null_unary_throughput_vs_bgio",
    "peer.null_play_throughput_vs_bgio",
    "peer.lean_unary_vs_null_throughput",
    "peer.unary_vs_lean_throughput",
    "peer.lean_play_vs_null_throughput",
    "peer.play_vs_lean_throughput",
)


@pytest.mark.slow
def test_peer_benchmark_prints_its_figures() -> None:
    if os.environ.get("SENET_PEER_BENCH") != "1":
        pytest.skip("opt-in: set SENET_PEER_BENCH=1 (installs boardgame.io with npm)")
    if peer.node_tools() is None:
        pytest.skip("node and npm are not installed")
    lines: list[str] = []
    figures = in_thread(peer.run, budget=peer.SMOKE_BUDGET, out=lines.append)

    assert list(figures) == list(FIGURES)
    # Machine-readable lines come last, in order, after every human-readable line.
    tail = lines[-len(FIGURES) :]
    for name, line in zip(FIGURES, tail, strict=True):
        assert re.fullmatch(rf"{re.escape(name)}: \d+\.\d{{3}}", line), line
    for line in lines[: -len(FIGURES)]:
        assert line.startswith("  ") or not re.match(r"^\S+: [-\d.]+$", line), line
    assert any(line.startswith("  boardgame.io") for line in lines)
    assert any("Senet PlayMatch" in line and "Pebbles" in line for line in lines)
    assert any("Mykerinos" in line for line in lines)
    assert any("Null MatchService PlayMatch" in line for line in lines)
    if service.redis_executable() is not None:
        assert any("Redis" in line for line in lines)
