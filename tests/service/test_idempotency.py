"""Creation and joining are safe to retry; a hung Redis answers UNAVAILABLE (issue 15,
findings 1, 2 and 3).

A lost reply is simulated two ways: a store that does the write and then reports
the connection lost (the reply never came back), and a real ``DEBUG SLEEP`` on the
suite's own Redis during which the server's store gives up within its budget.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from typing import Any, cast

import grpc
import pytest
from redis.asyncio import Redis as AsyncRedis

from senet.service.idempotency import match_id_for
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store import ClaimWrite, NewMatch, StoreUnavailable
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Code, Deployment, expect_error

REUSED = (Code.ALREADY_EXISTS, "REQUEST_ID_REUSED")
DOWN = (Code.UNAVAILABLE, "STORE_UNAVAILABLE")


def _create_request(key: str, seats: int = 3, **fields: Any) -> ms.CreateMatchRequest:
    return ms.CreateMatchRequest(
        game_id="mykerinos", seats=[match_pb2.SeatPlan()] * seats, request_id=key, **fields
    )


async def _create(client: Client, key: str, seats: int = 3) -> ms.CreateMatchResponse:
    return await client.stub.CreateMatch(_create_request(key, seats), timeout=15)


async def _join(
    client: Client, match_id: str, key: str, seat: int | None = None
) -> ms.JoinMatchResponse:
    request = ms.JoinMatchRequest(match_id=match_id, display_name="p", request_id=key)
    if seat is not None:
        request.seat = seat
    return await client.stub.JoinMatch(request, timeout=15)


class _LosesReplies:
    """Mixin of a store whose writes happen but whose replies are lost, once each."""

    lose: set[str]

    async def create(self, match: NewMatch) -> None:
        await super().create(match)  # type: ignore[misc]
        if "create" in self.lose:
            self.lose.discard("create")
            raise StoreUnavailable("reply lost (test)")

    async def claim_seat(
        self, match_id: str, claim: ClaimWrite, starting: Sequence[int] = ()
    ) -> bool:
        won: bool = await super().claim_seat(match_id, claim, starting)  # type: ignore[misc]
        if "claim" in self.lose:
            self.lose.discard("claim")
            raise StoreUnavailable("reply lost (test)")
        return won


class _LossyMemory(_LosesReplies, MemoryStore):
    pass


class _LossyRedis(_LosesReplies, RedisStore):
    pass


async def _lossy_server(deployment: Deployment, lose: set[str]) -> tuple[RunningServer, Client]:
    store: _LossyMemory | _LossyRedis
    if deployment.kind == "memory":
        store = _LossyMemory()
    else:
        url, prefix = deployment.redis_url, deployment.key_prefix
        store = cast(_LossyRedis, _LossyRedis.from_url(url, key_prefix=prefix))
    store.lose = lose
    config = Settings(port=0, log_json=False, key_prefix=deployment.key_prefix)
    server = await create_server(config, store)
    deployment._servers.append(server)
    return server, deployment.client(server)


# ------------------------------------------------------------------ creation
async def test_a_creation_retried_with_its_key_returns_the_same_match(client: Client) -> None:
    key = str(uuid.uuid4())
    first = await _create(client, key)
    again = await _create(client, key)
    assert again.match_id == first.match_id == match_id_for(key)
    assert again.match.seed_commitment == first.match.seed_commitment
    other = await _create(client, str(uuid.uuid4()))
    assert other.match_id != first.match_id


async def test_a_key_reused_for_another_creation_is_refused(client: Client) -> None:
    key = str(uuid.uuid4())
    created = await _create(client, key, seats=3)
    refused = await expect_error(_create(client, key, seats=2), *REUSED)
    assert refused.facts == {"matchId": created.match_id}


async def test_a_malformed_creation_key_is_invalid_argument(client: Client) -> None:
    await expect_error(_create(client, "x" * 65), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    await expect_error(_create(client, "bad key"), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")


async def test_a_creation_whose_reply_was_lost_is_recovered_by_its_retry(
    deployment: Deployment,
) -> None:
    """Finding 1: the match exists but the caller was told it failed. The retry
    (the store's own or the client's) gets that match, never INTERNAL."""
    _server, client = await _lossy_server(deployment, {"create"})
    key = str(uuid.uuid4())
    await expect_error(_create(client, key), *DOWN)
    created = await _create(client, key)
    assert created.match_id == match_id_for(key)
    assert (await client.get(created.match_id)).match.version == 0


async def test_concurrent_attempts_of_one_creation_make_one_match(
    client: Client, deployment: Deployment
) -> None:
    key = str(uuid.uuid4())
    replies = await asyncio.gather(*(_create(client, key) for _ in range(4)))
    assert {r.match_id for r in replies} == {match_id_for(key)}
    assert len({r.match.seed_commitment for r in replies}) == 1


# ------------------------------------------------------------------- joining
async def test_a_join_retried_with_its_key_returns_the_same_seat_and_a_working_token(
    client: Client,
) -> None:
    match_id = (await _create(client, str(uuid.uuid4()))).match_id
    key = str(uuid.uuid4())
    first = await _join(client, match_id, key)
    again = await _join(client, match_id, key)
    assert (again.seat, again.token) == (first.seat, first.token)
    seen = await client.as_seat(again.token).get(match_id)
    assert seen.viewer_seat == first.seat
    other = await _join(client, match_id, str(uuid.uuid4()))
    assert other.seat != first.seat and other.token != first.token


async def test_a_join_key_asking_for_another_seat_is_refused(client: Client) -> None:
    match_id = (await _create(client, str(uuid.uuid4()))).match_id
    key = str(uuid.uuid4())
    joined = await _join(client, match_id, key, seat=1)
    refused = await expect_error(_join(client, match_id, key, seat=2), *REUSED)
    assert refused.facts == {"seat": "1"}
    assert (await _join(client, match_id, key, seat=1)).token == joined.token


async def test_a_join_whose_reply_was_lost_keeps_its_seat_on_retry(
    deployment: Deployment,
) -> None:
    """Finding 3: the seat was claimed, the reply lost; the retry gets that seat and
    the token the lost reply carried (not SEAT_TAKEN), and the match goes on."""
    lose: set[str] = set()
    _server, client = await _lossy_server(deployment, lose)
    match_id = (await _create(client, str(uuid.uuid4()), seats=2)).match_id
    lose.add("claim")
    key = str(uuid.uuid4())
    await expect_error(_join(client, match_id, key, seat=0), *DOWN)
    joined = await _join(client, match_id, key, seat=0)
    assert joined.seat == 0
    second = await _join(client, match_id, str(uuid.uuid4()))
    assert second.seat == 1
    seated = client.as_seat(joined.token)
    legal = await seated.legal(match_id)
    assert legal.seat == 0


# -------------------------------------------------------------------- stalls
@pytest.fixture
async def stalled_deployment(redis_url: str, redis_key_prefix: str) -> Any:
    """A server whose store has a short budget, and a way to stall its Redis."""
    store = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix, socket_timeout_s=0.3)
    server = await create_server(
        Settings(port=0, log_json=False, key_prefix=redis_key_prefix, store_timeout_s=0.3), store
    )
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    raw = AsyncRedis.from_url(redis_url)
    sleepers: list[asyncio.Task[Any]] = []

    async def stall(seconds: float) -> asyncio.Task[Any]:
        await raw.ping()
        task = asyncio.create_task(cast(Any, raw).execute_command("DEBUG", "SLEEP", seconds))
        sleepers.append(task)
        await asyncio.sleep(0.1)
        return task

    try:
        yield Client(channel), stall
    finally:
        for task in sleepers:
            await task
        await channel.close(None)
        await server.stop()
        await raw.aclose()


@pytest.mark.slow
async def test_calls_during_a_redis_stall_fail_unavailable_before_it_ends(
    stalled_deployment: Any,
) -> None:
    """Finding 2: GetMatch, CreateMatch and JoinMatch answer UNAVAILABLE
    (STORE_UNAVAILABLE) while Redis still sleeps; afterwards the retries with the
    same keys succeed, with one match and one seat."""
    client, stall = stalled_deployment
    match_id = (await _create(client, str(uuid.uuid4()))).match_id
    await client.get(match_id)
    sleeper = await stall(3)
    await expect_error(client.get(match_id), *DOWN)
    create_key, join_key = str(uuid.uuid4()), str(uuid.uuid4())
    await expect_error(_create(client, create_key), *DOWN)
    await expect_error(_join(client, match_id, join_key), *DOWN)
    assert not sleeper.done(), "the calls waited the stall out"
    await sleeper
    created = await _create(client, create_key)
    assert created.match_id == match_id_for(create_key)
    joined = await _join(client, match_id, join_key)
    assert (await _join(client, match_id, join_key)).seat == joined.seat
    seats = (await client.get(match_id)).match.seats
    assert sum(s.claimed for s in seats) == 1


async def test_keyed_creation_and_joining_hold_across_replicas_on_redis_cluster(
    redis_cluster_url: str,
) -> None:
    """Replica A writes and loses its replies; the retries go to replica B, over a
    three-master Redis Cluster: one match, one seat, the same token."""
    prefix = f"idem{uuid.uuid4().hex[:8]}"
    lossy = cast(_LossyRedis, _LossyRedis.from_url(redis_cluster_url, key_prefix=prefix))
    lossy.lose = {"create"}
    plain = RedisStore.from_url(redis_cluster_url, key_prefix=prefix)
    config = Settings(port=0, log_json=False, key_prefix=prefix)
    servers = [await create_server(config, store) for store in (lossy, plain)]
    channels = [grpc.aio.insecure_channel(f"127.0.0.1:{s.port}") for s in servers]
    a, b = (Client(c) for c in channels)
    try:
        key = str(uuid.uuid4())
        await expect_error(_create(a, key, seats=2), *DOWN)
        match_id = (await _create(b, key, seats=2)).match_id
        assert match_id == match_id_for(key)
        lossy.lose.add("claim")
        join_key = str(uuid.uuid4())
        await expect_error(_join(a, match_id, join_key), *DOWN)
        joined = await _join(b, match_id, join_key)
        again = await _join(a, match_id, join_key)
        assert (again.seat, again.token) == (joined.seat, joined.token)
        assert (await b.as_seat(joined.token).legal(match_id)).seat == joined.seat
        seats = (await a.get(match_id)).match.seats
        assert sum(s.claimed for s in seats) == 1
    finally:
        for channel in channels:
            await channel.close(None)
        for server in servers:
            await server.stop()


async def test_concurrent_attempts_of_one_join_hold_one_seat(client: Client) -> None:
    """Attempts of one join racing for "any open seat" (a retry sent while the
    first is still on its way) end with one seat, the same for all of them."""
    match_id = (await _create(client, str(uuid.uuid4()), seats=3)).match_id
    key = str(uuid.uuid4())
    replies = await asyncio.gather(*(_join(client, match_id, key) for _ in range(3)))
    assert len({(r.seat, r.token) for r in replies}) == 1
    seats = (await client.get(match_id)).match.seats
    assert [s.seat for s in seats if s.claimed] == [replies[0].seat]
