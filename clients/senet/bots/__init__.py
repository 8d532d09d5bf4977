"""Bot brains: strategies that choose actions from what one seat may see.

``make_strategy("random" | "greedy" | "mcts", seed=..., iterations=..., seconds=...)``
builds one; ``strategy.choose(state, seat)`` returns an action. Remote bots rebuild
``state`` from the server's view with :func:`state_from_proto_view`; local arenas may
pass the real state, since strategies only look at what the seat's view shows.
"""

from senet.bots.base import (
    STRATEGY_NAMES,
    Strategy,
    information_set_root,
    make_strategy,
    state_from_proto_view,
)
from senet.bots.heuristics import evaluator_for

__all__ = [
    "STRATEGY_NAMES",
    "Strategy",
    "evaluator_for",
    "information_set_root",
    "make_strategy",
    "state_from_proto_view",
]
