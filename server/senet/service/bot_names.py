"""How a registered (remote) bot is named in a seat plan and in the queues.

A remote bot's seat is a bot seat whose strategy is ``remote:<bot id>``: the
match service posts its decisions to a queue of that same name, which only
workers holding that bot's key lease from (see :mod:`senet.service.remote_bots`).
Kept apart from that module so that match creation and the seat lookups can
check a name without importing the registry.
"""

from __future__ import annotations

import re
from typing import Protocol

REMOTE_PREFIX = "remote:"
_REMOTE_RE = re.compile(r"^remote:[0-9a-f]{20}$")


def is_remote_strategy(strategy: str) -> bool:
    """Whether ``strategy`` names a registered remote bot (``remote:<20 hex>``)."""
    return bool(_REMOTE_RE.match(strategy))


def remote_strategy(bot_id: str) -> str:
    """The seat strategy, and queue name, of the remote bot ``bot_id``."""
    return REMOTE_PREFIX + bot_id


class RemoteBotNames(Protocol):
    """The registry's answer to match creation: the name a registered bot's seat
    shows (:class:`senet.service.remote_bots.RemoteBots` implements it)."""

    async def seat_name(self, strategy: str, game_id: str, *, clocked: bool) -> str:
        """The registered name of the bot ``strategy`` names, for a match with a
        clock or without (``clocked``).

        Raises:
            BotNotFound: no bot is registered under that id, or it was retired and
                the match has no clock (its seats would wait for ever).
            MalformedRequest: the bot does not play ``game_id``.
        """
        ...
