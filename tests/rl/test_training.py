"""The training example: a short run writes weights that play, and the published agent
(``rl_mykerinos``) plays locally, in the other games (as greedy) and a hosted seat
through a server."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from senet.bots import Strategy, make_strategy
from senet.cli import main as senet
from senet.games import get_game
from senet.rl.encoding import encoding_for, observation_encoder
from senet.rl.examples import train_mykerinos
from senet.rl.examples.afterstate import AfterstatePolicy
from senet.rl.examples.mykerinos_agent import (
    POLICY_FILE,
    POLICY_VARIABLE,
    AfterstateStrategy,
    load_policy,
)


def _play(seats: int, strategies: list[Strategy], seed: int) -> list[int]:
    state = get_game("mykerinos").new_match(seats, seed=seed)
    while not state.is_over():
        seat = state.deciding_seats()[0]
        state.apply(seat, strategies[seat].choose(state, seat))  # checked: legal
    return state.ranking()


@pytest.mark.slow
def test_a_short_training_run_writes_weights_that_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "policy.npz"
    argv = ["--seconds", "2", "--imitate", "0.5", "--episodes", "1", "--evaluate", "0"]
    assert train_mykerinos.main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("training for 2 s: 0.5 s imitating greedy, then REINFORCE")
    assert f"{POLICY_VARIABLE}={out}" in printed
    trained = AfterstateStrategy(load_policy(out), seed=0)
    assert trained.policy.weights.any(), "training changed no weight"
    ranking = _play(2, [trained, make_strategy("random", seed=1)], seed=3)
    assert sorted(ranking) in ([1, 2], [1, 1])


def test_progress_lines_come_when_due(capsys: pytest.CaptureFixture[str]) -> None:
    progress = train_mykerinos.Progress(10.0, time.monotonic() - 12.0)
    progress.tick("reinforcing against random: 40 matches")
    progress.tick("reinforcing against random: 41 matches")
    train_mykerinos.Progress(0.0, time.monotonic() - 12.0).tick("never printed")
    assert capsys.readouterr().out == "    12 s: reinforcing against random: 40 matches\n"


def test_the_published_agent_plays_mykerinos_with_its_weights() -> None:
    assert POLICY_FILE.is_file()
    strategy = make_strategy("rl_mykerinos", seed=1)
    assert isinstance(strategy, AfterstateStrategy)
    state = get_game("mykerinos").new_match(3, {"nile": True}, seed=2)
    seat = state.deciding_seats()[0]
    assert strategy.choose(state, seat) in state.legal_actions()


def _write_policy(path: Path, version: int) -> AfterstatePolicy:
    size = observation_encoder("mykerinos", 2).size
    policy = AfterstatePolicy.initial(size, "mykerinos", version, units=2, seed=9)
    policy.weights[:] = np.linspace(-1.0, 1.0, size)
    policy.save(path)
    return policy


def test_the_variable_names_the_weights_the_agent_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trained = _write_policy(tmp_path / "mine.npz", encoding_for("mykerinos").version)
    monkeypatch.setenv(POLICY_VARIABLE, str(tmp_path / "mine.npz"))
    strategy = make_strategy("rl_mykerinos", seed=1)
    assert isinstance(strategy, AfterstateStrategy)
    assert np.allclose(strategy.policy.weights, trained.weights)
    assert not np.allclose(strategy.policy.weights, load_policy(POLICY_FILE).weights)
    state = get_game("mykerinos").new_match(2, seed=2)
    seat = state.deciding_seats()[0]
    assert strategy.choose(state, seat) in state.legal_actions()


def test_without_the_variable_the_shipped_weights_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(POLICY_VARIABLE, "")
    strategy = make_strategy("rl_mykerinos", seed=1)
    assert isinstance(strategy, AfterstateStrategy)
    assert np.array_equal(strategy.policy.weights, load_policy(POLICY_FILE).weights)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.npz", None, "no policy file"),
        ("notes.txt", "not weights", "not a policy written by"),
        ("other.npz", "arrays", "not a policy written by"),
        ("old.npz", "old version", "train it again"),
    ],
)
def test_a_bad_file_in_the_variable_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, content: str | None, message: str
) -> None:
    path = tmp_path / name
    if content == "arrays":
        np.savez(path, scores=np.zeros(3))
    elif content == "old version":
        _write_policy(path, encoding_for("mykerinos").version + 1)
    elif content is not None:
        path.write_text(content)
    monkeypatch.setenv(POLICY_VARIABLE, str(path))
    with pytest.raises(ValueError, match=message) as raised:
        make_strategy("rl_mykerinos", seed=1)
    assert POLICY_VARIABLE in str(raised.value)
    assert "train_mykerinos" in str(raised.value)


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
