"""A worker for one registered bot: it leases that bot's decisions with the bot key.

A bot registered with the server's ``LadderService`` is handed a key; its
workers send it as ``x-senet-bot-key`` on ``BotService`` and lease that bot's
decisions only (the protocol is the same as for ``senet bots``: acquire, renew,
play with the seat token, release). This one plays them with a Senet strategy at
a fixed budget, which is how the built-in strategies enter a ladder: each
strategy at each budget is a bot of its own. Workers in other languages follow
the same calls (see ``clients/examples/node``).
"""

from __future__ import annotations

from typing import Any

from senet.bots.base import Strategy, StrategyFactory, make_strategy
from senet.bots.worker import BotWorker
from senet.client import SenetClient
from senet.v1 import bot_service_pb2

BOT_KEY_HEADER = "x-senet-bot-key"


class BotKeyClient(SenetClient):
    """A client that sends a bot key with every call."""

    def __init__(self, target: str, bot_key: str, **kwargs: Any) -> None:
        super().__init__(target, **kwargs)
        self.bot_key = bot_key

    def metadata(self, token: str | None = None) -> tuple[tuple[str, str], ...]:
        return (*super().metadata(token), (BOT_KEY_HEADER, self.bot_key))


class HostedBotWorker(BotWorker):
    """Plays one registered bot's decisions with ``strategy`` at a fixed budget.

    Args:
        target: ``host:port`` of a server.
        bot_key: The key RegisterBot handed out.
        strategy: The Senet strategy that decides: a name (``random``, ``greedy``,
            ``mcts``, or one published in the ``senet.bot_strategies`` group), or a
            :class:`~senet.bots.base.StrategyFactory` itself (a trained policy's,
            say, loaded from a module without publishing it).
        kwargs: As for :class:`BotWorker` (budgets, capacity, lease).
    """

    def __init__(
        self, target: str, bot_key: str, strategy: str | StrategyFactory, **kwargs: Any
    ) -> None:
        super().__init__(target, **kwargs)
        self.bot_key = bot_key
        self.strategy = strategy

    def make_client(self) -> SenetClient:
        return BotKeyClient(self.target, self.bot_key, tls_ca=self.tls_ca)

    def strategy_for(self, decision: bot_service_pb2.BotDecision, seed: int) -> Strategy:
        # The decision's seat names the bot (remote:<id>), not how it plays.
        if isinstance(self.strategy, str):
            return make_strategy(
                self.strategy, seed=seed, iterations=self.iterations, seconds=self.seconds
            )
        return self.strategy(seed=seed, iterations=self.iterations, seconds=self.seconds)
