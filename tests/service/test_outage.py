"""Redis going away mid-match, and coming back.

The test runs its own ``redis-server`` with an append-only file fsynced on every
write (``DurableRedis``), kills it mid-match, and starts it again on the same port
and directory: the match must be exactly where it was, and continue to the end.
While Redis is down every call fails UNAVAILABLE / STORE_UNAVAILABLE and the
standard health service says NOT_SERVING; once it is back, SERVING again.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import grpc
import pytest
from grpc_health.v1 import health_pb2

from senet.service.server import LIVENESS_SERVICE, RunningServer, create_server
from senet.service.settings import Settings
from senet.store.redis_store import RedisStore
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Code,
    DurableRedis,
    check_export,
    current_seat,
    expect_error,
    failure_of,
    health,
    play_random,
    seated_match,
    wait_for_health,
)

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
DOWN = (Code.UNAVAILABLE, "STORE_UNAVAILABLE")


@pytest.fixture
async def durable_server(
    durable_redis: DurableRedis, redis_key_prefix: str
) -> AsyncIterator[RunningServer]:
    settings = Settings(port=0, log_json=False, key_prefix=redis_key_prefix, heartbeat_s=0.5)
    store = RedisStore.from_url(durable_redis.url, key_prefix=redis_key_prefix)
    server = await create_server(settings, store, health_interval_s=0.1)
    try:
        yield server
    finally:
        await server.stop()


@pytest.mark.slow
async def test_redis_outage_is_unavailable_then_the_match_continues(
    durable_redis: DurableRedis, durable_server: RunningServer
) -> None:
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{durable_server.port}")
    try:
        client = Client(channel)
        match = await seated_match(client, 3)
        mid = match.match_id
        rng = random.Random(77)
        played = await play_random([match], rng, count=12)
        await wait_for_health(channel, SERVING)
        watcher = match.spectator.watch(mid, from_version=played.version)
        mover = current_seat(played.responses[played.version])
        assert mover is not None
        player = match.seats[mover]
        play = player.play()
        await play.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=mid)))
        snapshot, prompt = await player.read(play), await player.read(play)
        assert snapshot is not None and snapshot.WhichOneof("message") == "snapshot"
        assert prompt is not None and prompt.WhichOneof("message") == "your_turn"

        durable_redis.stop()
        # A move sent on an open PlayMatch stream is refused, and the stream ends
        # UNAVAILABLE (the client reconnects): it never hangs.
        choice = prompt.your_turn.actions[0]
        submit = ms.SubmitActionRequest(notation=choice.notation, request_id="outage")
        await play.write(ms.PlayMatchRequest(submit=submit))
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            while (reply := await player.read(play)) is not None:
                if reply.WhichOneof("message") == "error":
                    assert (reply.error.code, reply.error.reason) == (14, DOWN[1])
        assert failure_of(ended.value).code == Code.UNAVAILABLE
        await expect_error(match.spectator.get(mid), *DOWN)
        await expect_error(match.seats[mover].legal(mid), *DOWN)
        await expect_error(match.seats[mover].submit(mid, "pass"), *DOWN)
        await expect_error(match.seats[mover].export(mid), *DOWN)
        await expect_error(client.create(2), *DOWN)
        await expect_error(client.join(mid), *DOWN)
        await expect_error(match.spectator.watch(mid).read(), *DOWN)
        took = await wait_for_health(channel, NOT_SERVING, within_s=5)
        # Liveness stays SERVING: restarting replicas would not bring Redis back.
        assert await health(channel, LIVENESS_SERVICE) == SERVING
        assert took < 5

        durable_redis.start()  # same port and directory: the AOF brings the data back
        await wait_for_health(channel, SERVING, within_s=10)
        after = await match.spectator.get(mid)
        assert after.match.version == played.version  # nothing lost, nothing half-written
        assert current_seat(after.match) == mover
        await play_random([match], rng, played=played)  # to the end
        final = await match.spectator.get(mid)
        assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
        check_export(await match.spectator.export(mid), final, match.commitment)

        # The watcher opened before the outage either failed UNAVAILABLE (and the
        # client resumes from its last version) or carried on; never a gap.
        versions = []
        try:
            while (message := await match.spectator.read(watcher, timeout=30)) is not None:
                if message.WhichOneof("message") == "update":
                    versions.append(message.update.version)
        except grpc.aio.AioRpcError as error:
            assert failure_of(error).code == Code.UNAVAILABLE, failure_of(error)
        resume_from = versions[-1] if versions else played.version
        assert versions == list(range(played.version + 1, resume_from + 1))
        resumed = match.spectator.watch(mid, from_version=resume_from)
        while (message := await match.spectator.read(resumed)) is not None:
            if message.WhichOneof("message") == "update":
                versions.append(message.update.version)
        assert versions == list(range(played.version + 1, final.match.version + 1))
    finally:
        await asyncio.wait_for(channel.close(None), 5)
