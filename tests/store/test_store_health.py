"""The store's ping answers as its calls would (what the server's health reports).

An operator's trial gave a Redis without a password a URL with one: the health
check said SERVING while every match call failed (redis-py's own client gets by
with a refused AUTH, the multiplexed connection the calls take does not).
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import pytest

from senet.store import StoreUnavailable
from senet.store.redis_store import RedisStore


def _with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    netloc = f":{password}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


async def test_a_password_the_redis_refuses_fails_the_ping_as_it_fails_the_calls(
    redis_url: str,
) -> None:
    store = RedisStore.from_url(_with_password(redis_url, "not-its-password"), key_prefix="h1")
    try:
        with pytest.raises(StoreUnavailable) as calls:
            await store.load("m1")
        with pytest.raises(StoreUnavailable) as ping:
            await store.ping()
        assert "AUTH" in str(calls.value) and "AUTH" in str(ping.value)
    finally:
        await store.close()


async def test_the_ping_of_a_store_its_calls_reach_passes(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url, key_prefix="h2")
    try:
        await store.ping()
        await store.ping()  # over the connection the first one opened
    finally:
        await store.close()
