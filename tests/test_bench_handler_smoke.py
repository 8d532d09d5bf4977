"""Smoke test of the handler benchmark: it runs end to end in its child process and
prints its figures. Timings are never asserted (the machine is shared and noisy)."""

from __future__ import annotations

from tests.bench import handler

FIGURES = (
    "handler.submit_us",
    "handler.null_submit_us",
    "handler.submit_vs_null",
    "handler.play_move_us",
    "handler.null_play_move_us",
    "handler.play_vs_null",
    "handler.lean_submit_us",
    "handler.submit_vs_lean",
    "handler.lean_play_move_us",
    "handler.play_vs_lean",
)


def test_handler_benchmark_prints_its_figures_and_where_the_time_goes() -> None:
    lines: list[str] = []
    figures = handler.run(quick=True, out=lines.append)
    for name in FIGURES:
        assert figures[name] > 0
        assert any(line.startswith(f"{name}: ") for line in lines)
    assert any("submissions.py" in line for line in lines)  # the profile's functions
