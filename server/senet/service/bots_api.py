"""Bot decisions for bot workers: the BotService RPCs and the logic behind them.

A *decision* is a bot seat that must act now: its match has started (every open
seat is claimed) and the seat is the one to act. The match service posts one to
the store's decision queue (shared by every replica) before it stores the write
that makes the decision due, so no decision is lost when a replica dies between
the two; on Redis Cluster the queue and the match live in different slots, and
this order is what makes the pair safe without a cross-slot transaction.

A worker leases a decision, plays one action and releases it; a worker that dies
stops renewing, its lease expires and the next acquire by any worker takes the
decision over. Each hand-out mints a fresh token and *replaces* the seat's
claim, so the dead (or merely slow) worker's token is refused from then on: two
workers can never both act for one seat, even if the first one comes back.

Because the post comes first, an acquired entry may describe a write that has
not landed yet (or never will): a commit, the join that starts the match, or
the claim swap that hands a person's seat to a bot. :meth:`BotDecisions.acquire`
checks each entry against the stored match, hands out the ready ones, defers
the young ones that are not due yet, and drops the rest; an entry left at a
version its match never reached, or passed, while its seat must decide is
posted again at the match's version (see :meth:`BotDecisions._verdict`). Idle
and waiting matches have no entry, so they cost workers nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from senet.service import errors
from senet.service.access import Caller, check_id, is_bot_turn
from senet.service.handover import LANDED_MS
from senet.service.matches import MatchService
from senet.service.records import MatchMeta, SeatClaim, new_token, token_hash
from senet.store import BotDecisionLease, BotDecisionRef, MatchNotFound, StoredMatch
from senet.store.base import BOTS, BotQueue, now_ms

T = TypeVar("T")
_WORKER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_MAX_CAPACITY = 100
_MIN_LEASE_MS = 100
_MAX_LEASE_MS = 600_000
_MAX_WAIT_MS = 30_000
#: How long after its post an entry may wait for the write that makes it due: any
#: write still in flight lands (or fails) well within it.
POST_GRACE_MS = 30_000
#: While waiting, how often the queue is looked at again for decisions posted
#: through other replicas (this replica's own posts wake the wait at once).
_POLL_S = 0.05
#: A decision released while still due (its worker gave it up) is acquirable
#: again after this long: soon enough to keep the match going, late enough that a
#: worker giving up every decision it gets costs little.
GIVEN_UP_RETRY_MS = 1000

Verdict = Literal["ready", "later", "gone"]


@dataclass(frozen=True)
class LeasedDecision:
    """A decision handed to a worker, with the seat's new token."""

    match_id: str
    seat: int
    version: int
    game_id: str
    strategy: str
    token: str
    lease_expires_ms: int


def defer_ms(age_ms: int) -> int:
    """How long a not-yet-due entry waits before it is looked at again.

    Short at first (the write is usually a round trip behind its post), then
    longer, so an entry whose write failed costs a few dozen loads in all.
    """
    return min(1000, max(20, age_ms // 4))


class BotDecisions:
    """Application logic of the bot-decision queue, over a :class:`MatchService`.

    It needs the match service (not only the store) to drop a replaced claim from
    this replica's state cache at once, and to be woken by this replica's posts;
    other replicas' caches cannot let the old token act either, since every
    commit re-checks the acting seat's claim.
    """

    def __init__(self, matches: MatchService, queue: BotQueue = BOTS) -> None:
        self.matches = matches
        self.store = matches.store
        self.queue = queue
        #: While waiting, how often the queue is looked at again.
        self.poll_s = _POLL_S

    @staticmethod
    def _check(caller: Caller, worker_id: str, lease_ms: int | None = None) -> None:
        # Never open: a worker is handed seat tokens (see Caller.is_worker).
        if not caller.is_worker:
            raise errors.WorkerKeyRequired(
                "bot workers must send the worker key (x-senet-worker-key) or the admin key"
            )
        if not _WORKER_RE.match(worker_id):
            raise errors.MalformedRequest("worker_id must be 1-64 characters of [A-Za-z0-9_-]")
        if lease_ms is not None and not _MIN_LEASE_MS <= lease_ms <= _MAX_LEASE_MS:
            raise errors.MalformedRequest(f"lease_ms must be {_MIN_LEASE_MS}-{_MAX_LEASE_MS}")

    @staticmethod
    def _refs(refs: Iterable[tuple[str, int, int]]) -> list[BotDecisionRef]:
        return [BotDecisionRef(check_id(m), seat, version) for m, seat, version in refs]

    async def acquire(
        self, caller: Caller, worker_id: str, capacity: int, lease_ms: int, wait_ms: int = 0
    ) -> list[LeasedDecision]:
        """Lease up to ``capacity`` due decisions, waiting up to ``wait_ms`` for one."""
        self._check(caller, worker_id, lease_ms)
        if not 1 <= capacity <= _MAX_CAPACITY:
            raise errors.MalformedRequest(f"capacity must be 1-{_MAX_CAPACITY}")
        if not 0 <= wait_ms <= _MAX_WAIT_MS:
            raise errors.MalformedRequest(f"wait_ms must be 0-{_MAX_WAIT_MS}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_ms / 1000
        while True:
            bell = self.matches.bot_bell()
            out = await self._acquire_once(worker_id, capacity, lease_ms)
            remaining = deadline - loop.time()
            if out or remaining <= 0:
                return out
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
            # cancellation that lands as the bell rings, and the loop would go on.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(remaining, self.poll_s)):
                    await bell.wait()

    async def _acquire_once(
        self, worker_id: str, capacity: int, lease_ms: int
    ) -> list[LeasedDecision]:
        now = now_ms()
        leases = await self.store.acquire_bot_decisions(
            worker_id, capacity, lease_ms, now, self.queue
        )
        verdicts = await asyncio.gather(*(self._verdict(lease, now) for lease in leases))
        ready: list[tuple[BotDecisionLease, StoredMatch]] = []
        gone: list[BotDecisionRef] = []
        for lease, (verdict, stored, until) in zip(leases, verdicts, strict=True):
            if verdict == "gone" or (verdict == "later" and now - lease.posted_ms > POST_GRACE_MS):
                gone.append(lease.ref)
            elif verdict == "later":
                until = until or now + defer_ms(now - lease.posted_ms)
                await self.store.defer_bot_decisions(worker_id, [lease.ref], until, self.queue)
            elif stored is not None:
                ready.append((lease, stored))
        if gone:
            await self.store.release_bot_decisions(worker_id, gone, self.queue)
        return list(await asyncio.gather(*(self._hand_out(lease, s) for lease, s in ready)))

    async def _verdict(
        self, lease: BotDecisionLease | BotDecisionRef, now_ms: int
    ) -> tuple[Verdict, StoredMatch | None, int | None]:
        """Whether the stored match is where the entry says; the match; for a
        "later" verdict, when to look again (None: back off from the post).

        For an entry just acquired (a lease), where its version is not the
        match's but the seat must decide now, the seat's decision is posted
        again at the match's version and the entry is "gone" (for an entry
        ahead of its match, once it is LANDED_MS old). A queue keeps one entry
        per seat and a post replaces it, so that entry is the seat's only one:
        a commit that posted ahead and then failed left it at a version that
        never comes, or a slow replica's post replaced a newer one.
        """
        try:
            stored = await self.store.load(lease.match_id)
        except MatchNotFound:
            return "later", None, None  # created right after its first decision was posted
        meta = MatchMeta.from_json(stored.meta_json)
        if stored.status != "active":
            return "gone", stored, None
        behind = stored.version > lease.version and not await self.matches.decision_stands(
            stored, lease.seat, lease.version
        )
        state = self.matches.state_of(meta, stored)
        ready = is_bot_turn(meta, stored.seats, state, lease.seat)
        ahead = stored.version < lease.version
        acquired = lease if isinstance(lease, BotDecisionLease) else None
        if (
            acquired is not None
            and ready
            and (behind or (ahead and now_ms - acquired.posted_ms > LANDED_MS))
        ):
            await self.matches.post_bot_turn(stored, lease.seat)
            return "gone", stored, None
        if behind:
            return "gone", stored, None  # decided, or its moment passed
        if ahead or (ready is None):
            return "later", stored, None  # its write (a commit, a join) is on its way
        if not ready and stored.version == lease.version and lease.seat in state.deciding_seats():
            # A person's seat to decide: a takeover posts before its claim swap lands.
            return "later", stored, None
        return ("ready" if ready else "gone"), stored, None

    async def _hand_out(self, lease: BotDecisionLease, stored: StoredMatch) -> LeasedDecision:
        """Mint the seat a new token (revoking the previous holder's) and lease it.

        A seat taken over from a person keeps its name and takeover mark; a
        registered bot's seat is named after the bot, any other ``<strategy> bot``.
        """
        token = new_token()
        old = stored.seats.get(lease.seat)
        previous = SeatClaim.from_json(old) if old else None
        meta = MatchMeta.from_json(stored.meta_json)
        if previous is not None and previous.takeover:
            claim = replace(previous, token_hash=token_hash(token))
        else:
            name = meta.seats[lease.seat].name or f"{lease.strategy} bot"
            claim = SeatClaim(name, token_hash(token), time.time())
        await self.store.replace_seat_claim(lease.match_id, lease.seat, claim.to_json())
        self.matches.cache.forget(lease.match_id)
        return LeasedDecision(
            lease.match_id,
            lease.seat,
            lease.version,
            meta.game_id,
            lease.strategy,
            token,
            lease.expires_ms,
        )

    async def renew(
        self,
        caller: Caller,
        worker_id: str,
        refs: Iterable[tuple[str, int, int]],
        lease_ms: int,
    ) -> list[BotDecisionRef]:
        """Extend the worker's leases; the decisions missing from the answer are lost."""
        self._check(caller, worker_id, lease_ms)
        return await self.store.renew_bot_decisions(
            worker_id, self._refs(refs), lease_ms, now_ms(), self.queue
        )

    async def release(
        self, caller: Caller, worker_id: str, refs: Iterable[tuple[str, int, int]]
    ) -> None:
        """Drop decisions the worker is done with (only its own, at those versions).

        A decision that is still due is not dropped: the seat must still decide
        at that version, or its choice there still stands (several seats deciding
        at once), so the worker gave it up without acting. Nobody else would
        make it, and the match would wait for it for good; it is handed back
        instead, free to acquire again in ``GIVEN_UP_RETRY_MS``.
        """
        self._check(caller, worker_id)
        decisions = self._refs(refs)
        now = now_ms()
        verdicts = await asyncio.gather(*(self._verdict(ref, now) for ref in decisions))
        due: list[BotDecisionRef] = []
        done: list[BotDecisionRef] = []
        for ref, (verdict, _, _) in zip(decisions, verdicts, strict=True):
            (due if verdict == "ready" else done).append(ref)
        if due:
            until = now + GIVEN_UP_RETRY_MS
            await self.store.defer_bot_decisions(worker_id, due, until, self.queue)
        if done:
            await self.store.release_bot_decisions(worker_id, done, self.queue)
