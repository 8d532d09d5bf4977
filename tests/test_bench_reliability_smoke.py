"""Smoke test of the reliability soak: it runs end to end, through every fault, and
prints its two figures, both 0. Tiny phases and a short stall; skipped without
``redis-server``."""

from __future__ import annotations

import re

import pytest

from tests.bench import reliability, service
from tests.sync import in_thread

FIGURES = ("reliability.lost_actions", "reliability.internal_errors")


@pytest.mark.slow
def test_reliability_soak_loses_nothing_and_prints_its_figures() -> None:
    if service.redis_executable() is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    lines: list[str] = []
    figures = in_thread(reliability.run, budget=reliability.SMOKE_BUDGET, out=lines.append)

    assert list(figures) == list(FIGURES)
    assert figures == dict.fromkeys(FIGURES, 0.0)
    tail = lines[-len(FIGURES) :]
    for name, line in zip(FIGURES, tail, strict=True):
        assert re.fullmatch(rf"{re.escape(name)}: \d+", line), line
    for fault in ("replica A SIGKILLed", "Redis SIGKILLed", "DEBUG SLEEP"):
        assert any(fault in line for line in lines), fault
    assert any("baseline" in line for line in lines)
