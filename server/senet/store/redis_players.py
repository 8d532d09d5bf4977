"""The player store in Redis, beside a :class:`~senet.store.redis_store.RedisStore`.

Every key shares the hash tag ``{players}``, so each script may touch any of them on
a Redis Cluster too (they live on one master: players, ratings and the queue are
small next to the matches). Layout under prefix ``p``:

* ``p:{players}:players`` hash, subject -> player document;
* ``p:{players}:rating:<pool>`` hash, subject -> rating document (a pool is a
  game, or a ladder's game at its seat count: ``mykerinos-4``);
* ``p:{players}:board:<pool>`` sorted set, subject by conservative rating;
* ``p:{players}:recent:<subject>`` list, result documents, newest first;
* ``p:{players}:settled`` hash, match id -> when its ratings were settled;
* ``p:{players}:matches`` hash, queued match id -> its document, until released;
* ``p:{players}:tickets`` hash, ticket id -> document; ``...:locks`` hash,
  ``<subject>|<game>`` -> ticket id; ``...:ticket_locks`` hash, ticket id -> lock;
  ``...:by_age`` and ``...:by_rating`` sorted sets of the queued tickets;
  ``...:expiry`` sorted set, ticket id -> when it expires.

The writes are the ``players_*`` and ``tickets_*`` scripts under ``lua/``; calls go
through the match store's clients, budget and error translation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from senet.store.base import now_ms
from senet.store.players import Claim, PlayerStore, Settlement, SettleOutcome, TicketWrite
from senet.store.redis_store import RedisStore

__all__ = ["RedisPlayerStore"]


class RedisPlayerStore(PlayerStore):
    """A :class:`PlayerStore` over the clients of a :class:`RedisStore`."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._base = f"{store.key_prefix}:{{players}}:"

    def key(self, part: str) -> str:
        """The key of ``part`` (e.g. ``tickets``, ``rating:mykerinos``)."""
        return self._base + part

    def _ticket_keys(self) -> list[str]:
        return [
            self.key(p)
            for p in ("tickets", "locks", "ticket_locks", "by_age", "by_rating", "expiry")
        ]

    async def put_player(self, subject: str, doc: str) -> None:
        await self._store.read("HSET", self.key("players"), subject, doc)

    async def players(self, subjects: Sequence[str]) -> list[str | None]:
        if not subjects:
            return []
        return cast(
            list[str | None], await self._store.read("HMGET", self.key("players"), *subjects)
        )

    async def ratings(self, pool: str, subjects: Sequence[str]) -> list[str | None]:
        if not subjects:
            return []
        reply = await self._store.read("HMGET", self.key(f"rating:{pool}"), *subjects)
        return cast(list[str | None], reply)

    async def settle(self, settlement: Settlement) -> SettleOutcome:
        keys = [
            self.key("settled"),
            self.key(f"rating:{settlement.pool}"),
            self.key(f"board:{settlement.pool}"),
            *(self.key(f"recent:{w.subject}") for w in settlement.writes),
        ]
        args: list[Any] = [
            settlement.match_id,
            now_ms(),
            settlement.recent_limit,
            len(settlement.writes),
        ]
        for w in settlement.writes:
            expected = "-" if w.expected is None else "=" + w.expected
            args += [w.subject, expected, w.rating, repr(float(w.score)), w.result]
        reply = await self._store.run_script("players_settle", keys, args)
        return cast(SettleOutcome, reply)

    async def is_settled(self, match_id: str) -> bool:
        return bool(await self._store.read("HEXISTS", self.key("settled"), match_id))

    async def leaderboard(
        self, pool: str, offset: int, limit: int
    ) -> tuple[list[tuple[str, float]], int]:
        board = self.key(f"board:{pool}")
        flat = await self._store.read("ZREVRANGE", board, offset, offset + limit - 1, "WITHSCORES")
        total = await self._store.read("ZCARD", board)
        rows = [(str(member), float(score)) for member, score in _pairs(flat)]
        return rows, int(total)

    async def recent(self, subject: str, limit: int) -> list[str]:
        reply = await self._store.read("LRANGE", self.key(f"recent:{subject}"), 0, limit - 1)
        return [str(r) for r in reply]

    async def queued_matches(self, limit: int) -> list[tuple[str, str]]:
        _, flat = await self._store.read("HSCAN", self.key("matches"), 0, "COUNT", limit)
        return [(str(match_id), str(doc)) for match_id, doc in _pairs(flat)][:limit]

    async def release(self, match_id: str, locks: Sequence[tuple[str, str]]) -> None:
        args: list[Any] = [match_id]
        for lock, ticket_id in locks:
            args += [lock, ticket_id]
        await self._store.run_script(
            "players_release", [self.key("matches"), self.key("locks")], args
        )

    async def enqueue(self, ticket: TicketWrite) -> str:
        reply = await self._store.run_script(
            "tickets_enqueue",
            self._ticket_keys(),
            [
                ticket.ticket_id,
                ticket.lock,
                ticket.doc,
                repr(float(ticket.rating)),
                ticket.created_ms,
                ticket.expires_ms,
            ],
        )
        return str(reply)

    async def ticket(self, ticket_id: str) -> str | None:
        reply = await self._store.read("HGET", self.key("tickets"), ticket_id)
        return None if reply is None else str(reply)

    async def queued(self, limit: int) -> list[str]:
        reply = await self._store.run_script(
            "tickets_scan", [self.key("tickets"), self.key("by_age")], [limit]
        )
        return [str(doc) for doc in reply]

    async def claim(self, claim: Claim) -> bool:
        keys = [self.key(p) for p in ("tickets", "by_age", "by_rating", "expiry", "matches")]
        args: list[Any] = [claim.retain_until_ms, claim.match_id, claim.record]
        args.append(len(claim.ticket_ids))
        args += [*claim.ticket_ids, *claim.docs]
        return bool(await self._store.run_script("tickets_claim", keys, args))

    async def cancel(self, ticket_id: str) -> bool:
        reply = await self._store.run_script(
            "tickets_drop", self._ticket_keys(), ["cancel", ticket_id]
        )
        return bool(reply)

    async def expire(self, now_ms: int, limit: int) -> list[str]:
        reply = await self._store.run_script(
            "tickets_drop", self._ticket_keys(), ["expire", now_ms, limit]
        )
        return [str(i) for i in reply]

    async def touch(self, ticket_id: str, expires_ms: int) -> bool:
        keys = [self.key(p) for p in ("tickets", "by_age", "expiry")]
        return bool(
            await self._store.run_script("tickets_touch", keys, ["touch", ticket_id, expires_ms])
        )

    async def update_ticket(self, ticket_id: str, doc: str) -> bool:
        keys = [self.key(p) for p in ("tickets", "by_age", "expiry")]
        return bool(await self._store.run_script("tickets_touch", keys, ["update", ticket_id, doc]))


def _pairs(reply: Any) -> list[tuple[Any, Any]]:
    """A reply of pairs as pairs, whether the client paired it already (redis-py's
    callbacks for WITHSCORES and HSCAN) or left it flat."""
    if isinstance(reply, dict):
        return list(reply.items())
    items = list(reply)
    if items and isinstance(items[0], list | tuple):
        return [(a, b) for a, b in items]
    return [(items[i], items[i + 1]) for i in range(0, len(items), 2)]
