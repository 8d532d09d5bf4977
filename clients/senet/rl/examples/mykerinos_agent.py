"""The trained Mykerinos agent as the bot strategy ``rl_mykerinos``.

Published in the ``senet.bot_strategies`` entry-point group (``pyproject.toml``), so
``senet bots`` workers, hosted bot seats and ``senet arena`` play it by name. It plays
the weights shipped beside this module, or, when the environment variable
``SENET_RL_MYKERINOS_POLICY`` names a file, the weights in that file (one written by
``python -m senet.rl.examples.train_mykerinos --out FILE``), so that a policy trained
at home plays hosted seats without code and without writing into the installed
package. It chooses the action whose afterstate scores highest. The server lets a
bot seat of any game name any strategy, so in the other games it plays as the greedy
bot.
"""

from __future__ import annotations

import os
import zipfile
from functools import cache
from pathlib import Path

import numpy as np

from senet.bots.base import Strategy, check_turn, make_strategy
from senet.games import Action, GameState
from senet.rl.encoding import encoding_for
from senet.rl.examples.afterstate import AfterstatePolicy, afterstates

GAME_ID = "mykerinos"
#: The weights ``rl_mykerinos`` plays unless told otherwise.
POLICY_FILE = Path(__file__).with_name("mykerinos_policy.npz")
#: The environment variable naming other weights for ``rl_mykerinos``: read by every
#: process that builds the strategy (``senet arena``'s, ``senet bots``', a server's
#: embedded workers), so it is set where those run, not where the match is created.
POLICY_VARIABLE = "SENET_RL_MYKERINOS_POLICY"


def load_policy(path: Path = POLICY_FILE) -> AfterstatePolicy:
    """The weights in ``path``, checked against the current Mykerinos encoding.

    Raises:
        ValueError: no such file, not a file written by ``train_mykerinos``, or
            weights learnt on another game or encoding version.
    """
    try:
        policy = AfterstatePolicy.load(path)
    except FileNotFoundError:
        raise ValueError(f"no policy file {str(path)!r}") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(
            f"{str(path)!r} is not a policy written by "
            f"python -m senet.rl.examples.train_mykerinos ({error})"
        ) from error
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


def policy_file() -> Path:
    """The weights ``rl_mykerinos`` plays: the file ``SENET_RL_MYKERINOS_POLICY`` names
    (relative to the working directory), else the shipped one."""
    named = os.environ.get(POLICY_VARIABLE, "")
    return Path(named) if named else POLICY_FILE


def make(*, seed: int, iterations: int | None = None, seconds: float | None = None) -> Strategy:
    """The ``rl_mykerinos`` strategy (budgets mean nothing to it).

    Raises:
        ValueError: ``SENET_RL_MYKERINOS_POLICY`` names a file that is missing or
            not a Mykerinos policy of the current encoding (the message says which).
    """
    path = policy_file()
    try:
        policy = _published(path)
    except ValueError as error:
        if path == POLICY_FILE:
            raise
        raise ValueError(
            f"{POLICY_VARIABLE}: {error}; name a file written by "
            "python -m senet.rl.examples.train_mykerinos --out FILE, "
            "or unset it to play the shipped policy"
        ) from error
    return AfterstateStrategy(policy, seed=seed, name="rl_mykerinos")


STRATEGY = make
