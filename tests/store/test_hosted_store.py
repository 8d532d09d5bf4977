"""What hosting needs of every store, on memory, one Redis and a Redis Cluster.

The bot-decision queues: one entry per bot seat; a newer post of a seat replaces
its entry and lease; a lease is held by one worker until it expires; renew,
defer and release act only on the worker's own entries at the version it
leased; the two queues (bots, zombies) are apart. Leaving: a claim is swapped
or removed only if unchanged; the commit that hands the turn to a seat whose
claim changed is a conflict. Waiting matches expire after the waiting TTL
unless they start.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from senet.store import (
    BotDecisionLease,
    BotDecisionRef,
    ClaimWrite,
    CommitOutcome,
    MatchNotFound,
    MatchStore,
)
from senet.store.base import ZOMBIES
from senet.store.memory import MemoryStore
from tests.store.test_stores import Backend, new_match, req

A1 = BotDecisionRef("a", 1, 4)
B1 = BotDecisionRef("b", 1, 0)
C2 = BotDecisionRef("c", 2, 9)


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """As in test_stores: memory, one Redis and a three-master Redis Cluster."""
    fixture = {"redis": "redis_url", "redis-cluster": "redis_cluster_url"}.get(request.param)
    b = Backend(request.param, request.getfixturevalue(fixture) if fixture else None)
    try:
        yield b
    finally:
        await b.close()


@pytest.fixture
def store(backend: Backend) -> MatchStore:
    return backend.make()


async def test_due_decisions_are_leased_once_oldest_first(store: MatchStore) -> None:
    await store.post_bot_decision(B1, "greedy", now_ms=900)
    await store.post_bot_decision(A1, "random", now_ms=1000)
    await store.post_bot_decision(C2, "mcts", now_ms=5000)  # not due before 5000
    leases = await store.acquire_bot_decisions("w1", 5, lease_ms=100, now_ms=1000)
    assert leases == [
        BotDecisionLease("b", 1, 0, "greedy", 1100, 900),
        BotDecisionLease("a", 1, 4, "random", 1100, 1000),
    ]
    assert await store.acquire_bot_decisions("w2", 5, lease_ms=100, now_ms=1050) == []
    # Expired: another worker takes them over; the first one's renewal then fails.
    taken = await store.acquire_bot_decisions("w2", 5, lease_ms=100, now_ms=1200)
    assert {lease.ref for lease in taken} == {A1, B1}
    assert await store.renew_bot_decisions("w1", [B1, A1], 100, now_ms=1200) == []
    assert await store.renew_bot_decisions("w2", [B1, A1], 100, now_ms=1250) == [B1, A1]


async def test_a_newer_post_replaces_the_seat_entry_and_its_lease(store: MatchStore) -> None:
    await store.post_bot_decision(A1, "random", now_ms=1000)
    assert len(await store.acquire_bot_decisions("w1", 1, lease_ms=10_000, now_ms=1000)) == 1
    newer = BotDecisionRef("a", 1, 6)
    await store.post_bot_decision(newer, "random", now_ms=1001)
    # The old lease is gone: neither renewed nor released, the new entry is due.
    assert await store.renew_bot_decisions("w1", [A1], 100, now_ms=1002) == []
    await store.release_bot_decisions("w1", [A1])
    leases = await store.acquire_bot_decisions("w2", 5, lease_ms=100, now_ms=1002)
    assert [lease.ref for lease in leases] == [newer]


async def test_defer_and_release_touch_only_the_workers_own_entries(store: MatchStore) -> None:
    for ref in (A1, B1):
        await store.post_bot_decision(ref, "random", now_ms=1000)
    await store.acquire_bot_decisions("w1", 5, lease_ms=10_000, now_ms=1000)
    await store.release_bot_decisions("w2", [A1, B1])  # not w2's
    await store.defer_bot_decisions("w2", [A1], until_ms=1000)
    assert await store.renew_bot_decisions("w1", [A1, B1], 10_000, now_ms=1000) == [A1, B1]
    await store.defer_bot_decisions("w1", [A1], until_ms=1500)
    await store.release_bot_decisions("w1", [B1])
    assert await store.acquire_bot_decisions("w3", 5, lease_ms=100, now_ms=1499) == []
    again = await store.acquire_bot_decisions("w3", 5, lease_ms=100, now_ms=1500)
    assert [lease.ref for lease in again] == [A1]
    # A release at another version than the leased one leaves the entry.
    await store.release_bot_decisions("w3", [BotDecisionRef("a", 1, 3)])
    assert await store.renew_bot_decisions("w3", [A1], 100, now_ms=1500) == [A1]


async def test_capacity_bounds_one_acquire(backend: Backend) -> None:
    store, other = backend.make(), backend.replica()
    for i in range(10):
        await store.post_bot_decision(BotDecisionRef(f"m{i}", 0, 0), "random", now_ms=i)
    first = await store.acquire_bot_decisions("w1", 3, lease_ms=1000, now_ms=100)
    second = await other.acquire_bot_decisions("w2", 100, lease_ms=1000, now_ms=100)
    assert [lease.match_id for lease in first] == ["m0", "m1", "m2"]
    assert len(second) == 7
    assert not {lease.match_id for lease in first} & {lease.match_id for lease in second}


async def test_the_zombie_queue_is_apart_from_the_bot_queue(store: MatchStore) -> None:
    await store.post_bot_decision(A1, "zombie", now_ms=1000, queue=ZOMBIES)
    assert await store.acquire_bot_decisions("w", 5, lease_ms=100, now_ms=1000) == []
    leases = await store.acquire_bot_decisions("r", 5, 100, now_ms=1000, queue=ZOMBIES)
    assert [lease.ref for lease in leases] == [A1]
    await store.release_bot_decisions("r", [A1], queue=ZOMBIES)
    assert await store.acquire_bot_decisions("r", 5, 100, now_ms=5000, queue=ZOMBIES) == []


async def test_a_claim_is_swapped_or_removed_only_if_unchanged(store: MatchStore) -> None:
    await store.create(new_match("m"))
    assert await store.claim_seat("m", ClaimWrite(0, "ann"))
    assert not await store.swap_seat_claim("m", 0, "someone else", "bot")
    assert await store.swap_seat_claim("m", 0, "ann", "ann-resigned")
    assert (await store.load("m")).seats == {0: "ann-resigned"}
    assert await store.swap_seat_claim("m", 0, "ann-resigned", None)
    assert (await store.load("m")).seats == {}
    assert not await store.swap_seat_claim("m", 0, "ann-resigned", None)
    with pytest.raises(MatchNotFound):
        await store.swap_seat_claim("nope", 0, "x", None)


async def test_a_commit_handing_the_turn_to_a_changed_seat_conflicts(store: MatchStore) -> None:
    await store.create(new_match("m"))
    await store.claim_seat("m", ClaimWrite(1, "bob"))
    stale = replace(req(0), next_seat=1, next_seat_claim_json="bob")
    await store.swap_seat_claim("m", 1, "bob", "bob-left")
    assert await store.commit("m", stale) == CommitOutcome("conflict", 0)
    unclaimed = replace(req(0), next_seat=2, next_seat_claim_json=None)
    assert await store.commit("m", unclaimed) == CommitOutcome("committed", 1)


async def test_waiting_matches_expire_early_unless_started() -> None:
    clock = [0.0]
    store = MemoryStore(idle_ttl_s=1000, waiting_ttl_s=10, clock=lambda: clock[0])
    await store.create(replace(new_match("idle"), waiting=True))
    await store.create(replace(new_match("started"), waiting=True))
    assert await store.claim_seat("started", ClaimWrite(1, "bob"), starting=[1])
    clock[0] = 11
    with pytest.raises(MatchNotFound):
        await store.load("idle")
    assert (await store.load("started")).version == 0


async def test_waiting_matches_get_the_waiting_ttl_in_redis(redis_url: str) -> None:
    from senet.store.redis_store import RedisStore

    store = RedisStore.from_url(redis_url, idle_ttl_s=1000, waiting_ttl_s=10)
    try:
        await store.create(replace(new_match("w"), waiting=True))
        head = store.keys("w").head
        assert 0 < await store._client.pttl(head) <= 10_000
        assert await store.claim_seat("w", ClaimWrite(0, "ann"), starting=[0, 2])
        assert 0 < await store._client.pttl(store.keys("w").seats) <= 10_000
        assert await store.claim_seat("w", ClaimWrite(2, "bob"), starting=[0, 2])
        for key in (head, store.keys("w").meta, store.keys("w").seats, store.keys("w").events):
            assert await store._client.pttl(key) > 10_000
    finally:
        await store.close()


async def test_the_claim_that_completes_the_open_seats_starts_the_match(
    store: MatchStore,
) -> None:
    """The start is a batch of its own (version 0), read only from before it."""
    await store.create(replace(new_match("m"), waiting=True))
    assert await store.events_after("m", -1) == []
    assert await store.claim_seat("m", ClaimWrite(0, "ann"), starting=[0, 2])
    assert await store.events_after("m", -1) == []
    assert not await store.claim_seat("m", ClaimWrite(0, "eve"), starting=[0, 2])
    assert await store.claim_seat("m", ClaimWrite(2, "bob"), starting=[0, 2])
    (start,) = await store.events_after("m", -1)
    assert start.is_start and start.version == 0
    assert await store.events_after("m", 0) == []
    assert await store.commit("m", req(0)) == CommitOutcome("committed", 1)
    assert [b.version for b in await store.events_after("m", -1)] == [0, 1]
    assert [b.version for b in await store.events_after("m", 0)] == [1]


async def test_a_blocked_read_from_before_the_start_wakes_on_the_start(
    store: MatchStore,
) -> None:
    await store.create(replace(new_match("m"), waiting=True))
    waiting = asyncio.ensure_future(store.events_after("m", -1, block_ms=30_000))
    await asyncio.sleep(0)
    assert await store.claim_seat("m", ClaimWrite(0, "ann"), starting=[0])
    assert [b.is_start for b in await waiting] == [True]


async def test_a_seat_reopens_only_before_the_start(store: MatchStore) -> None:
    """Reopening and starting exclude each other: after the claim that starts
    the match (or any commit), no claim can be removed."""
    await store.create(replace(new_match("m"), waiting=True))
    assert await store.claim_seat("m", ClaimWrite(0, "ann"), starting=[0, 1])
    assert await store.reopen_seat("m", 0, "eve") == "changed"
    assert await store.reopen_seat("m", 0, "ann") == "reopened"
    assert await store.claim_seat("m", ClaimWrite(0, "ann"), starting=[0, 1])
    assert await store.claim_seat("m", ClaimWrite(1, "bob"), starting=[0, 1])
    assert await store.reopen_seat("m", 0, "ann") == "started"
    assert not await store.swap_seat_claim("m", 0, "ann", None)
    assert (await store.load("m")).seats == {0: "ann", 1: "bob"}
    with pytest.raises(MatchNotFound):
        await store.reopen_seat("nope", 0, "ann")
    await store.create(new_match("c"))
    assert await store.claim_seat("c", ClaimWrite(0, "ann"))
    assert await store.commit("c", req(0)) == CommitOutcome("committed", 1)
    assert await store.reopen_seat("c", 0, "ann") == "started"
