"""A policy plays as a bot strategy found through ``senet.bot_strategies``: locally, in arenas."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from senet.bots import STRATEGY_NAMES, make_strategy
from senet.cli import main
from senet.games import all_games
from senet.rl.policy import PolicyStrategy, observe

GAMES = sorted(all_games(), key=lambda g: g.info.id)


def test_a_published_policy_is_a_strategy_name() -> None:
    assert "rl_uniform" in STRATEGY_NAMES
    strategy = make_strategy("rl_uniform", seed=1)
    assert isinstance(strategy, PolicyStrategy)
    assert strategy.name == "rl_uniform"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.id)
def test_the_policy_plays_every_game_to_the_end(game) -> None:
    seats = game.info.min_seats
    state = game.new_match(seats, dict(game.info.short_match_options), seed=4)
    players = [make_strategy("rl_uniform", seed=s) for s in range(seats)]
    for _ in range(5000):
        if state.is_over():
            break
        seat = state.deciding_seats()[0]
        state.apply(seat, players[seat].choose(state, seat))
    assert state.is_over()


def test_an_illegal_pick_is_refused() -> None:
    game = GAMES[0]
    state = game.new_match(game.info.min_seats, dict(game.info.short_match_options), seed=1)
    seat = state.deciding_seats()[0]
    _, mask = observe(state, seat)
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        PolicyStrategy(lambda o, m: illegal, seed=0).choose(state, seat)


@pytest.mark.slow
def test_the_policy_plays_an_arena_tournament_through_a_server(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    argv = ["arena", "--game", "pebbles", "--players", "rl_uniform,greedy,random"]
    argv += ["--matches", "3", "--parallel", "3", "--seed", "5", "--processes", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 3
    for match in data["matches"]:
        assert sorted(match["seats"].values()) == ["greedy", "random", "rl_uniform"]
