"""The names of the bot strategies, shared by the server and the bot workers.

The service checks a seat's strategy against this list when a match is created
(it cannot import the clients); :mod:`senet.bots` builds the strategy of each
name. Standard library only, like the rest of :mod:`senet.games`.
"""

from __future__ import annotations

from importlib.metadata import entry_points

#: The strategies Senet's own bots play.
BUILT_IN: tuple[str, ...] = ("random", "greedy", "mcts")
#: The entry-point group where other distributions publish strategies (a trained
#: policy, say): only the names are read here, never the code behind them.
STRATEGY_GROUP = "senet.bot_strategies"
#: Every strategy a bot seat, a leave policy or a timeout handover may name.
BOT_STRATEGIES: tuple[str, ...] = (
    *BUILT_IN,
    *sorted({p.name for p in entry_points(group=STRATEGY_GROUP)} - set(BUILT_IN)),
)
