"""Smoke test of the learning-adapter benchmark: it runs end to end and prints its figures.

Timings are never asserted; the machine is shared and noisy.
"""

from __future__ import annotations

from senet.games import all_games
from tests.bench import rl, rules
from tests.sync import in_thread


def test_rl_benchmark_prints_a_figure_per_game() -> None:
    lines: list[str] = []
    budget = rules.Budget(rounds=1, seconds=0.0, min_games=1, warmup_games=0)
    figures = in_thread(rl.run, budget=budget, out=lines.append)
    for game in all_games():
        for figure in (
            "env_steps_per_s",
            "writer_compiled",
            "env_python_steps_per_s",
            "compiled_vs_python",
            "env_vs_core",
            "core_view_decisions_per_s",
            "env_vs_core_view",
            "null_env_steps_per_s",
            "env_vs_null_env",
            "null_env_vs_core",
            "env_vs_core_ceiling",
            "free_observation_vs_core",
            "observation_share",
            "bare_env_vs_core",
            "bare_ceiling",
            "writer_vs_decision",
            "writer_compare_vs_decision",
            "env_vs_core_bound",
        ):
            name = f"rl.{game.info.id}.{figure}"
            assert name in figures
            assert any(line.startswith(f"{name}: ") for line in lines)
