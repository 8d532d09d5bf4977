"""Every INTERNAL a call answers is logged exactly once, with its traceback and the
match id, whatever the RPC: a unary call, a WatchMatch stream, and a PlayMatch
submission (refused inside the stream, which goes on) or stream."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from senet.service import grpc_api, messages
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Deployment, Seated, expect_error, mover_of, seated_match

Code = grpc.StatusCode


class InjectedFault(RuntimeError):
    """The server bug the tests plant."""


def _fault(*_args: Any, **_kwargs: Any) -> Any:
    raise InjectedFault("planted by the test")


@pytest.fixture
async def match() -> AsyncIterator[Seated]:
    deployment = Deployment("memory")
    try:
        server = await deployment.start()
        yield await seated_match(deployment.client(server))
    finally:
        await deployment.close()


def _internal_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "internal error"]


def _check_logged_once(caplog: pytest.LogCaptureFixture, method: str, match_id: str) -> None:
    records = _internal_records(caplog)
    assert len(records) == 1, [r.__dict__ for r in records]
    record = records[0]
    assert record.levelno == logging.ERROR
    assert (getattr(record, "method", None), getattr(record, "match_id", None)) == (
        method,
        match_id,
    )
    assert record.exc_info is not None and isinstance(record.exc_info[1], InjectedFault)


async def test_a_unary_internal_is_logged_once_with_the_match_id(
    match: Seated, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, mover = await mover_of(match)
    monkeypatch.setattr(grpc_api, "submitted_action", _fault)
    with caplog.at_level(logging.ERROR, logger="senet.rpc"):
        await expect_error(mover.submit(match.match_id, "pass"), Code.INTERNAL, "INTERNAL")
    _check_logged_once(caplog, "SubmitAction", match.match_id)


async def test_a_watch_internal_is_logged_once_with_the_match_id(
    match: Seated, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(messages, "write_snapshot", _fault)
    with caplog.at_level(logging.ERROR, logger="senet.rpc"):
        call = match.spectator.watch(match.match_id)
        await expect_error(match.spectator.read(call), Code.INTERNAL, "INTERNAL")
    _check_logged_once(caplog, "WatchMatch", match.match_id)


async def test_a_play_submission_internal_is_logged_once_with_the_match_id(
    match: Seated, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal travels inside the stream as a PlayError; the stream goes on."""
    _, mover = await mover_of(match)
    call = mover.play()
    await call.write(ms_hello(match.match_id))
    assert (await _first(mover, call)).HasField("snapshot")
    monkeypatch.setattr(grpc_api, "submitted_action", _fault)
    with caplog.at_level(logging.ERROR, logger="senet.rpc"):
        await call.write(ms_submit("pass", "r1"))
        error = await _error_of(mover, call)
    assert (error.code, error.reason, error.request_id) == (
        Code.INTERNAL.value[0],
        "INTERNAL",
        "r1",
    )
    _check_logged_once(caplog, "PlayMatch", match.match_id)
    call.cancel()


async def test_a_play_stream_internal_is_logged_once_with_the_match_id(
    match: Seated, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, mover = await mover_of(match)
    monkeypatch.setattr(messages, "write_snapshot", _fault)
    with caplog.at_level(logging.ERROR, logger="senet.rpc"):
        call = mover.play()
        await call.write(ms_hello(match.match_id))
        await expect_error(mover.read(call), Code.INTERNAL, "INTERNAL")
    _check_logged_once(caplog, "PlayMatch", match.match_id)


# ----------------------------------------------------------------- helpers
def ms_hello(match_id: str) -> ms.PlayMatchRequest:
    return ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match_id))


def ms_submit(notation: str, request_id: str) -> ms.PlayMatchRequest:
    return ms.PlayMatchRequest(
        submit=ms.SubmitActionRequest(notation=notation, request_id=request_id)
    )


async def _first(client: Client, call: Any) -> Any:
    message = await client.read(call)
    assert message is not None
    return message


async def _error_of(client: Client, call: Any) -> Any:
    """The first PlayError of the stream (prompts and updates before it are skipped)."""
    while True:
        message = await _first(client, call)
        if message.HasField("error"):
            return message.error
