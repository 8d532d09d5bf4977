"""Full matches through two server replicas over a three-master Redis Cluster.

Matches are created until every master owns some (a match lives in the slot of
its id), then all of them are played at once: half by in-test players whose
actions alternate between the replicas, half by a bot worker leasing seats from
the bot queue (itself one slot on one master). Every export must replay to the
final position, and the match keys must be on all three masters.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import grpc
import pytest

from senet.bots.worker import BotWorker
from senet.client.client import SenetClient
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store.redis_store import RedisStore
from senet.v1 import match_pb2, match_service_pb2
from tests.cluster import LocalCluster
from tests.conftest import STORE_BUDGET_S
from tests.service.conftest import Client, Seated, check_export, on, play_random, seated_match

ADMIN = "cluster-admin"
PER_MASTER = 2  # matches each master must own before play starts


@pytest.fixture
async def replicas(redis_cluster_url: str) -> AsyncIterator[list[RunningServer]]:
    """Two servers, each with its own cluster clients, as two replicas would have."""
    servers = []
    try:
        for _ in range(2):
            settings = Settings(port=0, log_json=False, admin_key=ADMIN, heartbeat_s=1.0)
            store = RedisStore.from_url(redis_cluster_url, socket_timeout_s=STORE_BUDGET_S)
            servers.append(await create_server(settings, store, health_interval_s=0.2))
        yield servers
    finally:
        for server in servers:
            await asyncio.wait_for(server.stop(), 10)


@pytest.mark.slow
async def test_matches_on_every_master_play_to_the_end(
    replicas: list[RunningServer], redis_cluster: LocalCluster
) -> None:
    targets = [f"127.0.0.1:{r.port}" for r in replicas]
    channels = [grpc.aio.insecure_channel(t) for t in targets]
    clients = [Client(c, admin_key=ADMIN) for c in channels]
    store = replicas[0].store
    assert isinstance(store, RedisStore)
    seated: list[Seated] = []
    by_master: dict[int, int] = dict.fromkeys(redis_cluster.ports, 0)
    bot_matches: list[str] = []
    try:
        async with SenetClient(targets[1], admin_key=ADMIN) as admin:
            # Hand-played and bot-played matches alternate until each master owns
            # 2 * PER_MASTER matches (bounded: ids are random, so owners are too).
            for attempt in range(200):
                if all(n >= 2 * PER_MASTER for n in by_master.values()):
                    break
                if attempt % 2:
                    match_id = await admin.create_match("mykerinos", 0, bots=["random"] * 2)
                    bot_matches.append(match_id)
                else:
                    seated.append(await seated_match(clients[attempt // 2 % 2], 2))
                    match_id = seated[-1].match_id
                (owner,) = redis_cluster.masters_holding([store.keys(match_id).head])
                by_master[owner] += 1
            assert min(by_master.values()) >= 2 * PER_MASTER, by_master

        worker = BotWorker(targets[0], admin_key=ADMIN, capacity=64, lease_ms=3000)
        stop = asyncio.Event()
        bots = asyncio.create_task(worker.run(stop))
        await asyncio.gather(
            *(play_random([s, on(clients[1], s)], random.Random(i)) for i, s in enumerate(seated))
        )
        async with SenetClient(targets, admin_key=ADMIN) as watcher:
            for match_id in bot_matches:
                async for message in watcher.watch(match_id):
                    del message  # the stream ends after the finishing update
        stop.set()
        await bots
        everything = [*(s.match_id for s in seated), *bot_matches]
        for match_id in everything:
            final = await clients[1].get(match_id)
            assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
            check_export(await clients[0].export(match_id), final, final.match.seed_commitment)
        heads = [store.keys(m).head for m in everything]
        assert redis_cluster.masters_holding(heads) == set(redis_cluster.ports)
    finally:
        for channel in channels:
            await channel.close(None)


@pytest.mark.slow
async def test_hosting_on_the_cluster_clocks_leaving_and_a_capacity_1_worker(
    replicas: list[RunningServer],
) -> None:
    """Issue 14 on Redis Cluster: bot decisions, clocks and zombie moves live in
    their own slots, apart from the matches; each replica enforces them."""
    a, b = (f"127.0.0.1:{r.port}" for r in replicas)
    async with SenetClient(a, admin_key=ADMIN) as via_a, SenetClient(b, admin_key=ADMIN) as via_b:
        clocked = await via_a.create_match(
            "mykerinos", 2, seed=1, time_control=match_pb2.TimeControl(decision_ms=30)
        )
        await via_a.join(clocked, "Ann")
        await via_b.join(clocked, "Bob")
        resigning = await via_b.create_match("mykerinos", 2, seed=2)
        ann = await via_b.join(resigning, "Ann")
        bob = await via_a.join(resigning, "Bob")
        assert (await ann.leave()).outcome > 0
        bot_match = await via_a.create_match(
            "mykerinos",
            [match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="greedy")],
            bots=["random"],
        )
        worker = BotWorker(b, admin_key=ADMIN, capacity=1, lease_ms=2000)
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(stop))
        rng = random.Random(3)

        async def bob_plays(turn: match_service_pb2.YourTurn) -> str:
            return rng.choice(list(turn.actions)).notation

        try:
            async with asyncio.timeout(120):
                await bob.play(bob_plays)
                for match_id in (clocked, bot_match):
                    async for _ in via_b.watch(match_id):
                        pass
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)
        for match_id in (clocked, resigning, bot_match):
            final = (await via_a.get(match_id)).match
            assert final.status == match_pb2.MATCH_STATUS_FINISHED
        assert list((await via_a.get(resigning)).match.places) == [2, 1]
