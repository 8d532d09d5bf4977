"""The trained Mykerinos agent as the bot strategy ``rl_mykerinos``.

Published in the ``senet.bot_strategies`` entry-point group (``pyproject.toml``), so
``senet bots`` workers, hosted bot seats and ``senet arena`` play it by name. It plays
the weights beside this module, written by
``python -m senet.rl.examples.train_mykerinos --out <this folder>/mykerinos_policy.npz``,
choosing the action whose afterstate scores highest. The server lets a bot seat of
any game name any strategy, so in the other games it plays as the greedy bot.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from senet.bots.base import Strategy, check_turn, make_strategy
from senet.games import Action, GameState
from senet.rl.encoding import encoding_for
from senet.rl.examples.afterstate import AfterstatePolicy, afterstates

GAME_ID = "mykerinos"
POLICY_FILE = Path(__file__).with_name("mykerinos_policy.npz")


def load_policy(path: Path = POLICY_FILE) -> AfterstatePolicy:
    """The weights in ``path``, checked against the current Mykerinos encoding.

    Raises:
        ValueError: they were learnt on another game or encoding version.
    """
    policy = AfterstatePolicy.load(path)
    version = encoding_for(GAME_ID).version
    if (policy.game_id, policy.version) != (GAME_ID, version):
        raise ValueError(
            f"{path.name} was trained on {policy.game_id} encoding version {policy.version}, "
            f"not {GAME_ID} version {version}: train it again"
        )
    return policy


_published = cache(load_policy)


class AfterstateStrategy(Strategy):
    """Plays the legal action whose afterstate the policy scores highest.

    Args:
        policy: The weights.
        seed: Seeds the samples of the information set and the fallback.
        name: The strategy's published name.
    """

    def __init__(self, policy: AfterstatePolicy, *, seed: int, name: str = "afterstate") -> None:
        super().__init__(seed=seed)
        self.policy = policy
        self.name = name  # type: ignore[misc]
        self._fallback: Strategy | None = None

    def choose(self, state: GameState, seat: int) -> Action:
        """The best-scored legal action of ``seat`` (the greedy bot's in other games).

        Raises:
            ValueError: ``seat`` does not decide now.
        """
        check_turn(state, seat)
        if state.game.info.id != self.policy.game_id:
            if self._fallback is None:
                self._fallback = make_strategy("greedy", seed=self.seed)
            return self._fallback.choose(state, seat)
        legal = state.legal_actions_for(seat)
        if len(legal) == 1:
            return legal[0]
        rows = afterstates(state, seat, legal, self.rng.next_u64())
        return legal[int(np.argmax(self.policy.scores(rows)))]


def make(*, seed: int, iterations: int | None = None, seconds: float | None = None) -> Strategy:
    """The ``rl_mykerinos`` strategy (budgets mean nothing to it)."""
    return AfterstateStrategy(_published(), seed=seed, name="rl_mykerinos")


STRATEGY = make
