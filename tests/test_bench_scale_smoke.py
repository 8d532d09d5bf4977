"""Smoke test of the scale benchmark: it runs end to end and prints its figures.

A fraction of a second of load per window; timings are never asserted (the
machine is shared and noisy). Skipped without ``redis-server``.
"""

from __future__ import annotations

import re

import pytest

from tests.bench import scale, service
from tests.sync import in_thread


@pytest.mark.slow
def test_scale_benchmark_prints_its_ratio_and_the_core_count() -> None:
    if service.redis_executable() is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    lines: list[str] = []
    figures = in_thread(scale.run, budget=scale.SMOKE_BUDGET, out=lines.append)

    assert list(figures) == ["scale.actions_per_s_3_vs_1", "scale.cores"]
    assert figures["scale.actions_per_s_3_vs_1"] > 0
    assert figures["scale.cores"] == len(scale.cpus())
    assert re.fullmatch(r"scale\.actions_per_s_3_vs_1: \d+\.\d{3}", lines[-2]), lines[-2]
    assert lines[-1] == f"scale.cores: {len(scale.cpus())}"
    assert any("1 replica (baseline)" in line for line in lines)
