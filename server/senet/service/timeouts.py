"""Every replica enforces turn clocks: the :class:`ClockKeeper`.

Timeout entries wait in the store's CLOCKS queue, each due at its decision's
deadline (see :mod:`senet.service.clocks`). A keeper leases due entries with the
same atomic acquire that hands bot decisions to workers, so one replica takes
each, and lets :meth:`MatchService.time_out` check it against the stored match
(the deadline recomputed from the head; an entry whose decision was made
meanwhile is dropped) and apply the policy, in one load. An entry not due yet
(clock skew between replicas, or the write that starts its decision still on
its way) is deferred; one leased by a replica that dies expires after the short
lease and another replica takes it over.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from senet.service import errors
from senet.service.bots_api import POST_GRACE_MS, BotDecisions, LeasedDecision, defer_ms
from senet.service.cancellation import stop_if_cancelled
from senet.service.logs import RateLimitedLog
from senet.service.matches import Caller, MatchService
from senet.store import BotDecisionRef, StoreError
from senet.store.base import CLOCKS, now_ms

log = logging.getLogger("senet.clocks")
_CAPACITY = 100
_LEASE_MS = 5000
_WAIT_MS = 1000


class ClockDecisions(BotDecisions):
    """The CLOCKS queue: every due entry goes to the keeper, which checks it."""

    def __init__(self, matches: MatchService) -> None:
        super().__init__(matches, CLOCKS)
        # Deadlines are not rung in by a local post: look often (a cheap ZRANGEBYSCORE).
        self.poll_s = 0.02
        #: When each handed-out entry was posted (for the keeper's deferrals).
        self.posted: dict[tuple[str, int, int], int] = {}

    async def _acquire_once(
        self, worker_id: str, capacity: int, lease_ms: int
    ) -> list[LeasedDecision]:
        """Lease due entries, unchecked: MatchService.time_out loads and checks
        each match once, for the check and the timeout both."""
        now = now_ms()
        leases = await self.store.acquire_bot_decisions(
            worker_id, capacity, lease_ms, now, self.queue
        )
        for lease in leases:
            self.posted[(lease.match_id, lease.seat, lease.version)] = lease.posted_ms
        return [
            LeasedDecision(lease.match_id, lease.seat, lease.version, "", "", "", lease.expires_ms)
            for lease in leases
        ]


class ClockKeeper:
    """Leases due timeouts and applies them, until cancelled."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.entries = ClockDecisions(matches)
        self.worker_id = "clocks-" + secrets.token_hex(6)
        #: A store outage fails every poll: said every few seconds, not each time.
        self._unavailable = RateLimitedLog(logger=log)
        self._admin = Caller(is_admin=True, is_worker=True)

    async def run(self) -> None:
        """Acquire while timeouts are being applied: one slow timeout (or a
        burst of them) never holds back the ones that fall due meanwhile."""
        running: set[asyncio.Task[None]] = set()
        freed = asyncio.Event()
        try:
            while True:
                stop_if_cancelled()
                free = _CAPACITY - len(running)
                if free <= 0:
                    freed.clear()
                    await freed.wait()
                    continue
                try:
                    due = await self.entries.acquire(
                        self._admin, self.worker_id, free, _LEASE_MS, _WAIT_MS
                    )
                except StoreError as exc:
                    self._unavailable.warn("clock queue unavailable", error=str(exc))
                    await asyncio.sleep(0.5)
                    continue
                for decision in due:
                    task = asyncio.create_task(self.apply(decision))
                    running.add(task)
                    task.add_done_callback(running.discard)
                    task.add_done_callback(lambda _: freed.set())
        finally:
            for task in running:
                task.cancel()

    async def apply(self, decision: LeasedDecision) -> None:
        """Time the decision out if due; drop its entry, or defer it."""
        key = (decision.match_id, decision.seat, decision.version)
        posted = self.entries.posted.pop(key, 0)
        ref = BotDecisionRef(*key)
        store = self.matches.store
        try:
            verdict, until = await self.matches.time_out(*key, posted)
            now = now_ms()
            if verdict == "later" and (until is not None or now - posted <= POST_GRACE_MS):
                until = until or now + defer_ms(now - posted)
                await store.defer_bot_decisions(self.worker_id, [ref], until, CLOCKS)
                return
            await store.release_bot_decisions(self.worker_id, [ref], CLOCKS)
        except (StoreError, errors.RulesNewerThanReplica) as exc:
            log.warning("timeout not applied (the lease expires, a keeper retries): %s", exc)
        except Exception:  # one bad match must not stop every clock of the replica
            log.exception("timeout failed", extra={"match_id": decision.match_id})


__all__ = ["ClockDecisions", "ClockKeeper"]
