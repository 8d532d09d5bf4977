"""Per-client quotas (senet.service.quotas): matches created per minute, unary
calls, streams per client and per seat; each refusal is RESOURCE_EXHAUSTED with
reason QUOTA_EXCEEDED, the quota named, and a RetryInfo delay."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Code, Deployment, expect_error


async def test_matches_created_per_client_per_minute(deployment: Deployment) -> None:
    server = await deployment.start(client_creates_per_min=3)
    client = deployment.client(server)
    for _ in range(3):
        await client.create(2)
    failure = await expect_error(client.create(2), Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    assert failure.facts == {"quota": "client_creates_per_min", "limit": "3"}
    assert failure.retry_after_s is not None and 0 < failure.retry_after_s <= 20


async def test_unary_calls_per_client(deployment: Deployment) -> None:
    server = await deployment.start(client_calls_per_s=0.01, client_calls_burst=5)
    client = deployment.client(server)
    match_id = (await client.create(2)).match_id
    for _ in range(4):
        await client.get(match_id)
    failure = await expect_error(client.get(match_id), Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    assert failure.facts["quota"] == "client_calls_per_s"
    assert failure.retry_after_s is not None and failure.retry_after_s > 0


async def _first_message(call: grpc.aio.UnaryStreamCall) -> None:  # type: ignore[type-arg]
    await call.read()


async def test_streams_per_seat_and_per_client(deployment: Deployment) -> None:
    server = await deployment.start(seat_streams=2, client_streams=4)
    client = deployment.client(server)
    match_id = (await client.create(2)).match_id
    token = (await client.join(match_id, 0)).token
    seat = client.as_seat(token)
    open_calls = [seat.watch(match_id), seat.watch(match_id)]
    for call in open_calls:
        await _first_message(call)
    failure = await expect_error(
        _first_message(seat.watch(match_id)), Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED"
    )
    assert failure.facts == {"quota": "seat_streams", "limit": "2"}
    assert failure.retry_after_s == pytest.approx(1.0)
    spectators = [client.watch(match_id), client.watch(match_id)]
    for call in spectators:
        await _first_message(call)
    failure = await expect_error(
        _first_message(client.watch(match_id)), Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED"
    )
    assert failure.facts == {"quota": "client_streams", "limit": "4"}
    # A closed stream gives its slot back (once the server sees it end).
    open_calls[0].cancel()
    for _ in range(200):
        await asyncio.sleep(0.02)
        if sum(server.servicer.quotas._by_client.values()) < 4:
            break
    await _first_message(seat.watch(match_id))


async def test_a_trusted_proxy_header_names_the_client(deployment: Deployment) -> None:
    server = await deployment.start(client_creates_per_min=1, client_header="x-forwarded-for")
    stub = deployment.client(server).stub
    for address in ("10.0.0.1", "10.0.0.2"):
        md = (("x-forwarded-for", f"{address}, 10.9.9.9"),)
        await stub.CreateMatch(_two_seats(), metadata=md)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.CreateMatch(_two_seats(), metadata=(("x-forwarded-for", "10.0.0.1"),))
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def _two_seats() -> ms.CreateMatchRequest:
    plan = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)
    return ms.CreateMatchRequest(game_id="mykerinos", seats=[plan, plan])
