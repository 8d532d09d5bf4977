"""Bot workers end to end: an in-process server, two workers, one in-test player.

Checks that bot seats created through CreateMatch get played, that two workers
never hold one seat at once, and that when a worker dies (its task cancelled,
nothing released) the other takes its seats over once the leases expire, the
match still finishes, and the dead worker's tokens are refused.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator

import grpc
import pytest

from senet.bots.worker import BotWorker, SeatKey
from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store import MatchStore
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import match_pb2, match_service_pb2

ADMIN = "test-admin-key"
LEASE_MS = 300


@pytest.fixture(params=["memory", "redis"])
async def server(request: pytest.FixtureRequest) -> AsyncIterator[RunningServer]:
    """A server on port 0 with an admin key, over the in-memory store or Redis."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    store: MatchStore
    if request.param == "memory":
        store = MemoryStore()
    else:
        url = request.getfixturevalue("redis_url")
        store = RedisStore.from_url(url, key_prefix=prefix)
    settings = Settings(port=0, log_json=False, key_prefix=prefix, admin_key=ADMIN)
    running = await create_server(settings, store, health_interval_s=0.2)
    try:
        yield running
    finally:
        await asyncio.wait_for(running.stop(), 10)


async def _wait_for(condition: object, timeout_s: float, what: str) -> None:
    assert callable(condition)
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@pytest.mark.slow
async def test_workers_share_seats_and_take_over_from_a_dead_one(server: RunningServer) -> None:
    target = f"127.0.0.1:{server.port}"
    async with (
        SenetClient(target, admin_key=ADMIN) as admin,
        SenetClient(target) as player,
    ):
        match_id = await admin.create_match("mykerinos", 1, seed=7, bots=["random"] * 3)
        me = await player.join(match_id, "tester")
        assert me.seat == 0
        rng = random.Random(1)

        async def decide(turn: match_service_pb2.YourTurn) -> str:
            await asyncio.sleep(0.03)  # slow enough that the kill lands mid-match
            return rng.choice(list(turn.actions)).notation

        human = asyncio.create_task(me.play(decide))
        a = BotWorker(target, admin_key=ADMIN, capacity=2, lease_ms=LEASE_MS, worker_id="a")
        b = BotWorker(target, admin_key=ADMIN, capacity=3, lease_ms=LEASE_MS, worker_id="b")
        overlaps: list[set[SeatKey]] = []

        async def watch_overlap() -> None:
            while True:
                both = set(a.playing) & set(b.playing)
                if both:
                    overlaps.append(both)
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch_overlap())
        task_a = asyncio.create_task(a.run())
        await _wait_for(lambda: len(a.playing) == 2, 10, "worker a to lease two seats")
        task_b = asyncio.create_task(b.run())
        await _wait_for(lambda: len(b.playing) == 1, 10, "worker b to lease the third seat")

        # Let the match get going, then kill a: no release, its leases just expire.
        await _wait_for(
            lambda: (b.tokens and len(a.acquired) == 2) and not human.done(), 10, "play"
        )
        await asyncio.sleep(0.5)
        assert not human.done(), "the match ended before the kill; slow the player down"
        a_seats = set(a.playing)
        old_tokens = {key: a.tokens[key] for key in a_seats}
        task_a.cancel()
        await asyncio.gather(task_a, return_exceptions=True)
        await _wait_for(lambda: a_seats <= set(b.playing), 10, "worker b to take over")

        for (mid, seat), token in old_tokens.items():
            with pytest.raises(SenetRpcError) as caught:
                await player.seat(mid, seat, token).submit("x", request_id="old")
            assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED
            with pytest.raises(SenetRpcError) as caught:
                await player.get(mid, token)
            assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED

        await asyncio.wait_for(human, 40)
        final = await admin.get(match_id)
        assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
        # b releases the finished match's seats; nothing is left to acquire.
        await _wait_for(lambda: not b.playing, 5, "b to finish its seats")
        task_b.cancel()
        watcher.cancel()
        await asyncio.gather(task_b, watcher, return_exceptions=True)
        assert overlaps == []
        assert sorted(set(a.acquired) | set(b.acquired)) == [(match_id, s) for s in (1, 2, 3)]
