"""The ladder store's once-only listing, on the memory store and on Redis (whose
script must behave alike): a finished match is listed and counted once, however
many replicas find it over and whichever of them dies halfway.
"""

from __future__ import annotations

import asyncio

import pytest

from senet.store.ladder import LadderStore, MemoryLadderStore
from senet.store.redis_ladder import RedisLadderStore


@pytest.fixture(params=["memory", "redis"])
def ladder_store(request: pytest.FixtureRequest) -> LadderStore:
    if request.param == "memory":
        return MemoryLadderStore()
    return RedisLadderStore(request.getfixturevalue("prefixed_store"))


async def test_a_result_is_listed_and_counted_once_per_marker(ladder_store: LadderStore) -> None:
    assert await ladder_store.push_once("listed:s0", "recent", "m0", 10, counter="played")
    assert not await ladder_store.push_once("listed:s0", "recent", "m0 again", 10, counter="played")
    assert await ladder_store.newest("recent", 10) == ["m0"]
    assert await ladder_store.read("played") == "1"
    assert await ladder_store.push_once("listed:s1", "recent", "m1", 10, counter="played")
    assert await ladder_store.newest("recent", 10) == ["m1", "m0"]
    assert await ladder_store.read("played") == "2"


async def test_the_list_keeps_the_newest_and_a_counter_is_optional(
    ladder_store: LadderStore,
) -> None:
    for i in range(5):
        assert await ladder_store.push_once(f"recorded:{i}", "results", f"g{i}", 3)
    assert await ladder_store.newest("results", 10) == ["g4", "g3", "g2"]
    assert await ladder_store.read("played") is None


async def test_replicas_listing_the_same_result_at_once_list_it_once(
    ladder_store: LadderStore,
) -> None:
    done = await asyncio.gather(
        *(ladder_store.push_once("listed:s", "recent", f"by {i}", 10, "played") for i in range(8))
    )
    assert sorted(done) == [False] * 7 + [True]
    assert len(await ladder_store.newest("recent", 10)) == 1
    assert await ladder_store.read("played") == "1"
