"""The in-memory match store: the embedded default for a single server process.

It keeps every match in a dict and mirrors the Redis store's semantics exactly
(same checks in the same order, same errors), so the application layer and its
tests behave the same whichever store runs underneath. It is only shared by
coroutines of one event loop: several server processes need the Redis store.

Expiry is lazy: a match whose TTL has passed is dropped when it is next touched,
and :meth:`MemoryStore.create` sweeps the whole dict from time to time so that
matches nobody asks for again do not pile up.
"""

from __future__ import annotations

import asyncio
import bisect
import heapq
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import get_args

from senet.store.base import (
    BOTS,
    LOBBY_CREATE_GRACE_S,
    BotDecisionLease,
    BotDecisionRef,
    BotQueue,
    ClaimWrite,
    CommitOutcome,
    CommitRequest,
    CorruptMatch,
    Durability,
    EventBatch,
    LobbyCursor,
    LobbyEntry,
    LobbyHint,
    LobbyQuery,
    LobbyScan,
    LogEntry,
    MatchExists,
    MatchFacts,
    MatchNotFound,
    MatchStatus,
    MatchStore,
    NewMatch,
    ReopenOutcome,
    StoredMatch,
)

__all__ = ["MemoryStore"]

# How often (in clock seconds) ``create`` sweeps expired matches out of the dict.
_SWEEP_INTERVAL_S = 60.0
# Entries past their lobby deadline checked on every lobby write (as on Redis).
_LOBBY_DUE = 4


@dataclass(eq=False)
class _Match:
    """One match and its bookkeeping (mutable, private to the store)."""

    meta_json: str
    snapshot_json: str
    status: MatchStatus
    touched_at: float
    version: int = 0
    seats: dict[int, str] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    requests: dict[str, int] = field(default_factory=dict)
    # Waiting for players: kept the waiting TTL only (see NewMatch.waiting).
    waiting: bool = False
    # Started by the claim of its last open seat (see MatchStore.claim_seat).
    started: bool = False
    # Set (then dropped) by the next commit, to wake readers blocked after a
    # version; made by the first such reader, so that a commit nobody waits
    # for makes no event.
    changed: asyncio.Event | None = None
    # Blocked readers following a cursor (see MemoryStore.events_following).
    followers: list[_Follower] = field(default_factory=list)


#: A reader blocked in :meth:`MemoryStore.events_following`: the future that
#: wakes it and the cursor it follows.
_Follower = tuple["asyncio.Future[None]", Callable[[], int]]


def _batches(match: _Match, version: int, limit: int) -> list[EventBatch]:
    """At most ``limit`` of ``match``'s batches after ``version`` (the start,
    version 0, only once the match has started)."""
    return [
        EventBatch(v, match.events[v - 1]) if v else EventBatch(0, "")
        for v in range(version + 1, min(match.version, version + limit) + 1)
        if v or match.started
    ]


def _changed(match: _Match) -> None:
    """Wake the readers blocked on ``match``: at once those reading after a
    version, a loop turn later those following a cursor still behind it."""
    changed = match.changed
    if changed is not None:
        match.changed = None
        changed.set()
    if match.followers:
        asyncio.get_running_loop().call_soon(_wake_behind, match)


def _wake_behind(match: _Match) -> None:
    """Wake the followers of ``match`` whose cursor is behind its version now.

    Run a loop turn after a commit: a replica that committed has published the
    new version to its feeds by then, and its reader sleeps on."""
    still = []
    for follower in match.followers:
        waiter, cursor = follower
        if waiter.done():
            continue
        if cursor() < match.version:
            waiter.set_result(None)
        else:
            still.append(follower)
    match.followers = still


@dataclass(eq=False)
class _Decision:
    """One bot seat's entry in the decision queue (mutable, private to the store)."""

    free_at_ms: int
    owner: str
    strategy: str
    version: int
    posted_ms: int


class MemoryStore(MatchStore):
    """A :class:`MatchStore` held in process memory.

    Args:
        finished_ttl_s: Drop matches whose status is not ``"active"`` (finished or
            abandoned: no further commit is expected) this many seconds after
            their last commit. ``None`` keeps them forever.
        idle_ttl_s: Drop active matches that have had no commit (or creation)
            for this many seconds. ``None`` keeps them forever.
        waiting_ttl_s: Drop matches created waiting for players that nobody
            started (or committed in) for this many seconds. ``None`` keeps
            them forever.
        clock: Monotonic time source in seconds; tests inject a fake one to
            exercise expiry without sleeping.
    """

    def __init__(
        self,
        *,
        finished_ttl_s: float | None = None,
        idle_ttl_s: float | None = None,
        waiting_ttl_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._finished_ttl_s = finished_ttl_s
        self._idle_ttl_s = idle_ttl_s
        self._waiting_ttl_s = waiting_ttl_s
        self._clock = clock
        self._matches: dict[str, _Match] = {}
        # Every method does its reads and writes under this lock, so each one is
        # atomic even if a future change adds an await inside a critical section.
        self._lock = asyncio.Lock()
        self._last_sweep = clock()
        # Bot-decision queues, one entry per bot seat in each.
        self._queues: dict[BotQueue, dict[tuple[str, int], _Decision]] = {}
        # Lobby: entries by match id, and their positions sorted newest first.
        self._lobby: dict[str, LobbyEntry] = {}
        self._lobby_order: list[tuple[int, str]] = []
        # Lobby deadlines (clock seconds) by match id, and a heap of them in which
        # replaced ones linger until popped (see MatchStore.lobby_sweep).
        self._lobby_deadlines: dict[str, float] = {}
        self._lobby_heap: list[tuple[float, str]] = []

    def __len__(self) -> int:
        """Number of matches held, expired or not (for tests and metrics)."""
        return len(self._matches)

    # -- expiry ---------------------------------------------------------------

    def _ttl_for(self, match: _Match) -> float | None:
        if match.status != "active":
            return self._finished_ttl_s
        return self._waiting_ttl_s if match.waiting else self._idle_ttl_s

    def _expired(self, match: _Match, now: float) -> bool:
        ttl = self._ttl_for(match)
        return ttl is not None and now - match.touched_at >= ttl

    def _get(self, match_id: str) -> _Match:
        """The live match, dropping it first if it has expired."""
        match = self._matches.get(match_id)
        if match is not None and self._expired(match, self._clock()):
            del self._matches[match_id]
            match = None
        if match is None:
            raise MatchNotFound(match_id)
        return match

    def _sweep(self, now: float) -> None:
        if now - self._last_sweep < _SWEEP_INTERVAL_S:
            return
        self._last_sweep = now
        for match_id in [k for k, m in self._matches.items() if self._expired(m, now)]:
            del self._matches[match_id]
        self._sweep_lobby()

    # -- MatchStore -----------------------------------------------------------

    async def create(self, match: NewMatch) -> None:
        """Write a new match at version 0; an existing live id raises MatchExists."""
        async with self._lock:
            now = self._clock()
            self._sweep(now)
            existing = self._matches.get(match.match_id)
            if existing is not None and not self._expired(existing, now):
                raise MatchExists(f"match {match.match_id!r} already exists")
            self._matches[match.match_id] = _Match(
                meta_json=match.meta_json,
                snapshot_json=match.snapshot_json,
                status=match.status,
                touched_at=now,
                waiting=match.waiting,
            )

    async def load(self, match_id: str) -> StoredMatch:
        """Read meta, seat claims and head (trivially consistent under the lock)."""
        async with self._lock:
            m = self._get(match_id)
            _check_readable(match_id, m)
            return StoredMatch(
                match_id=match_id,
                meta_json=m.meta_json,
                seats=dict(m.seats),
                version=m.version,
                snapshot_json=m.snapshot_json,
                status=m.status,
            )

    async def claim_seat(
        self, match_id: str, claim: ClaimWrite, starting: Sequence[int] = ()
    ) -> bool:
        """Claim a seat if nobody holds it; claiming does not refresh the TTL,
        except that the claim that starts the match gives it the idle TTL."""
        async with self._lock:
            m = self._get(match_id)
            if claim.seat in m.seats:
                return False
            m.seats[claim.seat] = claim.claim_json
            if starting and all(s in m.seats for s in starting) and not m.version:
                m.started = True
                m.waiting = False
                m.touched_at = self._clock()
                _changed(m)
            return True

    async def commit(self, match_id: str, request: CommitRequest) -> CommitOutcome:
        """Request key first, then version check, then write everything at once."""
        async with self._lock:
            m = self._get(match_id)
            done = m.requests.get(request.request_key)
            if done is not None:
                return CommitOutcome("duplicate", done)
            expected_claim = request.seat_claim_json
            if request.seat is not None and m.seats.get(request.seat) != expected_claim:
                return CommitOutcome("conflict", m.version)
            next_seat = request.next_seat
            if next_seat is not None and m.seats.get(next_seat) != request.next_seat_claim_json:
                return CommitOutcome("conflict", m.version)
            if m.version != request.expected_version:
                return CommitOutcome("conflict", m.version)
            m.version += 1
            m.snapshot_json = request.snapshot_json
            m.status = request.status
            m.log.append(request.log_entry_json)
            m.events.append(request.events_json)
            m.requests[request.request_key] = m.version
            m.touched_at = self._clock()
            m.waiting = False
            _changed(m)
            return CommitOutcome("committed", m.version)

    async def events_after(
        self, match_id: str, version: int, limit: int = 1000, block_ms: int = 0
    ) -> list[EventBatch]:
        """Event batches after ``version``; optionally wait for the next commits.

        A blocked reader waits on the match's current ``changed`` event, which the
        next commit sets; it then re-reads, and keeps waiting until the deadline
        if that commit did not reach past ``version``.
        """
        _check_range(version, limit)
        loop = asyncio.get_running_loop()
        # Real time, not ``self._clock``: a fake TTL clock must not stretch waits.
        deadline = loop.time() + block_ms / 1000
        while True:
            async with self._lock:
                m = self._get(match_id)
                batches = _batches(m, version, limit)
                remaining = deadline - loop.time()
                if batches or remaining <= 0:
                    return batches
                changed = m.changed
                if changed is None:
                    changed = m.changed = asyncio.Event()
            try:
                async with asyncio.timeout(remaining):  # not wait_for: no task per wait
                    await changed.wait()
            except TimeoutError:
                return []

    async def events_following(
        self, match_id: str, cursor: Callable[[], int], limit: int, block_ms: int
    ) -> list[EventBatch]:
        """See :meth:`MatchStore.events_following`: a blocked follower is woken
        only by a commit past its cursor, not on every commit as a blocked
        :meth:`events_after` is (a replica's feed reader would otherwise wake for
        each of its own commits, which the feed has already)."""
        _check_range(0, limit)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + block_ms / 1000
        while True:
            async with self._lock:
                m = self._get(match_id)
                batches = _batches(m, cursor(), limit)
                remaining = deadline - loop.time()
                if batches or remaining <= 0:
                    return batches
                waiter: asyncio.Future[None] = loop.create_future()
                follower = (waiter, cursor)
                m.followers.append(follower)
            try:
                async with asyncio.timeout(remaining):
                    await waiter
            except TimeoutError:
                return []
            finally:
                if follower in m.followers:
                    m.followers.remove(follower)

    async def request_version(self, match_id: str, request_key: str) -> int | None:
        """The version ``request_key`` produced, if it was committed."""
        async with self._lock:
            return self._get(match_id).requests.get(request_key)

    async def action_log(self, match_id: str) -> list[LogEntry]:
        """The whole action log, version 1 first."""
        async with self._lock:
            m = self._get(match_id)
            return [LogEntry(v, entry) for v, entry in enumerate(m.log, start=1)]

    async def ping(self) -> None:
        """Always reachable: the data lives in this process."""

    async def close(self) -> None:
        """Nothing to release; the matches stay readable until garbage-collected."""

    async def durability(self) -> Durability:
        """Never persistent: the matches live as long as this process."""
        return Durability(
            False, "in-memory", f"process {os.getpid()} store {id(self):x}", by_design=True
        )

    # -- bot-decision queue ---------------------------------------------------

    def _bots(self, queue: BotQueue) -> dict[tuple[str, int], _Decision]:
        return self._queues.setdefault(queue, {})

    async def post_bot_decision(
        self,
        ref: BotDecisionRef,
        strategy: str,
        now_ms: int,
        queue: BotQueue = BOTS,
        due_ms: int | None = None,
    ) -> None:
        """Queue the decision, free at ``due_ms`` (replacing the seat's entry and lease)."""
        due = now_ms if due_ms is None else due_ms
        async with self._lock:
            self._bots(queue)[(ref.match_id, ref.seat)] = _Decision(
                due, "", strategy, ref.version, now_ms
            )

    async def acquire_bot_decisions(
        self, worker_id: str, capacity: int, lease_ms: int, now_ms: int, queue: BotQueue = BOTS
    ) -> list[BotDecisionLease]:
        """Lease the entries free longest ago first, as the Redis zset does."""
        async with self._lock:
            bots = self._bots(queue)
            due = sorted(
                (entry.free_at_ms, key) for key, entry in bots.items() if entry.free_at_ms <= now_ms
            )[:capacity]
            leases = []
            for _free_at, key in due:
                entry = bots[key]
                entry.free_at_ms, entry.owner = now_ms + lease_ms, worker_id
                leases.append(
                    BotDecisionLease(
                        key[0],
                        key[1],
                        entry.version,
                        entry.strategy,
                        now_ms + lease_ms,
                        entry.posted_ms,
                    )
                )
            return leases

    def _owned(self, worker_id: str, ref: BotDecisionRef, queue: BotQueue) -> _Decision | None:
        entry = self._bots(queue).get((ref.match_id, ref.seat))
        if entry is None or entry.owner != worker_id or entry.version != ref.version:
            return None
        return entry

    async def renew_bot_decisions(
        self,
        worker_id: str,
        refs: list[BotDecisionRef],
        lease_ms: int,
        now_ms: int,
        queue: BotQueue = BOTS,
    ) -> list[BotDecisionRef]:
        """Extend the leases still owned by ``worker_id`` (expired but untaken counts)."""
        async with self._lock:
            held = []
            for ref in refs:
                entry = self._owned(worker_id, ref, queue)
                if entry is not None:
                    entry.free_at_ms = now_ms + lease_ms
                    held.append(ref)
            return held

    async def defer_bot_decisions(
        self, worker_id: str, refs: list[BotDecisionRef], until_ms: int, queue: BotQueue = BOTS
    ) -> None:
        """Free the worker's entries again at ``until_ms``, owned by nobody."""
        async with self._lock:
            for ref in refs:
                entry = self._owned(worker_id, ref, queue)
                if entry is not None:
                    entry.free_at_ms, entry.owner = until_ms, ""

    async def release_bot_decisions(
        self, worker_id: str, refs: list[BotDecisionRef], queue: BotQueue = BOTS
    ) -> None:
        """Forget the worker's entries at those versions; newer posts stay."""
        async with self._lock:
            for ref in refs:
                if self._owned(worker_id, ref, queue) is not None:
                    del self._bots(queue)[(ref.match_id, ref.seat)]

    async def replace_seat_claim(self, match_id: str, seat: int, claim_json: str) -> None:
        """Overwrite the claim; like claiming, it does not refresh the TTL."""
        async with self._lock:
            self._get(match_id).seats[seat] = claim_json

    # -- leaving --------------------------------------------------------------

    async def swap_seat_claim(
        self, match_id: str, seat: int, expected_json: str, new_json: str | None
    ) -> bool:
        """Compare-and-swap the claim (None removes it); no TTL refresh."""
        async with self._lock:
            m = self._get(match_id)
            if m.seats.get(seat) != expected_json:
                return False
            if new_json is None:
                if m.started or m.version:
                    return False
                del m.seats[seat]
            else:
                m.seats[seat] = new_json
            return True

    async def reopen_seat(self, match_id: str, seat: int, expected_json: str) -> ReopenOutcome:
        """Remove the claim unless it changed or the match started (one step)."""
        async with self._lock:
            m = self._get(match_id)
            if m.seats.get(seat) != expected_json:
                return "changed"
            if m.started or m.version:
                return "started"
            del m.seats[seat]
            return "reopened"

    # -- lobby ----------------------------------------------------------------

    def _sweep_lobby(self) -> None:
        """Drop the entries of matches that are gone (past the creation grace)."""
        young = (time.time() - LOBBY_CREATE_GRACE_S) * 1e6
        gone = [
            e.cursor
            for match_id, e in self._lobby.items()
            if match_id not in self._matches and e.cursor.created_us < young
        ]
        self._drop_lobby(gone)

    def _drop_lobby(self, cursors: Sequence[LobbyCursor]) -> None:
        for cursor in cursors:
            entry = self._lobby.get(cursor.match_id)
            if entry is None or entry.cursor != cursor:
                continue
            del self._lobby[cursor.match_id]
            self._lobby_deadlines.pop(cursor.match_id, None)
            position = _lobby_position(cursor)
            index = bisect.bisect_left(self._lobby_order, position)
            if index < len(self._lobby_order) and self._lobby_order[index] == position:
                del self._lobby_order[index]

    async def lobby_put(self, entry: LobbyEntry) -> None:
        """Write the entry; a new one takes its place in the order."""
        async with self._lock:
            old = self._lobby.get(entry.match_id)
            if old is not None and old.cursor != entry.cursor:
                self._drop_lobby([old.cursor])
                old = None
            self._lobby[entry.match_id] = entry
            if old is None:
                bisect.insort(self._lobby_order, _lobby_position(entry.cursor))
            ttl = self._lobby_ttl(entry.hint)
            self._set_lobby_deadline(entry.match_id, None if ttl is None else self._clock() + ttl)
            self._sweep_due_lobby(_LOBBY_DUE)

    def _lobby_ttl(self, hint: LobbyHint | None) -> float | None:
        """The TTL a match with this hint was given by its last write (None: none)."""
        if hint is None:
            return max(
                (t for t in (self._idle_ttl_s, self._finished_ttl_s, self._waiting_ttl_s) if t),
                default=None,
            )
        if hint.status != "active":
            return self._finished_ttl_s
        if hint.open_seats > 0 and self._waiting_ttl_s is not None:
            return min(self._waiting_ttl_s, self._idle_ttl_s or self._waiting_ttl_s)
        return self._idle_ttl_s

    def _set_lobby_deadline(self, match_id: str, at: float | None) -> None:
        if at is None:
            self._lobby_deadlines.pop(match_id, None)
            return
        self._lobby_deadlines[match_id] = at
        heapq.heappush(self._lobby_heap, (at, match_id))

    async def lobby_sweep(self, limit: int) -> int:
        """Pop the deadlines that have passed, checking each entry's match."""
        async with self._lock:
            return self._sweep_due_lobby(limit)

    def _sweep_due_lobby(self, limit: int) -> int:
        """:meth:`lobby_sweep`, under the lock."""
        now = self._clock()
        checked = 0
        heap = self._lobby_heap
        while heap and checked < limit and heap[0][0] <= now:
            at, match_id = heapq.heappop(heap)
            if self._lobby_deadlines.get(match_id) != at:
                continue  # replaced by a later write, or dropped
            checked += 1
            match = self._matches.get(match_id)
            if match is None or self._expired(match, now):
                self._matches.pop(match_id, None)
                self._drop_lobby([self._lobby[match_id].cursor])
                continue
            ttl = self._ttl_for(match)
            self._set_lobby_deadline(match_id, None if ttl is None else match.touched_at + ttl)
        return checked

    async def lobby_scan(
        self, query: LobbyQuery, after: LobbyCursor | None, limit: int, budget: int
    ) -> LobbyScan:
        """Walk the sorted positions from ``after``, filtering on hints."""
        async with self._lock:
            order = self._lobby_order
            start = 0 if after is None else bisect.bisect_right(order, _lobby_position(after))
            found: list[LobbyEntry] = []
            index = start
            while index < len(order) and index - start < budget and len(found) < limit:
                entry = self._lobby[order[index][1]]
                if query.admits(entry.hint):
                    found.append(entry)
                index += 1
            looked = index - start
            if index >= len(order):
                return LobbyScan(found, None, looked)
            last = self._lobby[order[index - 1][1]].cursor if looked else after
            return LobbyScan(found, last, looked)

    async def lobby_peek(
        self, match_ids: Sequence[str]
    ) -> dict[str, MatchFacts | CorruptMatch | None]:
        """Each live match's facts; expired matches are dropped on the way."""
        async with self._lock:
            now = self._clock()
            facts: dict[str, MatchFacts | CorruptMatch | None] = {}
            for match_id in match_ids:
                try:
                    m = self._get(match_id)
                    _check_readable(match_id, m)
                except MatchNotFound:
                    facts[match_id] = None
                    continue
                except CorruptMatch as exc:
                    facts[match_id] = exc
                    continue
                ttl = self._ttl_for(m)
                facts[match_id] = MatchFacts(
                    m.meta_json,
                    dict(m.seats),
                    m.version,
                    m.status,
                    now - m.touched_at,
                    None if ttl is None else m.touched_at + ttl - now,
                )
            return facts

    async def lobby_drop(self, entries: Sequence[LobbyCursor]) -> None:
        """Forget these entries (an entry rewritten elsewhere meanwhile stays)."""
        async with self._lock:
            self._drop_lobby(entries)


def _check_readable(match_id: str, match: _Match) -> None:
    """Raise CorruptMatch for head values the Redis store could not read either."""
    if type(match.version) is not int or match.version < 0:
        raise CorruptMatch(match_id, f"head version {match.version!r}")
    if match.status not in get_args(MatchStatus):
        raise CorruptMatch(match_id, f"head status {match.status!r}")


def _lobby_position(cursor: LobbyCursor) -> tuple[int, str]:
    """Sort key of an entry: newest first, then by match id."""
    return (-cursor.created_us, cursor.match_id)


def _check_range(version: int, limit: int) -> None:
    """Reject arguments the Redis store could not express either."""
    if version < -1:
        raise ValueError(f"version must be >= -1, got {version}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
