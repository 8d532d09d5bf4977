"""One contract suite for every MatchStore implementation, plus Redis specifics.

Each contract test runs against the in-memory store and against Redis (a private
server started by ``tests/conftest.py``). ``Backend.replica()`` gives a second
store over the same data: for Redis, a separate ``RedisStore`` with its own
connections, standing for another server replica; in memory, the same object.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from redis.asyncio import Redis as AsyncRedis
from redis.crc import key_slot

from senet.store import (
    ClaimWrite,
    CommitOutcome,
    CommitRequest,
    EventBatch,
    MatchNotFound,
    MatchStore,
    NewMatch,
    StoreError,
    StoreUnavailable,
)
from senet.store.base import MatchStatus
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from tests.conftest import STORE_BUDGET_S, RedisServer

IDLE_TTL_S = 30.0
FINISHED_TTL_S = 10.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Backend:
    """Builds stores of one kind over shared data, and closes them afterwards."""

    def __init__(self, kind: str, redis_url: str | None) -> None:
        self.kind = kind
        self.redis_url = redis_url
        self.clock = FakeClock()
        self._stores: list[MatchStore] = []
        self._memory: MemoryStore | None = None

    def make(
        self,
        *,
        idle_ttl_s: float | None = IDLE_TTL_S,
        finished_ttl_s: float | None = FINISHED_TTL_S,
    ) -> MatchStore:
        """A new store over this backend's data (memory: a new, empty one)."""
        store: MatchStore
        if self.redis_url is None:
            store = MemoryStore(
                idle_ttl_s=idle_ttl_s, finished_ttl_s=finished_ttl_s, clock=self.clock
            )
            self._memory = store
        else:
            store = RedisStore.from_url(
                self.redis_url,
                idle_ttl_s=idle_ttl_s,
                finished_ttl_s=finished_ttl_s,
                socket_timeout_s=STORE_BUDGET_S,
            )
        self._stores.append(store)
        return store

    def replica(self) -> MatchStore:
        """Another replica's view of the same data."""
        if self._memory is not None:
            return self._memory
        return self.make()

    async def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for TTL purposes, at once: memory moves its clock;
        Redis has every key's time to live shortened by as much (a key it runs out
        deleted, as Redis expires it). Sleeping instead made the tests depend on
        the machine's load: a sleep that overran a margin expired a match early."""
        if self.redis_url is None:
            self.clock.now += seconds
            return
        # The store's own client: a Redis, or a Redis Cluster it scans node by node.
        timer = RedisStore.from_url(self.redis_url)
        client: Any = timer._client
        try:
            keys = [key async for key in client.scan_iter(count=1000)]
            for key in keys:
                left = await client.pttl(key)
                if left < 0:  # no time to live (or gone meanwhile)
                    continue
                if left <= seconds * 1000:
                    await client.delete(key)
                else:
                    await client.pexpire(key, left - round(seconds * 1000))
        finally:
            await timer.close()

    async def close(self) -> None:
        for store in self._stores:
            await store.close()


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """Every contract test runs on memory, one Redis and a three-master Redis Cluster."""
    fixture = {"redis": "redis_url", "redis-cluster": "redis_cluster_url"}.get(request.param)
    url = request.getfixturevalue(fixture) if fixture else None
    b = Backend(request.param, url)
    try:
        yield b
    finally:
        await b.close()


@pytest.fixture
def store(backend: Backend) -> MatchStore:
    return backend.make()


@pytest.fixture
async def redis_store(redis_url: str) -> AsyncIterator[RedisStore]:
    s = RedisStore.from_url(redis_url, idle_ttl_s=IDLE_TTL_S, finished_ttl_s=FINISHED_TTL_S)
    try:
        yield s
    finally:
        await s.close()


def new_match(match_id: str = "m1", status: MatchStatus = "active") -> NewMatch:
    return NewMatch(
        match_id=match_id,
        meta_json=json.dumps({"game": "mykerinos", "seats": 3, "id": match_id}),
        snapshot_json=json.dumps({"v": 0}),
        status=status,
    )


def req(
    expected: int, key: str | None = None, status: MatchStatus = "active", tag: str = ""
) -> CommitRequest:
    """A commit request whose documents identify the request and the version."""
    key = key if key is not None else f"0:r{expected}{tag}"
    v = expected + 1
    return CommitRequest(
        expected_version=expected,
        request_key=key,
        log_entry_json=json.dumps({"key": key, "v": v}),
        events_json=json.dumps([{"key": key, "v": v}]),
        snapshot_json=json.dumps({"v": v, "key": key}),
        status=status,
    )


async def commit_n(store: MatchStore, n: int, match_id: str = "m1") -> None:
    for i in range(n):
        assert await store.commit(match_id, req(i)) == CommitOutcome("committed", i + 1)


# -- create / load / seats ---------------------------------------------------------------


async def test_create_load_round_trip(store: MatchStore) -> None:
    m = new_match()
    await store.create(m)
    loaded = await store.load("m1")
    assert loaded.match_id == "m1"
    assert loaded.meta_json == m.meta_json
    assert loaded.seats == {}
    assert loaded.version == 0
    assert loaded.snapshot_json == m.snapshot_json
    assert loaded.status == "active"
    assert await store.action_log("m1") == []
    assert await store.events_after("m1", 0) == []


async def test_create_keeps_unicode_and_large_documents(store: MatchStore) -> None:
    big = json.dumps({"name": "Mykérinos 𓂀", "pad": "x" * 200_000})
    await store.create(NewMatch("m1", meta_json=big, snapshot_json=big))
    loaded = await store.load("m1")
    assert loaded.meta_json == big and loaded.snapshot_json == big


async def test_duplicate_create_is_refused(store: MatchStore) -> None:
    await store.create(new_match())
    await store.commit("m1", req(0))
    with pytest.raises(StoreError):
        await store.create(NewMatch("m1", meta_json="{}", snapshot_json="{}"))
    loaded = await store.load("m1")
    assert loaded.meta_json == new_match().meta_json
    assert loaded.version == 1


async def test_concurrent_creates_one_wins(backend: Backend) -> None:
    stores = [backend.replica() for _ in range(4)]
    results = await asyncio.gather(
        *(s.create(new_match()) for s in stores for _ in range(2)), return_exceptions=True
    )
    assert sum(r is None for r in results) == 1
    assert all(r is None or isinstance(r, StoreError) for r in results)


async def test_unknown_match_raises_not_found(store: MatchStore) -> None:
    with pytest.raises(MatchNotFound):
        await store.load("nope")
    with pytest.raises(MatchNotFound):
        await store.claim_seat("nope", ClaimWrite(0, "{}"))
    with pytest.raises(MatchNotFound):
        await store.commit("nope", req(0))
    with pytest.raises(MatchNotFound):
        await store.events_after("nope", 0)
    with pytest.raises(MatchNotFound):
        await store.events_after("nope", 0, block_ms=50)
    with pytest.raises(MatchNotFound):
        await store.action_log("nope")


async def test_claim_seat_once_only(store: MatchStore) -> None:
    await store.create(new_match())
    assert await store.claim_seat("m1", ClaimWrite(0, '{"name": "ann"}'))
    assert not await store.claim_seat("m1", ClaimWrite(0, '{"name": "bob"}'))
    assert await store.claim_seat("m1", ClaimWrite(2, '{"name": "bob"}'))
    loaded = await store.load("m1")
    assert loaded.seats == {0: '{"name": "ann"}', 2: '{"name": "bob"}'}
    assert loaded.version == 0


async def test_concurrent_claims_exactly_one_wins(backend: Backend) -> None:
    stores = [backend.replica() for _ in range(4)]
    await stores[0].create(new_match())
    claims = [ClaimWrite(1, json.dumps({"name": f"p{i}"})) for i in range(16)]
    won = await asyncio.gather(
        *(stores[i % len(stores)].claim_seat("m1", c) for i, c in enumerate(claims))
    )
    assert won.count(True) == 1
    winner = claims[won.index(True)]
    assert (await stores[1].load("m1")).seats == {1: winner.claim_json}


# -- commit ----------------------------------------------------------------------


async def test_commit_happy_path(store: MatchStore) -> None:
    await store.create(new_match())
    r = req(0)
    assert await store.commit("m1", r) == CommitOutcome("committed", 1)
    loaded = await store.load("m1")
    assert (loaded.version, loaded.snapshot_json, loaded.status) == (1, r.snapshot_json, "active")
    assert [(e.version, e.entry_json) for e in await store.action_log("m1")] == [
        (1, r.log_entry_json)
    ]
    assert await store.events_after("m1", 0) == [EventBatch(1, r.events_json)]
    r2 = req(1, status="finished")
    assert await store.commit("m1", r2) == CommitOutcome("committed", 2)
    loaded = await store.load("m1")
    assert (loaded.version, loaded.snapshot_json, loaded.status) == (
        2,
        r2.snapshot_json,
        "finished",
    )


async def test_stale_version_conflicts_and_writes_nothing(store: MatchStore) -> None:
    await store.create(new_match())
    await commit_n(store, 2)
    before = await store.load("m1")
    for expected in (0, 1, 3, 99):
        outcome = await store.commit("m1", req(expected, key=f"1:stale{expected}"))
        assert outcome == CommitOutcome("conflict", 2)
    assert await store.load("m1") == before
    assert len(await store.action_log("m1")) == 2
    assert [b.version for b in await store.events_after("m1", 0)] == [1, 2]
    # The conflicting request keys were not recorded: they can still commit.
    assert await store.commit("m1", req(2, key="1:stale1")) == CommitOutcome("committed", 3)


async def test_duplicate_request_key_returns_original_version(store: MatchStore) -> None:
    await store.create(new_match())
    first = req(0, key="0:abc")
    assert await store.commit("m1", first) == CommitOutcome("committed", 1)
    # Same key again, whether the expected version is the old one or the current one.
    assert await store.commit("m1", first) == CommitOutcome("duplicate", 1)
    assert await store.commit("m1", req(1, key="0:abc")) == CommitOutcome("duplicate", 1)
    await store.commit("m1", req(1, key="1:x"))
    await store.commit("m1", req(2, key="2:y"))
    before = await store.load("m1")
    assert await store.commit("m1", req(3, key="0:abc")) == CommitOutcome("duplicate", 1)
    assert await store.commit("m1", req(0, key="1:x")) == CommitOutcome("duplicate", 2)
    assert await store.load("m1") == before
    log = await store.action_log("m1")
    assert [json.loads(e.entry_json)["key"] for e in log] == ["0:abc", "1:x", "2:y"]
    assert len(await store.events_after("m1", 0)) == 3
    assert await store.request_version("m1", "0:abc") == 1
    assert await store.request_version("m1", "2:y") == 3
    assert await store.request_version("m1", "0:never") is None
    with pytest.raises(MatchNotFound):
        await store.request_version("nope", "0:abc")


async def test_request_keys_are_per_match(store: MatchStore) -> None:
    await store.create(new_match("a"))
    await store.create(new_match("b"))
    assert await store.commit("a", req(0, key="0:k")) == CommitOutcome("committed", 1)
    assert await store.commit("b", req(0, key="0:k")) == CommitOutcome("committed", 1)


async def test_concurrent_committers_on_one_version_one_wins(backend: Backend) -> None:
    stores = [backend.replica() for _ in range(4)]
    await stores[0].create(new_match())
    outcomes = await asyncio.gather(
        *(stores[i % 4].commit("m1", req(0, key=f"{i}:only")) for i in range(8))
    )
    assert sorted(o.result for o in outcomes) == ["committed"] + ["conflict"] * 7
    assert all(o.version == 1 for o in outcomes)
    assert len(await stores[0].action_log("m1")) == 1


async def test_eight_racing_committers_produce_contiguous_versions(backend: Backend) -> None:
    """8 writers, each committing its own requests with reload-and-retry on conflict."""
    stores = [backend.replica() for _ in range(4)]
    await stores[0].create(new_match())
    per_writer = 6
    applied: dict[str, int] = {}

    async def writer(w: int) -> None:
        s = stores[w % len(stores)]
        for n in range(per_writer):
            key = f"{w}:{n}"
            while True:
                current = (await s.load("m1")).version
                outcome = await s.commit("m1", req(current, key=key))
                if outcome.result == "conflict":
                    await asyncio.sleep(0)
                    continue
                # A retried request may see its own earlier success as a duplicate.
                applied[key] = outcome.version
                break

    await asyncio.gather(*(writer(w) for w in range(8)))
    total = 8 * per_writer
    assert sorted(applied.values()) == list(range(1, total + 1))
    log = await stores[1].action_log("m1")
    assert [e.version for e in log] == list(range(1, total + 1))
    logged = {json.loads(e.entry_json)["key"]: e.version for e in log}
    assert logged == applied
    events = await stores[2].events_after("m1", 0, limit=total + 10)
    assert [(b.version, json.loads(b.events_json)[0]["key"]) for b in events] == [
        (e.version, json.loads(e.entry_json)["key"]) for e in log
    ]
    assert (await stores[3].load("m1")).version == total


# -- events ----------------------------------------------------------------------


async def test_events_after_order_limit_and_start(store: MatchStore) -> None:
    await store.create(new_match())
    await commit_n(store, 7)
    all_batches = await store.events_after("m1", 0)
    assert [b.version for b in all_batches] == [1, 2, 3, 4, 5, 6, 7]
    assert [json.loads(b.events_json)[0]["v"] for b in all_batches] == [1, 2, 3, 4, 5, 6, 7]
    for start in range(8):
        got = await store.events_after("m1", start)
        assert got == all_batches[start:]
        assert await store.events_after("m1", start, limit=2) == all_batches[start : start + 2]
    assert await store.events_after("m1", 7) == []
    assert await store.events_after("m1", 100) == []
    assert await store.events_after("m1", 3, limit=1) == [all_batches[3]]


async def test_events_after_rejects_bad_arguments(store: MatchStore) -> None:
    await store.create(new_match())
    with pytest.raises(ValueError):
        await store.events_after("m1", -2)
    with pytest.raises(ValueError):
        await store.events_after("m1", 0, limit=0)


async def test_events_after_returns_at_once_when_events_exist(store: MatchStore) -> None:
    """A read that would block for two minutes returns well before: it does not wait
    when the events are there (bounded generously, so a loaded machine passes)."""
    await store.create(new_match())
    await commit_n(store, 2)
    found = await asyncio.wait_for(store.events_after("m1", 1, block_ms=120_000), timeout=30)
    assert [b.version for b in found] == [2]


async def test_blocking_events_after_times_out_empty(store: MatchStore) -> None:
    await store.create(new_match())
    t0 = time.monotonic()
    assert await asyncio.wait_for(store.events_after("m1", 0, block_ms=200), timeout=30) == []
    assert time.monotonic() - t0 >= 0.15  # it waited; the bound above, that it ended


async def test_blocking_events_after_wakes_on_commit_from_another_replica(
    backend: Backend,
) -> None:
    watcher_store, writer_store = backend.make(), backend.replica()
    await writer_store.create(new_match())
    await commit_n(writer_store, 1)
    watchers = [
        asyncio.create_task(watcher_store.events_after("m1", 1, limit=10, block_ms=120_000))
        for _ in range(3)
    ]
    await asyncio.sleep(0.1)  # let the watchers block
    assert not any(w.done() for w in watchers)
    r = req(1)
    assert await writer_store.commit("m1", r) == CommitOutcome("committed", 2)
    # Woken by the commit, long before their two minutes (bounded generously).
    results = await asyncio.wait_for(asyncio.gather(*watchers), 30)
    assert results == [[EventBatch(2, r.events_json)]] * 3


async def test_blocking_reader_ahead_of_head_waits_for_its_version(backend: Backend) -> None:
    store, writer = backend.make(), backend.replica()
    await store.create(new_match())
    watcher = asyncio.create_task(store.events_after("m1", 1, block_ms=120_000))
    await asyncio.sleep(0.05)
    await writer.commit("m1", req(0))  # version 1: not after 1, keep waiting
    await asyncio.sleep(0.1)
    assert not watcher.done()
    await writer.commit("m1", req(1))
    assert [b.version for b in await asyncio.wait_for(watcher, 30)] == [2]


async def test_blocking_reads_do_not_starve_commits(backend: Backend) -> None:
    store = backend.make()
    await store.create(new_match())
    watchers = [
        asyncio.create_task(store.events_after("m1", 0, block_ms=120_000)) for _ in range(50)
    ]
    await asyncio.sleep(0.1)
    # Served while the readers block, not after their two minutes (bounded generously).
    assert (await asyncio.wait_for(store.load("m1"), 30)).version == 0
    assert (await asyncio.wait_for(store.commit("m1", req(0)), 30)).result == "committed"
    results = await asyncio.wait_for(asyncio.gather(*watchers), 30)
    assert all([b.version for b in r] == [1] for r in results)


# -- expiry ----------------------------------------------------------------------


@pytest.mark.slow
async def test_idle_match_expires_and_commits_refresh_it(backend: Backend) -> None:
    store = backend.make(idle_ttl_s=60, finished_ttl_s=20)
    await store.create(new_match())
    await backend.advance(35)
    await store.commit("m1", req(0))  # refreshes the idle deadline
    await backend.advance(35)
    assert (await store.load("m1")).version == 1
    await backend.advance(30)
    with pytest.raises(MatchNotFound):
        await store.load("m1")
    with pytest.raises(MatchNotFound):
        await store.commit("m1", req(1))
    # The id is free again, and the new match starts clean.
    await store.create(new_match())
    assert (await store.load("m1")).version == 0
    assert await store.events_after("m1", 0) == []
    assert await store.action_log("m1") == []
    assert await store.commit("m1", req(0)) == CommitOutcome("committed", 1)


async def test_claiming_a_seat_does_not_extend_the_match(backend: Backend) -> None:
    store = backend.make(idle_ttl_s=60, finished_ttl_s=20)
    await store.create(new_match())
    await backend.advance(35)
    assert await store.claim_seat("m1", ClaimWrite(0, "{}"))
    await backend.advance(35)
    with pytest.raises(MatchNotFound):
        await store.claim_seat("m1", ClaimWrite(1, "{}"))
    await store.create(new_match())
    assert (await store.load("m1")).seats == {}


@pytest.mark.parametrize("status", ["finished", "abandoned"])
async def test_ended_match_expires_after_finished_ttl(backend: Backend, status: str) -> None:
    store = backend.make(idle_ttl_s=500, finished_ttl_s=30)
    await store.create(new_match())
    await store.commit("m1", req(0, status="finished" if status == "finished" else "abandoned"))
    await backend.advance(10)
    assert (await store.load("m1")).status == status
    await backend.advance(25)
    with pytest.raises(MatchNotFound):
        await store.load("m1")


async def test_no_ttl_keeps_matches(backend: Backend) -> None:
    store = backend.make(idle_ttl_s=None, finished_ttl_s=None)
    await store.create(new_match())
    await store.commit("m1", req(0, status="finished"))
    await backend.advance(3600)
    assert (await store.load("m1")).version == 1


# -- memory specifics --------------------------------------------------------------


async def test_memory_sweeps_expired_matches_on_create() -> None:
    clock = FakeClock()
    store = MemoryStore(idle_ttl_s=10, finished_ttl_s=1, clock=clock)
    for i in range(5):
        await store.create(new_match(f"m{i}"))
    await store.commit("m0", req(0, status="finished"))
    clock.now += 5
    await store.create(new_match("x"))
    assert len(store) == 6  # too soon for a sweep
    clock.now += 60
    await store.create(new_match("y"))
    assert len(store) == 1


# -- redis specifics ---------------------------------------------------------------


def test_redis_keys_share_one_hash_tag(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url, key_prefix="senet")
    keys = store.keys("abc-123")
    assert keys.meta == "senet:{abc-123}:meta"
    assert list(keys) == [f"senet:{{abc-123}}:{p}" for p in keys._fields]
    assert {key_slot(k.encode()) for k in keys} == {key_slot(b"abc-123")}
    # Different matches spread over slots (the prefix is not the tag).
    slots = {key_slot(store.keys(f"match-{i}").head.encode()) for i in range(50)}
    assert len(slots) > 40
    with pytest.raises(ValueError):
        RedisStore.from_url(redis_url, key_prefix="se{net}")


async def _ttls_ms(client: AsyncRedis, store: RedisStore, match_id: str) -> dict[str, int]:
    return {k: await client.pttl(k) for k in store.keys(match_id)}


async def test_redis_ttls_follow_status(redis_store: RedisStore, raw_redis: AsyncRedis) -> None:
    idle_ms, finished_ms = IDLE_TTL_S * 1000, FINISHED_TTL_S * 1000
    await redis_store.create(new_match())
    ttls = await _ttls_ms(raw_redis, redis_store, "m1")
    k = redis_store.keys("m1")
    assert all(idle_ms - 1000 < ttls[key] <= idle_ms for key in (k.meta, k.head))
    assert await redis_store.claim_seat("m1", ClaimWrite(0, "{}"))
    assert idle_ms - 1000 < await raw_redis.pttl(k.seats) <= idle_ms

    await redis_store.commit("m1", req(0))
    ttls = await _ttls_ms(raw_redis, redis_store, "m1")
    renewed_ms = idle_ms + idle_ms // 64  # renewed with headroom, see lua/commit.lua
    assert all(renewed_ms - 1000 < t <= renewed_ms for t in ttls.values()), ttls

    await redis_store.commit("m1", req(1, status="finished"))
    ttls = await _ttls_ms(raw_redis, redis_store, "m1")
    assert all(finished_ms - 1000 < t <= finished_ms for t in ttls.values()), ttls
    assert len(ttls) == 6
    assert set(await raw_redis.keys("*")) == set(k)


async def test_redis_commits_renew_expiry_only_when_below_the_idle_ttl(
    redis_store: RedisStore, raw_redis: AsyncRedis
) -> None:
    """Renewing six keys per commit was the script's costliest part: a commit renews
    them only once the head has less than the idle ttl left, so every key always
    keeps at least the idle ttl after the last commit."""
    idle_ms = IDLE_TTL_S * 1000
    renewed_ms = idle_ms + idle_ms // 64
    k = redis_store.keys("m1")
    await redis_store.create(new_match())
    assert await redis_store.claim_seat("m1", ClaimWrite(0, "{}"))
    await redis_store.commit("m1", req(0))  # the first commit renews every key
    assert await raw_redis.pexpire(k.log, 5000)  # a marker: renewal would overwrite it
    await redis_store.commit("m1", req(1))
    assert 0 < await raw_redis.pttl(k.log) <= 5000  # the head had enough left
    assert await raw_redis.pexpire(k.head, int(idle_ms) - 1000)
    await redis_store.commit("m1", req(2))
    ttls = await _ttls_ms(raw_redis, redis_store, "m1")
    assert all(renewed_ms - 1000 < t <= renewed_ms for t in ttls.values()), ttls


async def test_redis_without_ttl_persists_keys(redis_url: str, raw_redis: AsyncRedis) -> None:
    store = RedisStore.from_url(redis_url, idle_ttl_s=None, finished_ttl_s=0)
    try:
        await store.create(new_match())
        await store.claim_seat("m1", ClaimWrite(0, "{}"))
        await store.commit("m1", req(0, status="finished"))
        assert set((await _ttls_ms(raw_redis, store, "m1")).values()) == {-1}
    finally:
        await store.close()


async def test_redis_layout(redis_store: RedisStore, raw_redis: AsyncRedis) -> None:
    await redis_store.create(new_match())
    await redis_store.claim_seat("m1", ClaimWrite(2, '{"n": 1}'))
    r = req(0, key="2:q")
    await redis_store.commit("m1", r)
    k = redis_store.keys("m1")
    assert await raw_redis.get(k.meta) == new_match().meta_json
    assert await raw_redis.hgetall(k.seats) == {"2": '{"n": 1}'}
    assert await raw_redis.hgetall(k.head) == {
        "version": "1",
        "snapshot": r.snapshot_json,
        "status": "active",
    }
    assert await raw_redis.lrange(k.log, 0, -1) == [r.log_entry_json]
    assert await raw_redis.hgetall(k.req) == {"2:q": "1"}
    assert await raw_redis.xrange(k.events) == [("1-0", {"e": r.events_json})]


async def test_redis_key_prefixes_isolate_stores(redis_url: str, redis_key_prefix: str) -> None:
    a = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix)
    b = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix + "-other")
    try:
        await a.create(new_match())
        await b.create(new_match())
        await a.commit("m1", req(0))
        assert (await b.load("m1")).version == 0
    finally:
        await a.close()
        await b.close()


async def test_redis_reloads_flushed_scripts(
    redis_store: RedisStore, raw_redis: AsyncRedis
) -> None:
    await redis_store.create(new_match())
    await raw_redis.script_flush()
    assert (await redis_store.commit("m1", req(0))).result == "committed"
    assert (await redis_store.load("m1")).version == 1


async def test_redis_waiting_read_returns_earlier_commits_at_once(redis_store: RedisStore) -> None:
    """XREAD from ``<version>-0`` sees a commit that landed before the call: no wait."""
    await redis_store.create(new_match())
    r = req(0)
    assert await redis_store.commit("m1", r) == CommitOutcome("committed", 1)
    found = await asyncio.wait_for(redis_store.events_after("m1", 0, block_ms=120_000), 30)
    assert found == [EventBatch(1, r.events_json)]


async def test_redis_waiting_read_on_a_missing_match_raises_after_the_wait(
    redis_store: RedisStore,
) -> None:
    with pytest.raises(MatchNotFound):
        await redis_store.events_after("nope", 0, block_ms=50)


async def test_redis_resp3_url_works(redis_url: str) -> None:
    sep = "&" if "?" in redis_url else "?"
    store = RedisStore.from_url(f"{redis_url}{sep}protocol=3")
    try:
        assert isinstance(store._blocking, AsyncRedis)
        assert store._blocking.connection_pool.connection_kwargs["protocol"] == 3
        await store.create(new_match())
        await store.claim_seat("m1", ClaimWrite(1, "{}"))
        watcher = asyncio.create_task(store.events_after("m1", 0, block_ms=3000))
        await asyncio.sleep(0.05)
        r = req(0)
        await store.commit("m1", r)
        assert await asyncio.wait_for(watcher, 2.0) == [EventBatch(1, r.events_json)]
        assert (await store.load("m1")).seats == {1: "{}"}
        assert await store.events_after("m1", 0) == [EventBatch(1, r.events_json)]
    finally:
        await store.close()


#: How long a call may take to report an outage: five times the store's default
#: budget of one operation (2 s, retries included). A call that waited for Redis to
#: come back, or retried without end, takes longer; a loaded machine does not.
_OUTAGE_REPORTED_WITHIN_S = 10.0


async def _expect_unavailable(call: Callable[[], Any]) -> None:
    t0 = time.monotonic()
    with pytest.raises(StoreUnavailable):
        await call()
    assert time.monotonic() - t0 < _OUTAGE_REPORTED_WITHIN_S, "an outage must surface"


@pytest.mark.slow
async def test_redis_down_raises_unavailable_then_recovers(redis_server: RedisServer) -> None:
    redis_server.start()
    redis_server.flushall()
    store = RedisStore.from_url(redis_server.url)
    watcher = RedisStore.from_url(redis_server.url)
    try:
        await store.create(new_match())
        await store.commit("m1", req(0))
        # A watcher blocked when Redis dies must get an error, not hang.
        blocked = asyncio.create_task(watcher.events_after("m1", 1, block_ms=10_000))
        await asyncio.sleep(0.1)
        redis_server.stop()
        with pytest.raises(StoreUnavailable):
            await asyncio.wait_for(blocked, 5.0)

        await _expect_unavailable(store.ping)
        await _expect_unavailable(lambda: store.load("m1"))
        await _expect_unavailable(lambda: store.create(new_match("m2")))
        await _expect_unavailable(lambda: store.claim_seat("m1", ClaimWrite(0, "{}")))
        await _expect_unavailable(lambda: store.commit("m1", req(1)))
        await _expect_unavailable(lambda: store.events_after("m1", 0))
        await _expect_unavailable(lambda: store.events_after("m1", 5, block_ms=100))
        await _expect_unavailable(lambda: store.action_log("m1"))

        redis_server.start()  # same port, empty: the server runs without persistence
        await store.ping()
        with pytest.raises(MatchNotFound):
            await store.load("m1")
        await store.create(new_match("m2"))
        assert await store.commit("m2", req(0)) == CommitOutcome("committed", 1)
        assert await store.claim_seat("m2", ClaimWrite(0, "{}"))
        assert (await store.load("m2")).version == 1
        assert [b.version for b in await watcher.events_after("m2", 0, block_ms=100)] == [1]
        woke = asyncio.create_task(watcher.events_after("m2", 1, block_ms=5000))
        await asyncio.sleep(0.05)
        await store.commit("m2", req(1))
        assert [b.version for b in await asyncio.wait_for(woke, 2.0)] == [2]
    finally:
        redis_server.start()
        await store.close()
        await watcher.close()


async def test_redis_unreachable_from_the_start() -> None:
    closed_port = RedisStore.from_url(
        f"redis://127.0.0.1:{_closed_port()}/0", connect_timeout_s=0.5, retries=1
    )
    try:
        await _expect_unavailable(closed_port.ping)
        await _expect_unavailable(lambda: closed_port.create(new_match()))
    finally:
        await closed_port.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- memory: readers following a cursor ---------------------------------------------


async def test_a_follower_sleeps_through_commits_its_cursor_already_covers() -> None:
    """A memory-store reader following a cursor is not woken by a commit its
    caller had another way (a replica's feed publishes its own commits), and is
    by the next one past its cursor, with what follows the cursor then."""
    store = MemoryStore()
    await store.create(new_match())
    have = 0
    follower = asyncio.create_task(store.events_following("m1", lambda: have, 10, 30_000))
    await asyncio.sleep(0.05)  # let it block
    r1 = req(0)
    assert await store.commit("m1", r1) == CommitOutcome("committed", 1)
    have = 1  # the caller had version 1 before the follower could wake
    await asyncio.sleep(0.05)
    assert not follower.done()
    r2 = req(1)
    assert await store.commit("m1", r2) == CommitOutcome("committed", 2)
    assert await asyncio.wait_for(follower, 2.0) == [EventBatch(2, r2.events_json)]


async def test_a_follower_behind_wakes_with_every_version_after_its_cursor() -> None:
    store = MemoryStore()
    await store.create(new_match())
    follower = asyncio.create_task(store.events_following("m1", lambda: 0, 10, 30_000))
    await asyncio.sleep(0.05)
    r = req(0)
    await store.commit("m1", r)
    assert await asyncio.wait_for(follower, 2.0) == [EventBatch(1, r.events_json)]
    assert await store.events_following("m1", lambda: 1, 10, 50) == []
