"""A hung Redis fails store calls within their time budget (issue 15, finding 2).

The stalls are ``DEBUG SLEEP`` on the suite's own Redis: the server keeps its
connections open and answers nothing, as a stuck fork or a paused VM would. Every
test asserts that the call failed while Redis was still asleep, not how fast.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import pytest
from redis.asyncio import Redis as AsyncRedis

from senet.store import MatchExists, NewMatch, StoreUnavailable
from senet.store.redis_mux import MuxConnection
from senet.store.redis_store import RedisStore

#: Budget of the stores under test, and how long Redis sleeps: far longer.
BUDGET_S = 0.3
STALL_S = 2.0


@pytest.fixture
async def stalls(redis_url: str) -> AsyncIterator[Callable[[float], Awaitable[asyncio.Task[Any]]]]:
    """Starts ``DEBUG SLEEP <s>`` (on its own connection) and returns its task once
    Redis is asleep; every stall is over before the test's teardown."""
    sleepers: list[asyncio.Task[Any]] = []
    client = AsyncRedis.from_url(redis_url, decode_responses=True)

    async def stall(seconds: float) -> asyncio.Task[Any]:
        await client.ping()  # connected, so the DEBUG leaves at once
        task = asyncio.create_task(cast(Any, client).execute_command("DEBUG", "SLEEP", seconds))
        sleepers.append(task)
        await asyncio.sleep(0.1)  # on the wire and being slept on
        return task

    try:
        yield stall
    finally:
        for task in sleepers:
            await task
        await client.aclose()


def _store(redis_url: str, **options: Any) -> RedisStore:
    store = RedisStore.from_url(redis_url, socket_timeout_s=BUDGET_S, key_prefix="budget")
    store._multiplex = options.get("multiplex", True)
    return store


async def _new_match(store: RedisStore, match_id: str) -> None:
    await store.create(NewMatch(match_id, '{"m":1}', '{"s":1}'))


@pytest.mark.slow
@pytest.mark.parametrize("multiplex", [True, False], ids=["muxed", "redis-py"])
async def test_a_load_during_a_stall_is_unavailable_before_redis_wakes(
    redis_url: str, stalls: Callable[[float], Awaitable[asyncio.Task[Any]]], multiplex: bool
) -> None:
    store = _store(redis_url, multiplex=multiplex)
    try:
        await _new_match(store, "m1")
        await store.load("m1")  # connections open before the stall
        sleeper = await stalls(STALL_S)
        with pytest.raises(StoreUnavailable):
            await store.load("m1")
        assert not sleeper.done(), "the call waited the stall out"
        await sleeper
        assert (await store.load("m1")).version == 0  # and works once Redis is back
    finally:
        await store.close()


@pytest.mark.slow
async def test_a_blocking_read_during_a_stall_is_unavailable_before_redis_wakes(
    redis_url: str, stalls: Callable[[float], Awaitable[asyncio.Task[Any]]]
) -> None:
    store = _store(redis_url)
    try:
        await _new_match(store, "m1")
        sleeper = await stalls(STALL_S)
        with pytest.raises(StoreUnavailable):
            await store.events_after("m1", 0, block_ms=100)
        assert not sleeper.done(), "the read waited the stall out"
    finally:
        await store.close()


@pytest.mark.slow
async def test_ping_during_a_stall_is_unavailable_before_redis_wakes(
    redis_url: str, stalls: Callable[[float], Awaitable[asyncio.Task[Any]]]
) -> None:
    store = _store(redis_url)
    try:
        await store.ping()
        sleeper = await stalls(STALL_S)
        with pytest.raises(StoreUnavailable):
            await store.ping()
        assert not sleeper.done()
    finally:
        await store.close()


@pytest.mark.slow
async def test_a_create_that_ran_after_its_caller_gave_up_reports_match_exists(
    redis_url: str, stalls: Callable[[float], Awaitable[asyncio.Task[Any]]]
) -> None:
    """The first attempt's script runs once Redis wakes; the retry must be told
    "it exists" (MatchExists), which the service answers with that match."""
    store = _store(redis_url)
    try:
        await _new_match(store, "m0")  # the pipelined connection is open
        sleeper = await stalls(STALL_S)
        with pytest.raises(StoreUnavailable):
            await _new_match(store, "m1")
        await sleeper
        with pytest.raises(MatchExists):
            await _new_match(store, "m1")
        assert (await store.load("m1")).meta_json == '{"m":1}'
    finally:
        await store.close()


@pytest.mark.slow
async def test_an_abandoned_reply_is_never_handed_to_a_later_command(
    redis_url: str, raw_redis: AsyncRedis, stalls: Callable[[float], Awaitable[asyncio.Task[Any]]]
) -> None:
    """A caller that stops waiting keeps its place in the pipeline: the reply that
    arrives for it is dropped, and the next command gets its own reply."""
    await raw_redis.set("budget:a", "A")
    await raw_redis.set("budget:b", "B")
    store = _store(redis_url)
    mux = store._mux_for("budget:a")
    assert isinstance(mux, MuxConnection)
    mux._timeout_s = 3 * STALL_S  # the connection outlives the stall
    try:
        assert await mux.execute("GET", "budget:a") == "A"
        sleeper = await stalls(STALL_S)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(mux.execute("GET", "budget:a"), BUDGET_S)
        late = mux.send("GET", "budget:b")
        await sleeper
        assert await late == "B"
        assert await mux.execute("GET", "budget:a") == "A"
    finally:
        await store.close()
