"""Smoke test of the rules benchmark: it runs end to end and prints its figures.

Timings are never asserted; the machine is shared and noisy.
"""

from __future__ import annotations

import re

from tests.bench import rules


def test_rules_benchmark_prints_the_ratio_line() -> None:
    lines: list[str] = []
    budget = rules.Budget(rounds=1, seconds=0.0, min_games=1, warmup_games=0)
    figures = rules.run(budget=budget, out=lines.append)

    assert "rules.mykerinos.decisions_vs_chess" in figures
    ratio_lines = [line for line in lines if line.startswith("rules.mykerinos.decisions_vs_chess:")]
    assert len(ratio_lines) == 1
    assert re.fullmatch(r"rules\.mykerinos\.decisions_vs_chess: \d+\.\d{3}", ratio_lines[0])
    # Machine-readable lines come last, after every human-readable line.
    assert lines[-1] == ratio_lines[0]
    assert any("mykerinos 4p" in line for line in lines)
