"""Smoke test of the service benchmark: it runs end to end and prints its five figures.

A few actions of every workload only; timings are never asserted (the machine is
shared and noisy). Skipped without ``redis-server``.
"""

from __future__ import annotations

import re

import pytest

from tests.bench import service
from tests.sync import in_thread

FIGURES = (
    "service.submit_p50_vs_limit",
    "service.throughput_vs_echo",
    "service.watch_p99_ms",
    "service.play_vs_unary_cpu",
    "service.lean_submit_p50_vs_limit",
    "service.clock_late_p99_ms",
)


@pytest.mark.slow
def test_service_benchmark_prints_its_figures() -> None:
    if service.redis_executable() is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    lines: list[str] = []
    figures = in_thread(service.run, budget=service.SMOKE_BUDGET, out=lines.append)

    assert list(figures) == list(FIGURES)
    # Machine-readable lines come last, in order, after every human-readable line.
    tail = lines[-len(FIGURES) :]
    for name, line in zip(FIGURES, tail, strict=True):
        assert re.fullmatch(rf"{re.escape(name)}: \d+\.\d{{3}}", line), line
    for line in lines[: -len(FIGURES)]:
        assert line.startswith("  ") or not re.match(r"^\S+: [-\d.]+$", line), line
    assert any("bare gRPC echo" in line for line in lines)
    troubles = [line for line in lines if "FAILED" in line or "MISSING" in line]
    assert not troubles, "\n".join(lines)
