"""BotService hands out seat tokens, so it is never open: it needs the worker key
(or the admin key), on a server with or without an admin key."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from senet.cli.beside import embedded_bot_workers
from senet.client.client import SenetClient
from senet.service.server import create_server
from senet.service.settings import Settings
from senet.v1 import bot_service_pb2, bot_service_pb2_grpc, match_pb2
from tests.service.conftest import WORKER_KEY, Client, Code, Deployment, expect_error

BOT = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random")


def _acquire(
    client: Client, *keys: tuple[str, str]
) -> Awaitable[bot_service_pb2.AcquireBotDecisionsResponse]:
    stub = bot_service_pb2_grpc.BotServiceStub(client.channel)
    request = bot_service_pb2.AcquireBotDecisionsRequest(worker_id="w1", capacity=4, lease_ms=2000)
    return stub.AcquireBotDecisions(request, metadata=keys)


async def test_an_open_server_lets_anyone_create_but_only_workers_lease_bot_seats(
    deployment: Deployment,
) -> None:
    server = await deployment.start()  # no admin key; worker key WORKER_KEY
    anyone = deployment.client(server)
    await anyone.create([BOT, BOT])  # the open mode: creating needs no key
    for keys in ((), (("x-senet-worker-key", "guess"),), (("x-senet-admin-key", "any"),)):
        await expect_error(_acquire(anyone, *keys), Code.PERMISSION_DENIED, "WORKER_KEY_REQUIRED")
    leased = await _acquire(anyone, ("x-senet-worker-key", WORKER_KEY))
    assert len(leased.decisions) == 1


async def test_without_a_worker_key_only_the_admin_key_leases(deployment: Deployment) -> None:
    server = await deployment.start(admin_key="s3cret", worker_key="")
    caller = deployment.client(server)
    await expect_error(
        _acquire(caller, ("x-senet-worker-key", "")), Code.PERMISSION_DENIED, "WORKER_KEY_REQUIRED"
    )
    await _acquire(caller, ("x-senet-admin-key", "s3cret"))
    open_server = await deployment.start(worker_key="")
    await expect_error(
        _acquire(deployment.client(open_server)), Code.PERMISSION_DENIED, "WORKER_KEY_REQUIRED"
    )


@pytest.mark.slow
async def test_embedded_workers_get_a_key_drawn_in_process() -> None:
    settings = Settings(port=0, log_json=False, embedded_bot_workers=1)
    running = await create_server(settings)
    assert len(running.settings.worker_key) >= 32  # nobody outside was told it
    stop = asyncio.Event()
    workers = asyncio.create_task(embedded_bot_workers(1)(running, stop))
    try:
        async with SenetClient(f"127.0.0.1:{running.port}") as client:
            match_id = await client.create_match("mykerinos", 0, seed=5, bots=["random"] * 2)
            async with asyncio.timeout(60):
                async for _ in client.watch(match_id):
                    pass  # ends after the finishing update: the workers played it
        stop.set()
        await asyncio.wait_for(workers, 10)
    finally:
        workers.cancel()
        await running.stop()
