"""The single-seat Gymnasium environment: Gymnasium's own checker on every registered
game, bots at the other seats, replays from a seed, and the agent's seat only."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from senet.bots import Strategy, make_strategy
from senet.games import Action, GameState
from senet.rl.encoding import encoding_for
from senet.rl.gymnasium import ENV_IDS, SingleSeatEnv, env
from senet.rl.pettingzoo import final_rewards
from tests.rl.cases import GAME_IDS, least

#: Gymnasium's checker advises finite bounds; the tensor's features are scaled, but
#: no bound is promised (a count divided by a scale may pass 1), so the space says so.
pytestmark = pytest.mark.filterwarnings("ignore:.*Box observation space m:UserWarning")


def _episode(environment: SingleSeatEnv, seed: int) -> tuple[list[int], float, int]:
    """A random agent's episode: its actions, its reward, the agent's decisions."""
    observation, _ = environment.reset(seed=seed)
    return _episode_from(environment, observation, seed)


def _episode_from(
    environment: SingleSeatEnv, observation: dict[str, Any], seed: int
) -> tuple[list[int], float, int]:
    """The rest of a random agent's episode from ``observation``."""
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while True:
        assert (environment.action_masks() == observation["action_mask"].astype(bool)).all()
        action = int(rng.choice(np.flatnonzero(environment.action_masks())))
        actions.append(action)
        observation, reward, terminated, truncated, info = environment.step(action)
        assert info == {"seat": environment.seat}
        if terminated or truncated:
            return actions, reward, len(actions)
        assert reward == 0.0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_gymnasium_checks_the_environment(game_id: str) -> None:
    # The checker steps with actions drawn from the whole space before it resets, as
    # if nothing were illegal: an environment that forfeits them passes it. Made by
    # its id, the environment has a spec, from which the checker renders every mode.
    seats, options = least(game_id)
    env_id = f"senet/{game_id}-v{encoding_for(game_id).version}"
    made = gymnasium.make(env_id, seats=seats, options=options, illegal="lose", render_mode="ansi")
    check_env(made.unwrapped)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_agent_plays_its_seat_to_the_end_and_gets_the_ranking(game_id: str) -> None:
    seats, options = least(game_id)
    environment = env(game_id, seats, options, seat=seats - 1, opponents="greedy")
    _, reward, decisions = _episode(environment, seed=3)
    state = environment.match.state
    assert state.is_over()
    assert 0 < decisions < environment.match.steps  # the bots played the rest
    assert reward == final_rewards(state)[seats - 1]


class _Recording(Strategy):
    """The greedy bot, noting each seat it is asked to play."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.greedy = make_strategy("greedy", seed=0)
        self.seats: set[int] = set()

    def choose(self, state: GameState, seat: int) -> Action:
        self.seats.add(seat)
        return self.greedy.choose(state, seat)


def test_the_bots_play_every_other_seat_and_only_those() -> None:
    first, third = _Recording(), _Recording()
    environment = env("mykerinos", 3, {"quick": True}, seat=1, opponents=[first, third])
    observation, info = environment.reset(seed=11)
    assert info == {"seat": 1}
    assert environment.match.agent_selection == "seat_1"  # the agent's turn
    assert observation["action_mask"].any()
    _episode_from(environment, observation, seed=11)
    assert (first.seats, third.seats) == ({0}, {2})
    named = env("mykerinos", 3, seat=1, opponents=["greedy", "random"])
    named.reset(seed=1)
    assert [named._bots[seat].name for seat in (0, 2)] == ["greedy", "random"]


def test_an_episode_replays_from_its_seed_and_the_agents_actions() -> None:
    first = env("archeos", 3, seat=None, opponents="greedy")
    second = env("archeos", 3, seat=None, opponents="greedy")
    one = _episode(first, seed=21)
    two = _episode(second, seed=21)
    assert one == two
    assert first.match.state.to_data() == second.match.state.to_data()
    # Seeds draw the seat too: some seed gives another.
    seats = set()
    for seed in range(12):
        first.reset(seed=seed)
        seats.add(first.seat)
    assert len(seats) > 1


def test_each_reset_without_a_seed_starts_another_match() -> None:
    environment = env("mykerinos", 2)
    environment.reset(seed=4)
    openings = {str(environment.match.state.to_data())}
    for _ in range(3):
        environment.reset()
        openings.add(str(environment.match.state.to_data()))
    assert len(openings) == 4


def test_the_agent_sees_only_its_seat() -> None:
    # Archeos hands are hidden: the agent's observation is its seat's, as the
    # PettingZoo environment gives it (held to the seat's view by its own tests).
    environment = env("archeos", 3, seat=2, opponents="random")
    observation, _ = environment.reset(seed=8)
    expected = environment.match.observe("seat_2")
    assert np.array_equal(observation["observation"], expected["observation"])
    assert np.array_equal(observation["action_mask"], expected["action_mask"])


def test_a_forbidden_action_is_refused_and_changes_nothing() -> None:
    environment = env("mykerinos", 2, opponents="random")
    environment.reset(seed=2)
    before = environment.match.state.to_data()
    forbidden = int(np.flatnonzero(~environment.action_masks())[0])
    with pytest.raises(ValueError, match="mask is 0"):
        environment.step(forbidden)
    assert environment.match.state.to_data() == before


def test_an_illegal_action_may_forfeit_the_episode_instead() -> None:
    environment = env("mykerinos", 2, opponents="random", illegal="lose")
    observation, _ = environment.reset(seed=2)
    before = environment.match.state.to_data()
    forbidden = int(np.flatnonzero(~environment.action_masks())[0])
    after, reward, terminated, truncated, info = environment.step(forbidden)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info == {"seat": 0, "forfeit": forbidden}
    assert all(np.array_equal(after[key], observation[key]) for key in observation)
    assert environment.match.state.to_data() == before
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    environment.reset(seed=2)  # and the next episode plays
    assert environment.step(int(np.flatnonzero(environment.action_masks())[0]))[2] is False


def test_after_the_end_step_asks_for_a_reset() -> None:
    environment = env("mykerinos", 2, {"quick": True}, opponents="random")
    _episode(environment, seed=6)
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)


def test_truncation_after_max_steps() -> None:
    environment = env("mykerinos", 2, max_steps=5)
    environment.reset(seed=1)
    done = False
    while not done:
        action = int(np.flatnonzero(environment.action_masks())[0])
        _, reward, terminated, truncated, _ = environment.step(action)
        done = terminated or truncated
    assert truncated and not terminated and reward == 0.0
    assert environment.match.steps >= 5


def test_strategy_objects_play_as_they_are() -> None:
    bot = make_strategy("greedy", seed=3)
    environment = env("mykerinos", 2, opponents=bot)
    environment.reset(seed=3)
    assert environment._bots[1] is bot


def test_an_opponent_may_be_named_with_its_budget() -> None:
    """A trial found ``opponents="mcts"`` searching 1,000 iterations a move (minutes
    an episode) and no way to name a budget: the arena's and the ladder's specs work."""
    environment = env("mykerinos", 3, {"quick": True}, opponents=["mcts@5i", "mcts:7"])
    environment.reset(seed=2)
    bots = [environment._bots[seat] for seat in (1, 2)]
    assert [(bot.name, getattr(bot, "iterations", None)) for bot in bots] == [
        ("mcts", 5),
        ("mcts", 7),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 2}, "seat must be one of 0-1"),
        ({"opponents": ["random", "greedy"]}, "2 seats need 1 opponents"),
        ({"opponents": "nobody"}, "nobody"),
        ({"opponents": "mcts@many"}, "expected NAME, NAME@0.2s"),
        ({"illegal": "ignore"}, "illegal must be one of"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        env("mykerinos", 2, **kwargs)


def test_every_game_is_registered_with_gymnasium_under_its_encoding_version() -> None:
    assert "senet/mykerinos-v1" in ENV_IDS
    assert f"senet/marenostrum-v{encoding_for('marenostrum').version}" in ENV_IDS
    made = gymnasium.make("senet/mykerinos-v1", seats=2, opponents="greedy")
    assert isinstance(made.unwrapped, SingleSeatEnv)
    assert made.unwrapped.match.game.info.id == "mykerinos"
    observation, _ = made.reset(seed=5)
    direct = env("mykerinos", 2, opponents="greedy")
    expected, _ = direct.reset(seed=5)
    assert np.array_equal(observation["observation"], expected["observation"])
    # The module-qualified id imports the module first.
    archeos = gymnasium.make("senet.rl.gymnasium:senet/archeos-v1").unwrapped
    assert isinstance(archeos, SingleSeatEnv)
    assert archeos.match.seats == 2
