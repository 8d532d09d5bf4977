"""The training example: a short run writes weights that play, and the published agent
(``rl_mykerinos``) plays locally, in the other games (as greedy) and a hosted seat
through a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from senet.bots import Strategy, make_strategy
from senet.cli import main as senet
from senet.games import get_game
from senet.rl.examples import train_mykerinos
from senet.rl.examples.mykerinos_agent import POLICY_FILE, AfterstateStrategy, load_policy


def _play(seats: int, strategies: list[Strategy], seed: int) -> list[int]:
    state = get_game("mykerinos").new_match(seats, seed=seed)
    while not state.is_over():
        seat = state.deciding_seats()[0]
        state.apply(seat, strategies[seat].choose(state, seat))  # checked: legal
    return state.ranking()


@pytest.mark.slow
def test_a_short_training_run_writes_weights_that_play(tmp_path: Path) -> None:
    out = tmp_path / "policy.npz"
    argv = ["--seconds", "2", "--imitate", "0.5", "--episodes", "1", "--evaluate", "0"]
    assert train_mykerinos.main([*argv, "--out", str(out)]) == 0
    trained = AfterstateStrategy(load_policy(out), seed=0)
    assert trained.policy.weights.any(), "training changed no weight"
    ranking = _play(2, [trained, make_strategy("random", seed=1)], seed=3)
    assert sorted(ranking) in ([1, 2], [1, 1])


def test_the_published_agent_plays_mykerinos_with_its_weights() -> None:
    assert POLICY_FILE.is_file()
    strategy = make_strategy("rl_mykerinos", seed=1)
    assert isinstance(strategy, AfterstateStrategy)
    state = get_game("mykerinos").new_match(3, {"nile": True}, seed=2)
    seat = state.deciding_seats()[0]
    assert strategy.choose(state, seat) in state.legal_actions()


def test_other_games_are_played_as_the_greedy_bot() -> None:
    state = get_game("archeos").new_match(2, seed=2)
    seat = state.deciding_seats()[0]
    chosen = make_strategy("rl_mykerinos", seed=4).choose(state, seat)
    assert chosen == make_strategy("greedy", seed=4).choose(state, seat)


@pytest.mark.slow
def test_the_trained_agent_plays_a_hosted_seat(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    argv = ["arena", "--game", "mykerinos", "--players", "rl_mykerinos,random"]
    argv += ["--matches", "1", "--parallel", "1", "--seed", "5", "--processes", "1"]
    assert senet([*argv, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 1
    assert sorted(data["matches"][0]["seats"].values()) == ["random", "rl_mykerinos"]
