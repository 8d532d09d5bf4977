"""The player store: players, ratings, leaderboards, tickets and queued matches.

Beside the match store, with the same rules: documents are opaque JSON strings
(their shapes belong to the service), every write that must not race is one
atomic step (a Lua script on Redis, a step without an ``await`` here), and the
in-memory implementation (:class:`MemoryPlayerStore`) behaves like the Redis one
(:mod:`senet.store.redis_players`).

What must hold across replicas, and which call guarantees it:

* a rated match changes ratings exactly once: :meth:`PlayerStore.settle` is keyed
  by the match id (a replay answers ``duplicate``) and compares every player's
  rating with the one the settlement was worked out from (``conflict``: read
  again and recompute);
* a ticket is placed in one match at most: :meth:`PlayerStore.claim` takes a
  group of queued tickets all at once or not at all;
* a player holds one ticket or queued match per game: :meth:`PlayerStore.enqueue`
  refuses while the player's lock for the game is held, and only cancelling,
  expiry of a queued ticket or :meth:`PlayerStore.release` lets it go.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

SettleOutcome = Literal["settled", "duplicate", "conflict"]


@dataclass(frozen=True)
class RatingWrite:
    """One player's part of a settlement.

    Attributes:
        subject: The player.
        expected: The rating document the new one was worked out from (None:
            the player had none).
        rating: The new rating document.
        score: What the leaderboard ranks by (the conservative rating).
        result: The result document prepended to the player's recent results.
    """

    subject: str
    expected: str | None
    rating: str
    score: float
    result: str


@dataclass(frozen=True)
class Settlement:
    """Every rating change of one finished match.

    ``pool`` names the ratings it changes: a game id (matchmaking rates a game
    over every seat count) or a ladder id (``<game>-<seats>``: a ladder rates
    one seat count, as a bot's strength at two seats says little of it at four).
    """

    match_id: str
    pool: str
    writes: tuple[RatingWrite, ...]
    #: Recent results kept per player.
    recent_limit: int = 20


@dataclass(frozen=True)
class TicketWrite:
    """A new ticket.

    Attributes:
        ticket_id: Its id.
        lock: The player's lock for the game (``<subject>|<game>``).
        doc: The ticket document.
        rating: Where it sorts in the rating index.
        created_ms: Where it sorts in the age index.
        expires_ms: When it expires unless touched.
    """

    ticket_id: str
    lock: str
    doc: str
    rating: float
    created_ms: int
    expires_ms: int


@dataclass(frozen=True)
class Claim:
    """Queued tickets placed in one match, all or none, with the match's record.

    The record is written by the same atomic step that takes the tickets, so a
    record names only tickets it holds: a replica that dies after making a match
    and before claiming leaves no record behind (its match, which nobody joins,
    expires), and a lost claim writes none.
    """

    ticket_ids: tuple[str, ...]
    docs: tuple[str, ...]
    #: Until when the matched tickets are kept for their players to collect.
    retain_until_ms: int
    #: The match the tickets are placed in, and its queued-match record.
    match_id: str
    record: str


class PlayerStore(ABC):
    """Players, ratings and the matchmaking queue."""

    # ---------------------------------------------------------------- players
    @abstractmethod
    async def put_player(self, subject: str, doc: str) -> None:
        """Write a player's document (name, kind)."""

    @abstractmethod
    async def players(self, subjects: Sequence[str]) -> list[str | None]:
        """The documents of these players (None: unknown)."""

    # ---------------------------------------------------------------- ratings
    @abstractmethod
    async def ratings(self, pool: str, subjects: Sequence[str]) -> list[str | None]:
        """These players' rating documents in a rating pool: a game, or a ladder
        (see :class:`Settlement`); None: unrated."""

    @abstractmethod
    async def settle(self, settlement: Settlement) -> SettleOutcome:
        """Write a match's rating changes, once (see the module docstring)."""

    @abstractmethod
    async def is_settled(self, match_id: str) -> bool:
        """Whether a match's settlement was written."""

    @abstractmethod
    async def leaderboard(
        self, pool: str, offset: int, limit: int
    ) -> tuple[list[tuple[str, float]], int]:
        """(subject, score) best first from ``offset``, and the number ranked."""

    @abstractmethod
    async def recent(self, subject: str, limit: int) -> list[str]:
        """A player's latest result documents, newest first."""

    # --------------------------------------------------------- queued matches
    @abstractmethod
    async def queued_matches(self, limit: int) -> list[tuple[str, str]]:
        """Up to ``limit`` (match id, document) of queued matches not released."""

    @abstractmethod
    async def release(self, match_id: str, locks: Sequence[tuple[str, str]]) -> None:
        """Forget an ended queued match and free its players' locks, each
        (lock, ticket id) freed only while that ticket holds it. Idempotent."""

    # ---------------------------------------------------------------- tickets
    @abstractmethod
    async def enqueue(self, ticket: TicketWrite) -> str:
        """Queue a ticket unless the player's lock is held; the id of the ticket
        holding the lock (this one when queued)."""

    @abstractmethod
    async def ticket(self, ticket_id: str) -> str | None:
        """A ticket's document (None: unknown or expired)."""

    @abstractmethod
    async def queued(self, limit: int) -> list[str]:
        """Up to ``limit`` queued ticket documents, oldest first."""

    @abstractmethod
    async def claim(self, claim: Claim) -> bool:
        """Take every ticket of ``claim`` out of the queue, write its matched
        document and remember the match (its record, until :meth:`release`), if
        every ticket is still queued; else change nothing (False)."""

    @abstractmethod
    async def cancel(self, ticket_id: str) -> bool:
        """Drop a queued ticket and free its lock (False: it is not queued)."""

    @abstractmethod
    async def touch(self, ticket_id: str, expires_ms: int) -> bool:
        """Push back a queued ticket's expiry (False: it is not queued)."""

    @abstractmethod
    async def update_ticket(self, ticket_id: str, doc: str) -> bool:
        """Rewrite an existing ticket's document (False: it is gone)."""

    @abstractmethod
    async def expire(self, now_ms: int, limit: int) -> list[str]:
        """Drop up to ``limit`` tickets past their expiry (a queued one frees its
        lock; a matched one keeps it until its match is released); their ids."""


@dataclass
class _Tickets:
    docs: dict[str, str] = field(default_factory=dict)
    lock_of: dict[str, str] = field(default_factory=dict)
    locks: dict[str, str] = field(default_factory=dict)
    by_age: dict[str, int] = field(default_factory=dict)
    by_rating: dict[str, float] = field(default_factory=dict)
    expiry: dict[str, int] = field(default_factory=dict)


class MemoryPlayerStore(PlayerStore):
    """The player store in this process's memory (``senet serve`` without Redis,
    tests). Each method changes its data without awaiting, so it is atomic."""

    def __init__(self) -> None:
        self._players: dict[str, str] = {}
        self._ratings: dict[str, dict[str, str]] = {}
        self._scores: dict[str, dict[str, float]] = {}
        self._recent: dict[str, list[str]] = {}
        self._settled: set[str] = set()
        self._matches: dict[str, str] = {}
        self._t = _Tickets()

    async def put_player(self, subject: str, doc: str) -> None:
        self._players[subject] = doc

    async def players(self, subjects: Sequence[str]) -> list[str | None]:
        return [self._players.get(s) for s in subjects]

    async def ratings(self, pool: str, subjects: Sequence[str]) -> list[str | None]:
        table = self._ratings.get(pool, {})
        return [table.get(s) for s in subjects]

    async def settle(self, settlement: Settlement) -> SettleOutcome:
        if settlement.match_id in self._settled:
            return "duplicate"
        table = self._ratings.setdefault(settlement.pool, {})
        if any(table.get(w.subject) != w.expected for w in settlement.writes):
            return "conflict"
        scores = self._scores.setdefault(settlement.pool, {})
        for write in settlement.writes:
            table[write.subject] = write.rating
            scores[write.subject] = write.score
            recent = self._recent.setdefault(write.subject, [])
            recent.insert(0, write.result)
            del recent[settlement.recent_limit :]
        self._settled.add(settlement.match_id)
        return "settled"

    async def is_settled(self, match_id: str) -> bool:
        return match_id in self._settled

    async def leaderboard(
        self, pool: str, offset: int, limit: int
    ) -> tuple[list[tuple[str, float]], int]:
        scores = self._scores.get(pool, {})
        # Redis orders equal scores by member, descending, in ZREVRANGE.
        ranked = sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)
        return ranked[offset : offset + limit], len(ranked)

    async def recent(self, subject: str, limit: int) -> list[str]:
        return self._recent.get(subject, [])[:limit]

    async def queued_matches(self, limit: int) -> list[tuple[str, str]]:
        return list(self._matches.items())[:limit]

    async def release(self, match_id: str, locks: Sequence[tuple[str, str]]) -> None:
        self._matches.pop(match_id, None)
        for lock, ticket_id in locks:
            if self._t.locks.get(lock) == ticket_id:
                del self._t.locks[lock]

    async def enqueue(self, ticket: TicketWrite) -> str:
        t = self._t
        holder = t.locks.get(ticket.lock)
        if holder is not None:
            return holder
        t.locks[ticket.lock] = ticket.ticket_id
        t.lock_of[ticket.ticket_id] = ticket.lock
        t.docs[ticket.ticket_id] = ticket.doc
        t.by_age[ticket.ticket_id] = ticket.created_ms
        t.by_rating[ticket.ticket_id] = ticket.rating
        t.expiry[ticket.ticket_id] = ticket.expires_ms
        return ticket.ticket_id

    async def ticket(self, ticket_id: str) -> str | None:
        return self._t.docs.get(ticket_id)

    async def queued(self, limit: int) -> list[str]:
        oldest = sorted(self._t.by_age, key=lambda i: (self._t.by_age[i], i))[:limit]
        return [self._t.docs[i] for i in oldest]

    async def claim(self, claim: Claim) -> bool:
        t = self._t
        if not all(i in t.by_age for i in claim.ticket_ids):
            return False
        for ticket_id, doc in zip(claim.ticket_ids, claim.docs, strict=True):
            del t.by_age[ticket_id]
            del t.by_rating[ticket_id]
            t.docs[ticket_id] = doc
            t.expiry[ticket_id] = claim.retain_until_ms
        self._matches[claim.match_id] = claim.record
        return True

    async def cancel(self, ticket_id: str) -> bool:
        if ticket_id not in self._t.by_age:
            return False
        self._drop(ticket_id, queued=True)
        return True

    async def touch(self, ticket_id: str, expires_ms: int) -> bool:
        if ticket_id not in self._t.by_age:
            return False
        self._t.expiry[ticket_id] = expires_ms
        return True

    async def update_ticket(self, ticket_id: str, doc: str) -> bool:
        if ticket_id not in self._t.docs:
            return False
        self._t.docs[ticket_id] = doc
        return True

    async def expire(self, now_ms: int, limit: int) -> list[str]:
        due = sorted(i for i, at in self._t.expiry.items() if at <= now_ms)[:limit]
        for ticket_id in due:
            self._drop(ticket_id, queued=ticket_id in self._t.by_age)
        return due

    def _drop(self, ticket_id: str, queued: bool) -> None:
        t = self._t
        lock = t.lock_of.pop(ticket_id, None)
        if queued and lock is not None and t.locks.get(lock) == ticket_id:
            del t.locks[lock]
        for table in (t.docs, t.by_age, t.by_rating, t.expiry):
            table.pop(ticket_id, None)
