"""Where the arena writes, what its chart says, and how it reports progress and problems."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from senet.arena import cli as arena_cli
from senet.arena.players import PlayerSpec
from senet.arena.report import plot_title
from senet.arena.runner import ArenaConfig, ArenaRun, run_arena
from senet.arena.stats import MatchResult, summarize
from senet.cli.beside import embedded_server


def test_bare_file_names_go_to_the_results_folder(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    assert arena_cli.placed(Path("run.json"), folder) == folder / "run.json"
    assert folder.is_dir()
    elsewhere = tmp_path / "charts" / "run.png"
    assert arena_cli.placed(elsewhere, folder) == elsewhere
    assert elsewhere.parent.is_dir()


def test_the_chart_title_names_game_matches_and_seed() -> None:
    config = ArenaConfig(game="archeos", players=[PlayerSpec.parse("random")] * 2, matches=3)
    run = ArenaRun(config, 42)
    run.results = [
        MatchResult(i, f"m{i}", i, ["random", "random"], [1, 0], [1, 2]) for i in range(3)
    ]
    assert plot_title(run) == "archeos: 3 matches, seed 42"


def test_a_chart_with_a_player_who_never_won(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from senet.arena.report import write_plot

    results = [MatchResult(i, f"m{i}", i, ["a", "b"], [5, 3], [1, 2]) for i in range(4)]
    chart = tmp_path / "chart.png"
    write_plot(chart, summarize(results, ["a", "b"]), seats=2, title="mykerinos: 4 matches")
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_the_install_hint_keeps_its_brackets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    parser = argparse.ArgumentParser()
    arena_cli.add_arguments(parser)
    args = parser.parse_args(["--players", "random,random", "--plot", str(tmp_path / "c.png")])
    assert arena_cli.run(args) == 2
    assert "pip install 'senet[plot]'" in capsys.readouterr().out


@pytest.mark.slow
async def test_progress_is_reported_for_every_action_and_every_match() -> None:
    config = ArenaConfig(
        game="mykerinos",
        players=[PlayerSpec.parse("random")] * 2,
        matches=2,
        parallel=2,
        seed=3,
        processes=0,
    )
    actions: list[int] = []
    done: list[int] = []
    arena = await run_arena(
        config,
        lambda result: done.append(len(actions)),
        start_server=embedded_server,
        on_action=actions.append,
    )
    assert sorted(set(actions)) == [0, 1]
    assert len(done) == 2 and 0 < done[0] <= done[1] == len(actions)
    assert len(arena.results) == 2
