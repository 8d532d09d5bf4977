"""The server tells whether the match store keeps matches across a restart of
the store: a warning at start, the ``senet.durability`` health service, and an
error when a store without persistence restarted (its matches are gone)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
import redis
from grpc_health.v1 import health_pb2
from grpc_health.v1._async import HealthServicer

from senet.service.durability import DURABILITY_SERVICE, DurabilityWatch
from senet.store import Durability, MatchStore
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from tests.conftest import RedisServer
from tests.service.conftest import Deployment, health

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
UNKNOWN = health_pb2.HealthCheckResponse.UNKNOWN


@pytest.fixture
async def redis_store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore.from_url(redis_url)
    try:
        yield store
    finally:
        await store.close()


def _set_appendonly(url: str, on: bool) -> None:
    with redis.Redis.from_url(url) as client:
        client.config_set("appendonly", "yes" if on else "no")


async def test_a_redis_without_persistence_is_warned_about_at_start(
    redis_url: str, redis_key_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    deployment = Deployment("redis", redis_url, redis_key_prefix)
    try:
        with caplog.at_level(logging.INFO, logger="senet.server"):
            server = await deployment.start()
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert any("keeps nothing on disk" in r.getMessage() for r in warnings)
        assert await health(deployment.channel(server), DURABILITY_SERVICE) == NOT_SERVING
        assert await health(deployment.channel(server)) == SERVING  # still serves
    finally:
        await deployment.close()


async def test_turning_on_the_append_only_file_is_noticed(
    redis_url: str, redis_store: RedisStore
) -> None:
    checker = HealthServicer()
    watch = DurabilityWatch(redis_store, checker)
    found = await watch.check()
    assert found is not None and found.persistent is False and found.detail == "none"
    _set_appendonly(redis_url, True)
    try:
        found = await watch.check()
        assert found is not None and found.persistent is True and found.detail == "appendonly"
        reply = await checker.Check(health_pb2.HealthCheckRequest(service=DURABILITY_SERVICE), None)
        assert reply.status == SERVING
    finally:
        _set_appendonly(redis_url, False)


async def test_snapshots_count_as_persistence(redis_url: str, redis_store: RedisStore) -> None:
    with redis.Redis.from_url(redis_url) as client:
        client.config_set("save", "3600 1")
        try:
            found = await redis_store.durability()
        finally:
            client.config_set("save", "")
    assert found.persistent is True and found.detail == "RDB snapshots 3600 1"


async def test_a_restart_of_a_store_without_persistence_is_an_error(
    redis_server: RedisServer, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = RedisStore.from_url(redis_url)
    watch = DurabilityWatch(store, HealthServicer(), timeout_s=5.0)
    try:
        before = await watch.check()
        redis_server.stop()
        redis_server.start()
        with caplog.at_level(logging.ERROR, logger="senet.server"):
            after = None
            for _ in range(50):  # the client reconnects to the new process
                after = await watch.check()
                if after is not None:
                    break
        assert before is not None and after is not None and before.instance != after.instance
        assert any("every match it held is lost" in r.getMessage() for r in caplog.records)
    finally:
        await store.close()


@pytest.mark.slow
async def test_every_cluster_primary_is_asked(redis_cluster_url: str) -> None:
    store = RedisStore.from_url(redis_cluster_url)
    try:
        found = await store.durability()
    finally:
        await store.close()
    assert found.persistent is False
    assert found.detail.count("none") == len(found.instance.split(",")) >= 3


class _Unsaid(MemoryStore):
    async def durability(self) -> Durability:
        return Durability(None, "unknown (CONFIG GET save refused)", "x")


@pytest.mark.parametrize(
    ("store", "status", "level"),
    [(MemoryStore(), NOT_SERVING, logging.INFO), (_Unsaid(), UNKNOWN, logging.WARNING)],
    ids=["embedded", "unknown"],
)
async def test_what_is_reported_for_other_stores(
    store: MatchStore, status: int, level: int, caplog: pytest.LogCaptureFixture
) -> None:
    checker = HealthServicer()
    with caplog.at_level(logging.INFO, logger="senet.server"):
        await DurabilityWatch(store, checker).check()
    reply = await checker.Check(health_pb2.HealthCheckRequest(service=DURABILITY_SERVICE), None)
    assert reply.status == status
    assert [r.levelno for r in caplog.records] == [level]
