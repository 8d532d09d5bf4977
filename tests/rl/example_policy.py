"""A policy published as a bot strategy (``rl_uniform``), as a trained agent's package would."""

from __future__ import annotations

from senet.rl.policy import strategy_factory, uniform_policy

UNIFORM = strategy_factory(uniform_policy, "rl_uniform")
