"""Writing to a bidi stream without losing the status the server ends it with.

grpc.aio's own writing (``call.write`` and request iterators) handles a write that
fails because the server has just ended the call by setting the call's status to
INTERNAL "Internal error from Core", over the status the server sent, even when
that status had already arrived (grpc/grpc#36066; grpc's synchronous stack keeps
it). Awaiting ``call.code()`` afterwards does not help: the server's status is gone.
A PlayMatch stream that a drain (UNAVAILABLE) or a revoked token (BAD_TOKEN) ends
while the client writes would then fail as a server bug, which is not retried.

:func:`send_requests` therefore writes through the call's Core object, which
reports such a write as failed without touching the call's status, and stops
there: the call ends with the server's status, which the reader of its responses
raises as from any other stream. This leans on two grpc internals
(``_cython_call.send_serialized_message`` and ``cygrpc.InternalError``);
tests/service/test_client_stream_ends.py fails if a grpcio release changes them.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterable
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message
from grpc._cython import cygrpc  # type: ignore[attr-defined]

Request = TypeVar("Request", bound=Message)


async def send_requests(
    call: grpc.aio.StreamStreamCall[Request, Any], requests: AsyncIterable[Request]
) -> None:
    """Write ``requests`` to ``call`` in order, then half-close it.

    Stops early, without an error, once the call has ended: its status is for the
    reader of its responses to raise. The call must have been started without a
    request iterator. Any other failure (of ``requests``, say) cancels the call,
    so that its reader stops waiting for answers that will not come, and is raised.
    """
    try:
        await call.wait_for_connection()
    except grpc.aio.AioRpcError:
        return
    core = call._cython_call  # type: ignore[attr-defined]
    try:
        async for request in requests:
            if call.done():
                return
            try:
                await core.send_serialized_message(request.SerializeToString())
            except cygrpc.InternalError:
                # Core failed the write because the stream is closed; the status
                # that closed it is on its way to the call, untouched. (Core also
                # refuses a batch outright when it breaks the API's rules, e.g.
                # two writes at once, which this loop never does.)
                return
        if not call.done():
            with contextlib.suppress(cygrpc.InternalError):  # it ended meanwhile
                await call.done_writing()
    except Exception:
        call.cancel()
        raise
