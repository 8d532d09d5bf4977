"""Request bytes that do not parse: INVALID_ARGUMENT on every method, one log line
per burst, never UNKNOWN or a traceback per request."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable, AsyncIterator

import grpc
import pytest
from google.protobuf.descriptor import MethodDescriptor

from senet.service.logs import RateLimitedLog
from senet.v1 import bot_service_pb2, match_service_pb2
from tests.service.conftest import Client, Deployment, expect_error, seated_match

#: Field 1, length-delimited, claiming more bytes than follow: no message parses it.
GARBAGE = b"\x0a\xff\xff\xff\x0f"
SERVICES = [
    match_service_pb2.DESCRIPTOR.services_by_name["MatchService"],
    bot_service_pb2.DESCRIPTOR.services_by_name["BotService"],
]
METHODS = [(s.full_name, m) for s in SERVICES for m in s.methods]


def _raw(data: bytes) -> bytes:
    return data


@pytest.fixture
async def memory() -> AsyncIterator[tuple[Deployment, grpc.aio.Channel]]:
    deployment = Deployment("memory")
    server = await deployment.start()
    try:
        yield deployment, deployment.channel(server)
    finally:
        await deployment.close()


@pytest.mark.parametrize(("service", "method"), METHODS, ids=[m.name for _, m in METHODS])
async def test_unparsable_bytes_are_invalid_argument_on_every_method(
    memory: tuple[Deployment, grpc.aio.Channel], service: str, method: MethodDescriptor
) -> None:
    _, channel = memory
    name = method.name
    path = f"/{service}/{name}"
    streams_in = method.client_streaming
    streams_out = method.server_streaming
    if streams_in:
        call = channel.stream_stream(path, request_serializer=_raw, response_deserializer=_raw)
        stream = call(iter([GARBAGE]))
        await expect_error(_drain(stream), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    elif streams_out:
        unary_stream = channel.unary_stream(
            path, request_serializer=_raw, response_deserializer=_raw
        )
        await expect_error(
            _drain(unary_stream(GARBAGE)), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"
        )
    else:
        unary = channel.unary_unary(path, request_serializer=_raw, response_deserializer=_raw)
        failure = await expect_error(
            unary(GARBAGE), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"
        )
        assert name in failure.message


async def _drain(stream: AsyncIterable[bytes]) -> None:
    async for _ in stream:
        pass


async def test_a_play_stream_that_turns_to_garbage_ends_invalid_argument(
    memory: tuple[Deployment, grpc.aio.Channel],
) -> None:
    _, channel = memory
    match = await seated_match(Client(channel), seats=2)
    hello = match_service_pb2.PlayMatchRequest()
    hello.hello.match_id = match.match_id
    play = channel.stream_stream(
        "/senet.v1.MatchService/PlayMatch", request_serializer=_raw, response_deserializer=_raw
    )
    stream = play(
        iter([hello.SerializeToString(), GARBAGE]),
        metadata=(("authorization", f"Bearer {match.tokens[0]}"),),
    )
    await expect_error(_drain(stream), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")


async def test_a_burst_of_garbage_logs_one_line(
    memory: tuple[Deployment, grpc.aio.Channel], caplog: pytest.LogCaptureFixture
) -> None:
    _, channel = memory
    unary = channel.unary_unary(
        "/senet.v1.MatchService/GetMatch", request_serializer=_raw, response_deserializer=_raw
    )
    with caplog.at_level(logging.WARNING):
        for _ in range(50):
            await expect_error(
                unary(GARBAGE), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"
            )
    lines = [r for r in caplog.records if r.getMessage() == "unparsable request"]
    assert len(lines) <= 1
    assert not [r for r in caplog.records if r.exc_info]


def test_the_rate_limited_log_counts_what_it_leaves_out(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    limited = RateLimitedLog(interval_s=10.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING):
        assert limited.warn("noisy")
        assert not limited.warn("noisy")
        assert not limited.warn("noisy")
        now[0] = 10.0
        assert limited.warn("noisy")
    assert [r.__dict__["suppressed_since_last"] for r in caplog.records] == [0, 2]
