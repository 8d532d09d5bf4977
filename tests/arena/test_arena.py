"""The arena: a small tournament end to end, and the statistics it reports.

The end-to-end test runs ``senet arena`` itself (embedded server, in-process
workers, decisions in threads to skip process start-up) on a tiny 2-player
tournament and checks the JSON against what the rotation promises; the unit
tests pin the Wilson interval to published values, fractional wins on ties and
the OpenSkill ordering.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from senet.arena.players import PlayerSpec, derive_seed
from senet.arena.runner import rotation
from senet.arena.stats import MatchResult, summarize, wilson_interval, win_shares
from senet.cli import main


@pytest.mark.slow
def test_small_tournament_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    argv = ["arena", "--players", "random,greedy", "--matches", "6", "--parallel", "3"]
    code = main([*argv, "--seed", "11", "--processes", "0", "--out", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["seed"] == 11 and data["deterministic"] is True
    matches = data["matches"]
    assert len(matches) == 6
    assert len({m["id"] for m in matches}) == 6
    seat_counts: Counter[tuple[str, str]] = Counter()
    for m in matches:
        assert sorted(m["seats"].values()) == ["greedy", "random"]
        assert len(m["scores"]) == len(m["places"]) == 2
        assert min(m["places"]) == 1
        # Places follow scores (the game's tiebreak only decides equal scores).
        top = max(range(2), key=lambda s: (m["scores"][s], -m["places"][s]))
        assert m["places"][top] == 1
        assert m["seed"] == derive_seed(11, "match", m["index"])
        seat_counts.update(m["seats"].items())
    assert seat_counts == {("0", "random"): 3, ("1", "random"): 3, ("0", "greedy"): 3,
                           ("1", "greedy"): 3}  # fmt: skip
    summary = {s["player"]: s for s in data["summary"]}
    assert summary["random"]["games"] == summary["greedy"]["games"] == 6
    assert summary["random"]["wins"] + summary["greedy"]["wins"] == pytest.approx(6)
    low, high = summary["greedy"]["win_rate_ci95"]
    assert low <= summary["greedy"]["win_rate"] <= high


def test_player_specs() -> None:
    assert PlayerSpec.parse("mcts@0.2s") == PlayerSpec("mcts@0.2s", "mcts", 0.2, None)
    assert PlayerSpec.parse("mcts@500i") == PlayerSpec("mcts@500i", "mcts", None, 500)
    # The ladder's form reads the same everywhere (a trial met both).
    assert PlayerSpec.parse("mcts:500") == PlayerSpec("mcts:500", "mcts", None, 500)
    assert PlayerSpec.parse("mcts", iterations=50).iterations == 50
    assert not PlayerSpec.parse("mcts@0.2s").deterministic
    assert PlayerSpec.parse("greedy", seconds=0.2).deterministic
    for bad in ("alphazero", "mcts@", "mcts@1.5i", "mcts@0s", "mcts@2x", "mcts:0", "mcts:1.5"):
        with pytest.raises(ValueError):
            PlayerSpec.parse(bad)


def test_rotation_gives_every_player_every_seat() -> None:
    players = [PlayerSpec.parse(p) for p in ("mcts@10i", "greedy", "random")]
    lineups = [[p.label for p in rotation(players, i)] for i in range(3)]
    for seat in range(3):
        assert sorted(lineup[seat] for lineup in lineups) == ["greedy", "mcts@10i", "random"]


def test_wilson_interval_known_values() -> None:
    # Reference values (Wilson 1927; e.g. statsmodels proportion_confint method="wilson").
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4) and high == pytest.approx(0.3662, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # Fractional wins sit between their integer neighbours.
    assert wilson_interval(4, 10)[0] < wilson_interval(4.5, 10)[0] < wilson_interval(5, 10)[0]


def test_ties_share_the_win() -> None:
    assert win_shares([1, 2, 3]) == [1.0, 0.0, 0.0]
    assert win_shares([1, 1, 3, 4]) == [0.5, 0.5, 0.0, 0.0]
    assert win_shares([2, 1, 1, 1]) == pytest.approx([0, 1 / 3, 1 / 3, 1 / 3])
    tie = MatchResult(0, "m", 1, ["a", "b", "c"], [10, 10, 3], [1, 1, 3])
    summary = {s.player: s for s in summarize([tie], ["a", "b", "c"])}
    assert summary["a"].wins == summary["b"].wins == 0.5
    assert summary["c"].wins == 0.0
    assert summary["a"].mean_margin == 0 and summary["c"].mean_margin == -7


def test_openskill_orders_a_consistent_ranking() -> None:
    results = [
        MatchResult(i, f"m{i}", i, lineup, [30, 20, 10][: len(lineup)], places)
        for i in range(12)
        for lineup, places in [(["strong", "mid", "weak"], [1, 2, 3])]
    ]
    summary = summarize(results, ["weak", "mid", "strong"])
    ordinals = {s.player: s.rating_ordinal for s in summary}
    assert ordinals["strong"] > ordinals["mid"] > ordinals["weak"]
    assert [s.player for s in summary] == ["weak", "mid", "strong"]  # listing order kept


def test_duplicate_labels_share_one_rating() -> None:
    results = [MatchResult(i, f"m{i}", i, ["g", "r", "r"], [9, 5, 1], [1, 2, 3]) for i in range(8)]
    summary = {s.player: s for s in summarize(results, ["g", "r"])}
    assert summary["r"].games == 16 and summary["g"].games == 8
    assert summary["g"].rating_ordinal > summary["r"].rating_ordinal
    assert summary["r"].mean_place == 2.5


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from senet.arena.report import write_plot

    results = [MatchResult(i, f"m{i}", i, ["a", "b"], [5, 3], [1, 2]) for i in range(4)]
    chart = tmp_path / "chart.png"
    write_plot(chart, summarize(results, ["a", "b"]), seats=2)
    assert chart.read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_arena_runs_archeos(tmp_path: Path) -> None:
    out = tmp_path / "archeos.json"
    argv = ["arena", "--game", "archeos", "--players", "greedy,random,random"]
    code = main([*argv, "--matches", "3", "--seed", "5", "--processes", "0", "--out", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 3
    assert all(len(m["scores"]) == 3 and min(m["places"]) == 1 for m in data["matches"])


@pytest.mark.slow
def test_arena_plays_mare_nostrum_through_its_simultaneous_offers(tmp_path: Path) -> None:
    """Mare Nostrum's trade has several seats offering at once: each arena bot
    decides for its seat while the others decide too, and every match ends."""
    out = tmp_path / "marenostrum.json"
    argv = ["arena", "--game", "marenostrum", "--players", "greedy,random,random"]
    argv += ["--option", "turn_limit=2", "--matches", "2", "--seed", "3", "--processes", "0"]
    assert main([*argv, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 2
    assert all(len(m["scores"]) == 3 and min(m["places"]) == 1 for m in data["matches"])


def _without_grpc_verbosity() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "GRPC_VERBOSITY"}


def test_the_command_keeps_grpc_to_its_errors_unless_told() -> None:
    probe = "import os, senet.cli; print(os.environ['GRPC_VERBOSITY'])"
    quiet = subprocess.run(
        [sys.executable, "-c", probe], env=_without_grpc_verbosity(),
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert quiet.stdout.strip() == "ERROR"
    told = subprocess.run(
        [sys.executable, "-c", probe], env={**_without_grpc_verbosity(), "GRPC_VERBOSITY": "INFO"},
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert told.stdout.strip() == "INFO"
