"""The PettingZoo adapter: PettingZoo's own API and seed tests on every registered game."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from senet.rl.pettingzoo import SenetEnv, agent_name, env, final_rewards
from tests.rl.cases import GAME_IDS, least

CYCLES = 300
#: PettingZoo's API test advises a Box observation; dict observations with an action
#: mask are its documented convention for board games.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_api(game_id: str) -> None:
    seats, options = least(game_id)
    api_test(env(game_id, seats, options), num_cycles=CYCLES)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seed(game_id: str) -> None:
    seats, options = least(game_id)
    seed_test(lambda: env(game_id, seats, options), num_cycles=CYCLES)


def _play_to_end(environment: SenetEnv, seed: int) -> dict[str, float]:
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_episode_ends_with_the_ranking_as_rewards(game_id: str) -> None:
    seats, options = least(game_id)
    environment = env(game_id, seats, options)
    totals = _play_to_end(environment, seed=5)
    assert environment.state.is_over()
    assert [totals[agent_name(s)] for s in range(seats)] == final_rewards(environment.state)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_simultaneous_seats_act_in_turn_and_never_see_a_pending_choice() -> None:
    """While several seats decide at once (in every game that has such positions), what
    one of them chose does not show in the others' observations or masks, whichever
    legal choice it was, and the AEC order hands the turn to the first of them."""
    checked = 0
    for game_id in GAME_IDS:
        seats, options = least(game_id)
        environment = env(game_id, seats, options)
        environment.reset(seed=3)
        rng = np.random.default_rng(3)
        for _ in range(2000):
            state = environment.state
            if state.is_over():
                break
            deciding = state.deciding_seats()
            if len(deciding) > 1:
                first, other = deciding[0], deciding[1]
                assert environment.agent_selection == agent_name(first)
                seen = set()
                for action in state.legal_actions_for(first):
                    twin = state.clone()
                    twin.apply_unchecked(action, first)
                    encoded = environment.encoder.encode(twin.view(other))
                    mask = bytes(environment.space.legal_mask(twin, other))
                    seen.add((tuple(encoded), mask))
                assert len(seen) == 1, f"{game_id}: another seat's pending choice shows"
                checked += 1
            observation = environment.observe(environment.agent_selection)
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert checked > 0, "no game reached a simultaneous decision"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_deep_copy_plays_on_alone(game_id: str) -> None:
    """A copied environment (as vectorizing wrappers make) goes on from the same point
    with observations of its own: the original's steps leave it alone, and the same
    actions give both the same observations."""
    seats, options = least(game_id)
    original = env(game_id, seats, options)
    original.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(5):
        observation = original.last()[0]
        original.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    twin = copy.deepcopy(original)
    assert twin.agent_selection == original.agent_selection and twin.steps == original.steps
    assert twin.state is not original.state
    before = twin.last()[0]["observation"].copy()
    for _ in range(10):
        if original.terminations[original.agent_selection]:
            break
        mine, theirs = original.last()[0], twin.last()[0]
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        action = int(rng.choice(np.flatnonzero(mine["action_mask"])))
        original.step(action)
        if original.steps == 6:
            # One step on the original alone: the copy still sees where it was.
            assert np.array_equal(twin.last()[0]["observation"], before)
        twin.step(action)
