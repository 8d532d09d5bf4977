"""The replicas play resigned seats themselves: no bot worker is needed.

A seat whose player resigned (LeaveMatch under the "resign" policy) is played
out by a minimal policy, :meth:`MatchService.zombie_action`. Its decisions go
through the same kind of queue as bot decisions (the store's ZOMBIES queue,
posted the same way, before the write that makes them due), and every replica
runs one :class:`ZombiePlayer` that leases them like a bot worker would, with a
token minted per decision; so whichever replica is alive plays them, and a
replica that dies mid-decision leaves a lease that expires and is taken over.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from senet.games.errors import GameError
from senet.service import errors
from senet.service.bots_api import BotDecisions, LeasedDecision
from senet.service.cancellation import stop_if_cancelled
from senet.service.logs import RateLimitedLog
from senet.service.matches import Caller, MatchService
from senet.store import MatchNotFound, StoreError
from senet.store.base import ZOMBIES

log = logging.getLogger("senet.zombies")
_CAPACITY = 32
_LEASE_MS = 5000
_WAIT_MS = 1000


class ZombiePlayer:
    """Leases the ZOMBIES queue's decisions and plays them, until cancelled."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.decisions = BotDecisions(matches, ZOMBIES)
        self.worker_id = "replica-" + secrets.token_hex(6)
        #: A store outage fails every poll: said every few seconds, not each time.
        self._unavailable = RateLimitedLog(logger=log)
        self._admin = Caller(is_admin=True, is_worker=True)

    async def run(self) -> None:
        """Play decisions as they come; store outages are waited out."""
        while True:
            stop_if_cancelled()
            try:
                leased = await self.decisions.acquire(
                    self._admin, self.worker_id, _CAPACITY, _LEASE_MS, _WAIT_MS
                )
                for decision in leased:
                    await self.play(decision)
            except StoreError as exc:
                self._unavailable.warn("zombie queue unavailable", error=str(exc))
                await asyncio.sleep(1.0)

    async def play(self, decision: LeasedDecision) -> None:
        """One minimal-policy action for ``decision``, then release it."""
        try:
            stored = await self.matches.store.load(decision.match_id)
        except MatchNotFound:
            return  # expired meanwhile: its entries go at their next acquire
        notation = None
        if stored.version == decision.version or await self.matches.decision_stands(
            stored, decision.seat, decision.version
        ):
            notation = self.matches.zombie_action(stored, decision.seat)
        if notation is not None:
            try:
                await self.matches.submit(
                    Caller(token=decision.token),
                    decision.match_id,
                    notation,
                    decision.version,
                    f"zombie-{decision.seat}-{decision.version}",
                    None,
                    lambda outcome: None,
                )
            except (GameError, errors.ServiceError) as exc:
                log.info("zombie move refused in %s: %s", decision.match_id, exc)
        # Released as a worker's decisions are: one still due (a refused move)
        # is set aside for another try, not dropped.
        ref = (decision.match_id, decision.seat, decision.version)
        await self.decisions.release(self._admin, self.worker_id, [ref])
