"""Smoke test of the matchmaking benchmark: it runs end to end and prints its figures.

A few dozen players for a second, one replica SIGKILLed; timings are never
asserted (the machine is shared and noisy), only what must hold under any load:
no ticket placed twice, none lost. Skipped without ``redis-server``.
"""

from __future__ import annotations

import pytest

from tests.bench import matchmaking, service
from tests.sync import in_thread


@pytest.mark.slow
def test_matchmaking_benchmark_prints_its_figures_and_loses_no_ticket() -> None:
    if service.redis_executable() is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    lines: list[str] = []
    figures = in_thread(matchmaking.run, budget=matchmaking.SMOKE_BUDGET, out=lines.append)
    assert list(figures) == [
        "matchmaking.time_to_match_p50_s",
        "matchmaking.time_to_match_p99_s",
        "matchmaking.matched",
        "matchmaking.unmatched",
        "matchmaking.double_placed",
        "matchmaking.lost_tickets",
        "matchmaking.rating_spread",
        "matchmaking.rating_spread_random",
    ]
    assert figures["matchmaking.double_placed"] == 0
    assert figures["matchmaking.lost_tickets"] == 0
    assert figures["matchmaking.matched"] > 0
    assert lines[-1].startswith("matchmaking.rating_spread_random: ")
