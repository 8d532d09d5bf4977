"""Fixtures shared by the store tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis as AsyncRedis


@pytest.fixture
async def raw_redis(redis_url: str) -> AsyncIterator[AsyncRedis]:
    """An ordinary redis-py client to the test server, beside the store under test."""
    client = AsyncRedis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        await client.aclose()
