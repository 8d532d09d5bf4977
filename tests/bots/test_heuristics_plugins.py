"""Bot heuristics are plug-ins: found by game id through ``senet.bot_heuristics``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from senet.bots import heuristics
from senet.bots.archeos.heuristics import archeos_values
from senet.bots.heuristics import (
    BOT_HEURISTICS,
    GameHeuristics,
    evaluator_for,
    score_values,
    search_evaluator_for,
)
from senet.bots.marenostrum.heuristics import marenostrum_search_values, marenostrum_values
from senet.bots.mykerinos.heuristics import mykerinos_values
from senet.games import PluginRegistry, get_game


def test_senet_games_publish_their_evaluators() -> None:
    assert {"archeos", "mykerinos"} <= set(BOT_HEURISTICS.game_ids())
    assert evaluator_for("mykerinos") is mykerinos_values
    assert evaluator_for("archeos") is archeos_values


def test_the_search_evaluator_is_the_plugins_own_or_the_plain_one() -> None:
    """MCTS searches with ``search_values`` where a game gives one; greedy never does."""
    assert search_evaluator_for("marenostrum") is marenostrum_search_values
    assert evaluator_for("marenostrum") is marenostrum_values
    assert search_evaluator_for("mykerinos") is mykerinos_values
    assert search_evaluator_for("unknown") is score_values


def test_a_game_without_heuristics_is_judged_by_its_scores() -> None:
    assert evaluator_for("unknown") is score_values
    state = get_game("mykerinos").new_match(3, seed=1)
    assert score_values(state) == [float(score) for score in state.scores()]


def test_team_mates_share_a_side_and_other_seats_play_alone() -> None:
    team = get_game("mykerinos").new_match(4, options={"team": True}, seed=3)
    assert [len(side) for side in team.sides()] == [2, 2, 2, 2]
    assert all(side[0] == seat for seat, side in enumerate(team.sides()))
    solo = get_game("archeos").new_match(3, seed=3)
    assert solo.sides() == [(0,), (1,), (2,)]


@pytest.fixture
def declared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A third-party distribution on ``sys.path`` whose heuristics claim ``mykerinos``,
    read by a fresh registry."""
    module = tmp_path / "senet_plugin_test_heuristics.py"
    module.write_text(
        "from senet.bots.heuristics import GameHeuristics\n"
        "def values(state):\n    return [7.0 for _ in state.scores()]\n"
        "PART = GameHeuristics('mykerinos', values)\n"
    )
    info = tmp_path / "third_party-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: third_party\nVersion: 0\n")
    (info / "entry_points.txt").write_text(
        "[senet.test_bot_heuristics]\nmykerinos = senet_plugin_test_heuristics:PART\n"
    )
    sys.path.insert(0, str(tmp_path))
    registry: PluginRegistry[GameHeuristics] = PluginRegistry(
        "senet.test_bot_heuristics", "bot heuristics", lambda part: part.game_id
    )
    monkeypatch.setattr(heuristics, "BOT_HEURISTICS", registry)
    yield tmp_path
    sys.path.remove(str(tmp_path))
    sys.modules.pop("senet_plugin_test_heuristics", None)


def test_an_installed_plugin_is_what_the_bots_use(declared: Path) -> None:
    state = get_game("mykerinos").new_match(2, seed=5)
    assert evaluator_for("mykerinos")(state) == [7.0, 7.0]
    assert search_evaluator_for("mykerinos")(state) == [7.0, 7.0]
    assert evaluator_for("archeos") is score_values
