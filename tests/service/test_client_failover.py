"""The client library retries and fails over every call that is safe to repeat
(issue 15, finding 7): creation and joining, with their keys, included; and
CANCELLED where the call never got anywhere."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, cast

import grpc
import pytest

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.service.server import create_server
from senet.service.settings import Settings
from senet.v1 import match_service_pb2 as ms
from senet.v1 import match_service_pb2_grpc
from tests.service.conftest import Deployment, free_port


@pytest.fixture
async def alive() -> AsyncIterator[str]:
    deployment = Deployment("memory")
    server = await deployment.start()
    try:
        yield f"127.0.0.1:{server.port}"
    finally:
        await deployment.close()


async def test_creation_and_joining_fail_over_from_a_dead_target(alive: str) -> None:
    dead = f"127.0.0.1:{free_port()}"  # nothing listens there
    async with SenetClient([dead, alive], timeout_s=5) as client:
        match_id = await client.create_match("mykerinos", 2, request_id="create-1")
    async with SenetClient([dead, alive], timeout_s=5) as client:
        seat = await client.join(match_id, "ann", request_id="join-1")
        # A retry of the same creation and join from scratch: the same results.
        assert await client.create_match("mykerinos", 2, request_id="create-1") == match_id
        again = await client.join(match_id, "ann", request_id="join-1")
        assert (again.seat, again.token) == (seat.seat, seat.token)
        assert (await again.legal_actions()).seat == seat.seat


def _cancelled() -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(
        grpc.StatusCode.CANCELLED, grpc.aio.Metadata(), grpc.aio.Metadata(), "cancelled", None
    )


async def test_a_cancelled_unary_call_is_retried(alive: str) -> None:
    async with SenetClient(alive) as client:
        attempts = 0

        async def flaky(stub: match_service_pb2_grpc.MatchServiceAsyncStub) -> Any:
            nonlocal attempts
            attempts += 1
            if attempts == 1:
                raise _cancelled()
            return await stub.ListGames(ms.ListGamesRequest(), timeout=5)

        games = await client._call(flaky)
        assert attempts == 2 and games.games


class _CancelledFirst(SenetClient):
    """A client whose first WatchMatch stream is CANCELLED before any response, as
    gRPC does to new streams under bursts."""

    opened = 0

    @property
    def stub(self) -> match_service_pb2_grpc.MatchServiceAsyncStub:
        real = super().stub
        owner = self

        class Stub:
            def WatchMatch(self, request: Any, **kwargs: Any) -> Any:
                owner.opened += 1
                if owner.opened == 1:
                    return _Refused()
                return real.WatchMatch(request, **kwargs)

        return Stub()  # type: ignore[return-value]


class _Refused:
    def __aiter__(self) -> _Refused:
        return self

    async def __anext__(self) -> Any:
        raise _cancelled()

    def cancel(self) -> bool:
        return True


async def test_a_stream_cancelled_before_any_response_is_reopened(alive: str) -> None:
    async with SenetClient(alive) as plain:
        match_id = await plain.create_match("mykerinos", 2)
    client = _CancelledFirst(alive)
    async with client:
        stream = cast(AsyncGenerator[ms.WatchMatchResponse, None], client.watch(match_id))
        first = await anext(stream)
        assert first.snapshot.match.match_id == match_id
        assert client.opened == 2
        await stream.aclose()


async def test_a_new_client_reaches_a_server_started_where_a_connection_was_refused() -> None:
    """gRPC shares connections between the channels of a process unless told not to:
    a new channel would inherit the refused connection and its reconnect backoff and
    fail with the old "Connection refused" although a server now listens there (the
    lobby test's bot server "refused connections" that way under load). One attempt,
    no retry to hide it."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    async with SenetClient(address, timeout_s=5, max_attempts=1) as early:
        with pytest.raises(SenetRpcError) as refused:
            await early.list_games()
        assert refused.value.code == grpc.StatusCode.UNAVAILABLE
    server = await create_server(Settings(port=port, host="127.0.0.1", log_json=False))
    try:
        async with SenetClient(address, timeout_s=5, max_attempts=1) as client:
            assert {game.id for game in await client.list_games()} >= {"mykerinos"}
    finally:
        await server.stop()
