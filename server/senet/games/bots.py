"""The names of the bot strategies, shared by the server and the bot workers.

The service checks a seat's strategy against this list when a match is created
(it cannot import the clients); :mod:`senet.bots` builds the strategy of each
name. Standard library only, like the rest of :mod:`senet.games`.
"""

from __future__ import annotations

#: Every strategy a bot seat, a leave policy or a timeout handover may name.
BOT_STRATEGIES: tuple[str, ...] = ("random", "greedy", "mcts")
