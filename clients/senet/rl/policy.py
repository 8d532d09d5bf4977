"""A learnt policy as a bot strategy: trained agents play hosted seats and arena matches.

A *policy* is any callable from an observation and a mask (the arrays of the
PettingZoo observation: ``observation`` float32, ``action_mask`` int8) to an action
index. :func:`strategy_factory` turns a loader of one into a factory for the bots'
``senet.bot_strategies`` entry-point group; a distribution that publishes

.. code-block:: toml

    [project.entry-points."senet.bot_strategies"]
    my_agent = "my_package.agent:STRATEGY"

with ``STRATEGY = strategy_factory(load_my_policy, "my_agent")`` makes ``my_agent`` a
strategy name for ``senet bot``, ``senet bots`` workers and ``senet arena``. The
server accepts it for hosted bot seats too: it reads the names published in the same
group (``senet.games.bots.BOT_STRATEGIES``, built-in and published alike) when it
starts, so the distribution must be installed where the server runs as well as where
the workers run, and the server restarted after installing it.

The policy sees exactly what the seat's view shows, encoded as in training, so it is
an honest player like every other strategy.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import cache

import numpy as np
import numpy.typing as npt

from senet.bots.base import Strategy, StrategyFactory, check_turn
from senet.games import Action, GameState
from senet.rl.encoding import action_space, observation_encoder

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
#: (observation, mask) -> an index of the game's action space whose mask is 1.
Policy = Callable[[Observation, Mask], int]


def observe(state: GameState, seat: int) -> tuple[Observation, Mask]:
    """The observation and mask of ``seat`` in ``state``, as the PettingZoo adapter gives them."""
    game_id = state.game.info.id
    encoder = observation_encoder(game_id, state.seat_count, state.options)
    space = action_space(game_id, state.seat_count, state.options)
    observation = np.asarray(encoder.encode(state.view(seat)), np.float32)
    return observation, np.frombuffer(space.legal_mask(state, seat), np.int8)


class PolicyStrategy(Strategy):
    """Plays the action a policy picks.

    Args:
        policy: The policy.
        seed: Kept for the strategy interface (a policy brings its own randomness).
        name: The strategy's published name.
    """

    name = "policy"

    def __init__(self, policy: Policy, *, seed: int, name: str = "policy") -> None:
        super().__init__(seed=seed)
        self.policy = policy
        self.name = name  # type: ignore[misc]

    def choose(self, state: GameState, seat: int) -> Action:
        """The policy's action for ``seat``.

        Raises:
            ValueError: ``seat`` does not decide now, or the policy picked an index
                whose mask is 0.
        """
        check_turn(state, seat)
        observation, mask = observe(state, seat)
        index = int(self.policy(observation, mask))
        if not 0 <= index < len(mask) or not mask[index]:
            raise ValueError(f"policy {self.name!r} picked index {index}, which is not legal")
        space = action_space(state.game.info.id, state.seat_count, state.options)
        return space.actions[index]


def strategy_factory(load: Callable[[], Policy], name: str) -> StrategyFactory:
    """A ``senet.bot_strategies`` entry point for the policy ``load`` returns (loaded once)."""
    loaded = cache(load)

    def make(*, seed: int, iterations: int | None = None, seconds: float | None = None) -> Strategy:
        return PolicyStrategy(loaded(), seed=seed, name=name)

    return make


def uniform_policy(seed: int = 0) -> Policy:
    """A policy that picks uniformly among the legal actions: a baseline, and an example.

    Its draw is seeded by ``seed`` and what it is shown, so that, like every strategy,
    it answers the same in positions that look the same to the seat.
    """

    def choose(observation: Observation, mask: Mask) -> int:
        shown = zlib.crc32(mask.tobytes(), zlib.crc32(observation.tobytes()))
        legal = np.flatnonzero(mask)
        return int(legal[np.random.default_rng([seed, shown]).integers(len(legal))])

    return choose
