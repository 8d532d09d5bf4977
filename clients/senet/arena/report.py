"""Arena output: the results table (rich), the JSON results file and the win-rate chart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from senet.arena.runner import ArenaRun
from senet.arena.stats import EntrantSummary


def results_table(summaries: Sequence[EntrantSummary], seats: int) -> Table:
    """One row per entrant, best rating first; short headers so it fits 80 columns."""
    table = Table(
        title="Arena results",
        caption=f"n: seat appearances. Ties for first share the win; an equal player wins "
        f"{1 / seats:.3f}. margin: score minus best other score. rating: OpenSkill "
        "(Plackett-Luce) mu ± sigma and ordinal (mu - 3 sigma).",
    )
    table.add_column("player", no_wrap=True)
    for column in ("n", "wins", "win rate (95% CI)", "score", "margin", "place", "rating"):
        table.add_column(column, justify="right", no_wrap=True)
    for s in sorted(summaries, key=lambda s: -s.rating_ordinal):
        low, high = s.interval
        table.add_row(
            s.player,
            str(s.games),
            f"{s.wins:g}",
            f"{s.win_rate:.2f} ({low:.2f}-{high:.2f})",
            f"{s.mean_score:.1f}",
            f"{s.mean_margin:+.1f}",
            f"{s.mean_place:.2f}",
            f"{s.rating_mu:.1f}±{s.rating_sigma:.1f} ({s.rating_ordinal:.1f})",
        )
    return table


def print_table(run: ArenaRun, summaries: Sequence[EntrantSummary], console: Console) -> None:
    console.print(results_table(summaries, len(run.config.players)))
    if not all(spec.deterministic for spec in run.config.players):
        console.print(
            "[dim]time budgets: results vary between runs even with --seed "
            "(use NAME@<n>i for reproducible play)[/dim]"
        )


def results_json(run: ArenaRun, summaries: Sequence[EntrantSummary]) -> dict[str, Any]:
    """Everything needed to check or re-run the tournament, plus the summary."""
    config = run.config
    return {
        "game": config.game,
        "players": [spec.label for spec in config.players],
        "matches_requested": config.matches,
        "parallel": config.parallel,
        "seed": run.seed,
        "deterministic": all(spec.deterministic for spec in config.players),
        "matches": [
            {
                "id": r.match_id,
                "index": r.index,
                "seed": r.seed,
                "seats": {str(seat): player for seat, player in enumerate(r.players)},
                "scores": r.scores,
                "places": r.places,
            }
            for r in run.results
        ],
        "summary": [s.to_json() for s in summaries],
    }


def write_json(path: Path, run: ArenaRun, summaries: Sequence[EntrantSummary]) -> None:
    path.write_text(json.dumps(results_json(run, summaries), indent=2) + "\n")


class PlotUnavailable(RuntimeError):
    """matplotlib is missing (it is the optional extra ``plot``)."""


def plot_title(run: ArenaRun) -> str:
    """``mykerinos: 200 matches, seed 42``: what the chart shows, to tell charts apart."""
    return f"{run.config.game}: {len(run.results)} matches, seed {run.seed}"


#: Height drawn for a win rate of zero, so a player who never won still has a bar.
ZERO_BAR = 0.006


def write_plot(
    path: Path, summaries: Sequence[EntrantSummary], seats: int, title: str = ""
) -> None:
    """A PNG bar chart of win rates with 95% Wilson error bars, each bar labelled with
    its rate (a zero rate is drawn as a thin bar, never as nothing).

    matplotlib is imported here, not at module level: it is an optional extra and
    slow to import, and most runs never plot.

    Raises:
        PlotUnavailable: matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PlotUnavailable(
            "--plot needs matplotlib: pip install 'senet[plot]' (or pip install matplotlib)"
        ) from exc
    names = [s.player for s in summaries]
    rates = [s.win_rate for s in summaries]
    lows = [max(0.0, s.win_rate - s.interval[0]) for s in summaries]
    highs = [max(0.0, s.interval[1] - s.win_rate) for s in summaries]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 2), 4))
    heights = [max(rate, ZERO_BAR) for rate in rates]
    bars = axes.bar(
        names, heights, yerr=[lows, highs], capsize=6, color="tab:blue", edgecolor="navy"
    )
    axes.bar_label(bars, labels=[f"{rate:.2f}" for rate in rates], padding=3)
    axes.axhline(1 / seats, color="grey", linestyle="--", label="equal player")
    axes.set_ylabel("win rate (95% Wilson CI)")
    axes.set_ylim(0, 1.05)
    if title:
        axes.set_title(title)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
