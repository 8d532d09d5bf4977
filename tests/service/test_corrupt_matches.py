"""A match whose stored values are garbage: asked for by id it answers INTERNAL with
reason CORRUPT_STATE, and the lobby leaves it out (logged and counted) while
listing every other match, on the embedded store and on Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from prometheus_client import REGISTRY
from redis.asyncio import Redis as AsyncRedis

from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Deployment, expect_error, seated_match

Code = grpc.StatusCode

#: Case -> the stored value overwritten, the garbage written into it, and whether
#: the lobby can still list the match (it never reads the snapshot).
GARBAGE: dict[str, tuple[str, str, bool]] = {
    "version": ("version", "x1", False),
    "negative version": ("version", "-3", False),
    "status": ("status", "bogus", False),
    "snapshot": ("snapshot", "{not json", True),
    "snapshot shape": ("snapshot", '{"state": 3}', True),
    "meta": ("meta", "garbage", False),
    "meta shape": ("meta", '{"game_id": 7}', False),
    "seat claim": ("seat", "[1, 2]", False),
}


async def write_garbage(deployment: Deployment, match_id: str, target: str, value: str) -> None:
    """Overwrite one stored value of ``match_id`` (``target``: version, status,
    snapshot, meta, or seat 0's claim) behind the server's back."""
    store = deployment.store()
    if isinstance(store, MemoryStore):
        match = store._matches[match_id]
        if target == "seat":
            match.seats[0] = value
        else:
            attribute = {"snapshot": "snapshot_json", "meta": "meta_json"}.get(target, target)
            setattr(match, attribute, value)
        return
    assert isinstance(store, RedisStore)
    keys = store.keys(match_id)
    raw = AsyncRedis.from_url(deployment.redis_url, decode_responses=True)
    try:
        if target == "meta":
            await raw.set(keys.meta, value, keepttl=True)
        elif target == "seat":
            await raw.hset(keys.seats, "0", value)
        else:
            await raw.hset(keys.head, target, value)
    finally:
        await raw.aclose()
        await store.close()


@pytest.fixture
async def replicas(deployment: Deployment) -> AsyncIterator[tuple[Client, Client]]:
    """A client of the replica that makes matches, and one of a replica that only
    reads them (so that no cached head hides the stored values)."""
    maker = await deployment.start()
    reader = await deployment.start()
    yield deployment.client(maker), deployment.client(reader)


def _unreadable_count() -> float:
    return REGISTRY.get_sample_value("senet_lobby_unreadable_total") or 0.0


async def _listed(client: Client) -> list[str]:
    page = await client._call(client.stub.ListMatches, ms.ListMatchesRequest(page_size=200))
    return [m.match_id for m in page.matches]


@pytest.mark.parametrize("what", list(GARBAGE))
async def test_a_corrupt_match_answers_corrupt_state_and_leaves_the_lobby_working(
    deployment: Deployment, replicas: tuple[Client, Client], what: str
) -> None:
    maker, reader = replicas
    healthy = await seated_match(maker)
    corrupt = await seated_match(maker)
    target, value, still_listed = GARBAGE[what]
    await write_garbage(deployment, corrupt.match_id, target, value)
    before = _unreadable_count()

    listed = await _listed(reader)

    assert healthy.match_id in listed
    assert (corrupt.match_id in listed) == still_listed
    assert _unreadable_count() == before + (0 if still_listed else 1)
    failure = await expect_error(reader.get(corrupt.match_id), Code.INTERNAL, "CORRUPT_STATE")
    assert failure.message == "stored match data is corrupt"
    await reader.get(healthy.match_id)
