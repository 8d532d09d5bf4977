"""The trained Mykerinos agent as the bot strategy ``rl_mykerinos``.

Published in the ``senet.bot_strategies`` entry-point group (``pyproject.toml``), so
``senet bots`` workers, hosted bot seats and ``senet arena`` play it by name. It plays
the policy file beside this module, written by
``python -m senet.rl.examples.train_mykerinos --out <this folder>/mykerinos_policy.npz``,
choosing the most probable legal action (the same answer whenever the seat's view is
the same, like every strategy). In the other games it plays as the greedy bot.
"""

from __future__ import annotations

from pathlib import Path

from senet.rl.encoding import action_space
from senet.rl.examples.lowrank import LowRankPolicy
from senet.rl.policy import Mask, Observation, Policy, strategy_factory

POLICY_FILE = Path(__file__).with_name("mykerinos_policy.npz")


def load_policy(path: Path = POLICY_FILE) -> Policy:
    """The policy in ``path``, checked against the current Mykerinos action space.

    Raises:
        ValueError: the file was trained on another action space (another encoding
            version); the policy raises it when shown another game's observation.
    """
    model = LowRankPolicy.load(path)
    space = action_space("mykerinos", 2)
    if model.fingerprint != space.fingerprint:
        raise ValueError(
            f"{path.name} was trained on another Mykerinos action space "
            f"({model.fingerprint}, now {space.fingerprint}): train it again"
        )

    def choose(observation: Observation, mask: Mask) -> int:
        if mask.size != model.bias.size or observation.size != model.hidden.shape[1]:
            raise ValueError("rl_mykerinos plays Mykerinos only")
        return model.best(observation, mask)

    return choose


STRATEGY = strategy_factory(load_policy, "rl_mykerinos", game_ids=("mykerinos",))
