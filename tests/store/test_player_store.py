"""The player store's tickets and locks, on the memory store and on Redis (whose
scripts must behave alike).

Issue 36: "an abandoned ticket expires"; "one ticket is never placed in two
matches"; "A player already in an active queued match cannot queue twice for the
same game."
"""

from __future__ import annotations

import asyncio

import pytest

from senet.store.players import Claim, MemoryPlayerStore, PlayerStore, TicketWrite
from senet.store.redis_players import RedisPlayerStore


@pytest.fixture(params=["memory", "redis"])
def players(request: pytest.FixtureRequest) -> PlayerStore:
    if request.param == "memory":
        return MemoryPlayerStore()
    return RedisPlayerStore(request.getfixturevalue("prefixed_store"))


def _ticket(ticket_id: str, subject: str = "ada", expires_ms: int = 10_000) -> TicketWrite:
    return TicketWrite(
        ticket_id, f"{subject}|pebbles", f'{{"id": "{ticket_id}"}}', 25.0, 1_000, expires_ms
    )


def _claim(*ids: str, match_id: str = "m1") -> Claim:
    docs = tuple(f'{{"id": "{i}", "matched": true}}' for i in ids)
    return Claim(ids, docs, 50_000, match_id, f'{{"seats": "{",".join(ids)}"}}')


async def test_a_player_holds_one_ticket_per_game_until_it_is_cancelled(
    players: PlayerStore,
) -> None:
    assert await players.enqueue(_ticket("t1")) == "t1"
    assert await players.enqueue(_ticket("t2")) == "t1"  # refused: t1 holds the lock
    assert await players.ticket("t2") is None
    assert await players.queued(10) == ['{"id": "t1"}']
    assert await players.cancel("t1") and not await players.cancel("t1")
    assert await players.ticket("t1") is None
    assert await players.enqueue(_ticket("t2")) == "t2"


async def test_an_abandoned_ticket_expires_unless_touched(players: PlayerStore) -> None:
    await players.enqueue(_ticket("t1", "ada", expires_ms=5_000))
    await players.enqueue(_ticket("t2", "bob", expires_ms=5_000))
    assert await players.touch("t2", 9_000)
    assert await players.expire(6_000, 10) == ["t1"]
    assert await players.ticket("t1") is None and await players.ticket("t2") is not None
    assert await players.enqueue(_ticket("t3", "ada")) == "t3"  # the lock went with it


async def test_claims_take_every_ticket_or_none(players: PlayerStore) -> None:
    for ticket_id, subject in (("a", "ada"), ("b", "bob"), ("c", "cy")):
        await players.enqueue(_ticket(ticket_id, subject))
    first, second = await asyncio.gather(
        players.claim(_claim("a", "b", match_id="m1")),
        players.claim(_claim("b", "c", match_id="m2")),
    )
    assert (first, second) == (True, False)
    assert await players.queued(10) == ['{"id": "c"}']  # c stayed queued, unchanged
    # Only the claim that took its tickets remembers its match.
    assert await players.queued_matches(10) == [("m1", '{"seats": "a,b"}')]
    assert not await players.touch("a", 99_000)  # matched: no longer queued
    assert await players.update_ticket("a", '{"id": "a", "delivered": true}')
    assert not await players.update_ticket("zz", "{}")


async def test_a_matched_ticket_keeps_its_lock_until_its_match_is_released(
    players: PlayerStore,
) -> None:
    await players.enqueue(_ticket("a"))
    assert await players.claim(_claim("a"))
    assert await players.expire(60_000, 10) == ["a"]  # the matched ticket is dropped...
    assert await players.enqueue(_ticket("b")) == "a"  # ...but its match holds the lock
    assert await players.queued_matches(10) == [("m1", '{"seats": "a"}')]
    await players.release("m1", [("ada|pebbles", "a")])
    await players.release("m1", [("ada|pebbles", "a")])  # idempotent
    assert await players.queued_matches(10) == []
    assert await players.enqueue(_ticket("b")) == "b"
    await players.release("m0", [("ada|pebbles", "a")])  # a lock since retaken stays
    assert await players.enqueue(_ticket("c")) == "b"
