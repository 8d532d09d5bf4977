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

from senet.bots.worker import BotWorker
from senet.client import SenetClient
from senet.v1 import bot_service_pb2, match_pb2

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
        strategy: The Senet strategy that decides (``random``, ``greedy``, ``mcts``...).
        kwargs: As for :class:`BotWorker` (budgets, capacity, lease).
    """

    def __init__(self, target: str, bot_key: str, strategy: str, **kwargs: Any) -> None:
        super().__init__(target, **kwargs)
        self.bot_key = bot_key
        self.strategy = strategy

    def make_client(self) -> SenetClient:
        return BotKeyClient(self.target, self.bot_key, tls_ca=self.tls_ca)

    async def decide(
        self, client: SenetClient, decision: bot_service_pb2.BotDecision
    ) -> str | match_pb2.Action | None:
        ours = bot_service_pb2.BotDecision()
        ours.CopyFrom(decision)
        ours.strategy = self.strategy  # the decision names the bot, not how it plays
        return await super().decide(client, ours)
