"""A request over the message size limit (SENET_MAX_MESSAGE_BYTES) is refused by gRPC
before the server reads it: RESOURCE_EXHAUSTED without an ErrorInfo, the one
documented exception to "every error has a reason" (docs/protocol.md, Errors).
On a PlayMatch stream it ends the stream; the match is unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from senet.service.settings import Settings
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Deployment, Seated, expect_error, mover_of, seated_match

Code = grpc.StatusCode
LIMIT = Settings().max_message_bytes
OVERSIZED = "x" * (LIMIT + 1)


@pytest.fixture
async def match() -> AsyncIterator[Seated]:
    deployment = Deployment("memory")
    try:
        server = await deployment.start()
        yield await seated_match(deployment.client(server))
    finally:
        await deployment.close()


async def test_an_oversized_submission_is_resource_exhausted_without_a_reason(
    match: Seated,
) -> None:
    _, mover = await mover_of(match)
    before = await match.spectator.get(match.match_id)
    await expect_error(mover.submit(match.match_id, OVERSIZED), Code.RESOURCE_EXHAUSTED, None)
    assert await match.spectator.get(match.match_id) == before


async def test_an_oversized_play_message_ends_the_stream_without_a_reason(match: Seated) -> None:
    _, mover = await mover_of(match)
    before = await match.spectator.get(match.match_id)
    call = mover.play()
    await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match.match_id)))
    first = await mover.read(call)
    assert first is not None and first.HasField("snapshot")
    submit = ms.SubmitActionRequest(notation=OVERSIZED, request_id="big")
    await call.write(ms.PlayMatchRequest(submit=submit))

    async def drain() -> None:
        while await mover.read(call) is not None:
            pass

    await expect_error(drain(), Code.RESOURCE_EXHAUSTED, None)
    assert await match.spectator.get(match.match_id) == before
