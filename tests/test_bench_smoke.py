"""Smoke test of the rules benchmark: it runs end to end and prints its figures.

Timings are never asserted; the machine is shared and noisy.
"""

from __future__ import annotations

import re

import pytest

from senet.games import all_games
from tests.bench import rules
from tests.sync import in_thread


@pytest.mark.slow
def test_rules_benchmark_prints_the_ratio_line() -> None:
    lines: list[str] = []
    budget = rules.Budget(rounds=1, seconds=0.0, min_games=1, warmup_games=0)
    figures = in_thread(rules.run, budget=budget, out=lines.append)

    ratio_lines = []
    game_ids = [game.info.id for game in all_games()]
    assert {"archeos", "mykerinos"} <= set(game_ids)
    for game_id in game_ids:
        assert f"rules.{game_id}.decisions_vs_chess" in figures
        mine = [line for line in lines if line.startswith(f"rules.{game_id}.decisions_vs_chess:")]
        assert len(mine) == 1
        assert re.fullmatch(rf"rules\.{game_id}\.decisions_vs_chess: \d+\.\d{{3}}", mine[0])
        assert any(f"{game_id} 4p" in line for line in lines)
        ratio_lines += mine
    # Machine-readable lines come last, after every human-readable line.
    assert set(lines[-len(ratio_lines) :]) == set(ratio_lines)
