"""Every replica enforces turn clocks: the :class:`ClockKeeper`.

Timeout entries wait in the store's CLOCKS queue, each due at its decision's
deadline (see :mod:`senet.service.clocks`). A keeper leases due entries with the
same atomic acquire that hands bot decisions to workers, so one replica takes
each; it checks each against the stored match (the deadline recomputed from the
head, an entry whose decision was made meanwhile dropped) and lets
:meth:`MatchService.time_out` apply the policy. An entry leased by a replica
that dies expires after the short lease and another replica takes it over.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from senet.service.bots_api import BotDecisions, LeasedDecision, Verdict
from senet.service.clocks import now_ms, started_ms
from senet.service.matches import Caller, MatchService, _clock_of, _control_of, is_started
from senet.service.records import MatchMeta
from senet.store import BotDecisionLease, MatchNotFound, StoredMatch, StoreError
from senet.store.base import CLOCKS

log = logging.getLogger("senet.clocks")
_CAPACITY = 100
_LEASE_MS = 5000
_WAIT_MS = 1000


class ClockDecisions(BotDecisions):
    """The CLOCKS queue: an entry is ready once its decision is past its deadline."""

    def __init__(self, matches: MatchService) -> None:
        super().__init__(matches, CLOCKS)
        # Deadlines are not rung in by a local post: look often (a cheap ZRANGEBYSCORE).
        self.poll_s = 0.02

    async def _verdict(
        self, lease: BotDecisionLease, now: int
    ) -> tuple[Verdict, StoredMatch | None, int | None]:
        try:
            stored = await self.store.load(lease.match_id)
        except MatchNotFound:
            return "later", None, None
        meta = MatchMeta.from_json(stored.meta_json)
        control = _control_of(meta)
        clock = _clock_of(stored)
        if (
            control is None
            or clock is None
            or stored.status != "active"
            or stored.version > lease.version
        ):
            return "gone", stored, None
        if stored.version < lease.version:
            return "later", stored, None  # the commit that starts the clock is on its way
        state = self.matches.state_of(meta, stored)
        if state.is_over() or state.current_seat() != lease.seat:
            return "gone", stored, None
        if not is_started(meta, stored.seats):
            return "later", stored, None  # the join that starts the match is on its way
        deadline = clock.deadline_ms(control, lease.seat, started_ms(meta, stored.seats))
        if now < deadline:
            return "later", stored, deadline
        return "ready", stored, None

    async def _hand_out(self, lease: BotDecisionLease, stored: StoredMatch) -> LeasedDecision:
        """No token: the keeper acts through the service, as the seat's timeout."""
        meta = MatchMeta.from_json(stored.meta_json)
        return LeasedDecision(
            lease.match_id, lease.seat, lease.version, meta.game_id, "", "", lease.expires_ms
        )


class ClockKeeper:
    """Leases due timeouts and applies them, until cancelled.

    ``late_ms`` records, per applied timeout, how long after its deadline the
    fallback was committed (the bench reads it).
    """

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.entries = ClockDecisions(matches)
        self.worker_id = "clocks-" + secrets.token_hex(6)
        self._admin = Caller(is_admin=True)
        self.applied = 0

    async def run(self) -> None:
        """Acquire while timeouts are being applied: one slow timeout (or a
        burst of them) never holds back the ones that fall due meanwhile."""
        running: set[asyncio.Task[None]] = set()
        freed = asyncio.Event()
        try:
            while True:
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
                    log.warning("clock queue unavailable: %s", exc)
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
        """Time the decision out, then drop its entry (the next one is posted
        by the commit that starts the next decision)."""
        try:
            if await self.matches.time_out(decision.match_id, decision.seat, decision.version):
                self.applied += 1
        except MatchNotFound:
            pass
        except StoreError as exc:
            log.warning("timeout not applied (the lease expires, a keeper retries): %s", exc)
            return
        except Exception:  # one bad match must not stop every clock of the replica
            log.exception("timeout failed", extra={"match_id": decision.match_id})
            return  # the lease expires and a keeper tries again
        await self.store_release(decision)

    async def store_release(self, decision: LeasedDecision) -> None:
        await self.entries.release(
            self._admin,
            self.worker_id,
            [(decision.match_id, decision.seat, decision.version)],
        )


__all__ = ["ClockDecisions", "ClockKeeper", "now_ms"]
