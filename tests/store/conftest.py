"""Fixtures shared by the store tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis as AsyncRedis

from senet.store.redis_store import RedisStore


@pytest.fixture
async def raw_redis(redis_url: str) -> AsyncIterator[AsyncRedis]:
    """An ordinary redis-py client to the test server, beside the store under test."""
    client = AsyncRedis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def prefixed_store(redis_url: str, redis_key_prefix: str) -> AsyncIterator[RedisStore]:
    """A match store on the suite's Redis under this test's own key prefix (the
    clients the player and ladder stores run on), closed after the test."""
    store = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix)
    try:
        yield store
    finally:
        await store.close()
