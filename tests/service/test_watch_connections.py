"""Watching many matches costs a replica a bounded number of Redis connections:
watched matches share reader tasks that wait on many streams with one XREAD
(senet.service.feeds), instead of one blocking connection per watched match.
"""

from __future__ import annotations

import asyncio

import grpc
import pytest
import redis.asyncio as aioredis

from senet.service.matches import Caller
from senet.service.records import SeatPlan
from senet.store.redis_store import RedisStore
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Deployment
from tests.sync import eventually

MATCHES = 2000
#: "A few dozen" Redis connections per replica, at most.
MAX_CONNECTIONS = 36
Watch = grpc.aio.UnaryStreamCall[ms.WatchMatchRequest, ms.WatchMatchResponse]


async def _next(call: Watch) -> ms.WatchMatchResponse:
    message = await call.read()
    assert isinstance(message, ms.WatchMatchResponse)
    return message


def _connections(store: RedisStore) -> int:
    """Connections the store's clients hold (in use or idle in their pools)."""
    total = 0
    for client in (store._client, store._blocking):
        assert isinstance(client, aioredis.Redis)
        pool = client.connection_pool
        total += len(pool._in_use_connections) + len(pool._available_connections)
    return total


@pytest.mark.slow
async def test_2000_watch_streams_use_a_few_dozen_redis_connections(
    redis_url: str, redis_key_prefix: str
) -> None:
    deployment = Deployment("redis", redis_url, redis_key_prefix)
    try:
        server = await deployment.start(client_streams=0, heartbeat_s=30)
        store = server.store
        assert isinstance(store, RedisStore)
        service = server.servicer.service
        plans = [SeatPlan("open"), SeatPlan("open")]
        match_ids: list[str] = []
        for _ in range(MATCHES // 100):
            created = await asyncio.gather(
                *(service.create_match(Caller(), "pebbles", {}, plans, None) for _ in range(100))
            )
            match_ids += [c.summary.match_id for c in created]
        client = deployment.client(server)
        calls: list[Watch] = []
        for start in range(0, MATCHES, 50):  # in steps: gRPC cancels bursts of new streams
            opened = [
                client.stub.WatchMatch(ms.WatchMatchRequest(match_id=m))
                for m in match_ids[start : start + 50]
            ]
            snapshots = await asyncio.gather(*(_next(c) for c in opened))
            assert all(s.HasField("snapshot") for s in snapshots)
            calls += opened
        # A stream joins its match's feed once its snapshot is written, which
        # may be well after the snapshot reached this client on a loaded machine
        # (the suite's other workers share its cores).
        await eventually(lambda: service.feeds.watched_matches == MATCHES, timeout_s=120)
        ended = [await call.code() for call in calls if call.done()]
        assert service.feeds.watched_matches == MATCHES, f"streams ended: {ended}"
        assert service.feeds.reader_tasks <= MATCHES // store.multi_read_limit + 1
        assert _connections(store) <= MAX_CONNECTIONS

        # Every watcher still gets its match's commits, whichever group reads it.
        for index in (0, MATCHES // 2, MATCHES - 1):
            match_id = match_ids[index]
            tokens = [(await service.join(Caller(), match_id, s, f"p{s}"))[1] for s in (0, 1)]
            seat = (await service.get(Caller(), match_id)).summary.current_seat
            assert seat is not None
            me = Caller(tokens[seat])
            legal = await service.legal_actions(me, match_id)
            notation = str(legal.actions[0].notation)
            began = await asyncio.wait_for(_next(calls[index]), 10)
            assert began.snapshot.match.started  # the match waited when the watch began
            await service.submit(me, match_id, notation, None, "first", None, lambda o: o)
            update = await asyncio.wait_for(_next(calls[index]), 10)
            assert update.update.version == 1
        assert _connections(store) <= MAX_CONNECTIONS
        for call in calls:
            call.cancel()
    finally:
        await deployment.close()
