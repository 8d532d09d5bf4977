"""The rl benchmark's two bounding environments (:mod:`tests.bench.rl_bounds`) do what
their figures claim: the bare one is a whole AEC environment with nothing else in it,
and the free-observation one steps the real game with each seat's first tensor.

Timings are never asserted.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from senet.rl import native
from senet.rl.pettingzoo import env
from tests.bench.rl import play_episode
from tests.bench.rl_bounds import (
    bare_environment,
    free_observation_environment,
    python_writer_environment,
    writes_compiled,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")


def test_the_bare_environment_passes_pettingzoos_api_test_at_a_games_sizes() -> None:
    bare = bare_environment("archeos", 4)
    real = env("archeos", 4)
    api_test(bare, num_cycles=50)
    bare.reset(seed=1)
    observation = bare.last()[0]
    assert observation["observation"].shape == (real.encoder.size,)
    assert observation["action_mask"].shape == (len(real.space),)
    assert play_episode(bare, seed=2) > 0


def test_the_free_observation_environment_plays_the_game_with_each_seats_first_tensor() -> None:
    free = free_observation_environment("mykerinos", 4)
    real = env("mykerinos", 4)
    for environment in (free, real):
        environment.reset(seed=3)
    first: dict[str, np.ndarray] = {}
    tensors_moved = False
    for agent, _ in zip(free.agent_iter(), range(200), strict=False):
        observation, _, terminated, truncated, _ = free.last()
        expected = real.last()[0]
        # The mask and the match are the real ones; only the tensor stays put.
        assert (observation["action_mask"] == expected["action_mask"]).all()
        if agent in first:
            assert (observation["observation"] == first[agent]).all()
            tensors_moved |= not (expected["observation"] == first[agent]).all()
        else:
            first[agent] = observation["observation"]
            assert (observation["observation"] == expected["observation"]).all()
        if terminated or truncated:
            break
        action = int(observation["action_mask"].nonzero()[0][0])
        free.step(action)
        real.step(action)
    assert tensors_moved  # the real tensors did change: the free ones were held


def test_the_python_writers_environment_writes_as_python_what_the_twins_write() -> None:
    """The baseline of the compiled twins' gain runs the module's own classes."""
    python = python_writer_environment("archeos", 3)
    assert not writes_compiled(python)
    assert type(python._tensors[0]._direct).__module__ == "senet.rl.archeos.tensor"
    compiled = env("archeos", 3)
    assert writes_compiled(compiled) == (native.current_twin("senet.rl.archeos.tensor") is not None)
    for environment in (python, compiled):
        environment.reset(seed=4)
    for _ in range(60):
        agent = python.agent_selection
        mine, theirs = python.observe(agent), compiled.observe(agent)
        assert (mine["observation"] == theirs["observation"]).all()
        action = int(mine["action_mask"].nonzero()[0][0])
        python.step(action)
        compiled.step(action)
