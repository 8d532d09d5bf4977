"""Requests whose bytes are not a valid protobuf message.

gRPC parses a request before any servicer code runs; when the parser raises, the
call ends with UNKNOWN and gRPC logs a traceback: a client could flood the log
with garbage and would learn nothing from the answer. :func:`register` installs
a service's handlers with a parser that never raises: bytes that do not parse
become a :class:`Unparsable` request, and the call ends with INVALID_ARGUMENT,
reason MALFORMED_REQUEST, before the servicer sees it. The log gets one line per
burst (:class:`RateLimitedLog`), not one traceback per request.

Handlers are wrapped once, at registration. A well-formed call pays an
``isinstance`` test, and a stream one pass-through generator step per message
(gRPC's asyncio server streams only from async generator functions, so a
wrapper cannot hand the servicer's generator over as it is). The response
serializers installed with them let bytes through unchanged, for the messages a
stream sends serialized already (:mod:`senet.service.wire`).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import grpc

from senet.service import errors
from senet.service.logs import RateLimitedLog
from senet.service.wire import passing_bytes

log = logging.getLogger("senet.rpc")


@dataclass(frozen=True)
class Unparsable:
    """Stands in for a request whose bytes did not parse."""

    size: int
    error: str


_LOG = RateLimitedLog(logger=log)


def _error(method: str, request: Unparsable) -> errors.MalformedRequest:
    _LOG.warn("unparsable request", method=method, size=request.size, error=request.error)
    return errors.MalformedRequest(f"the request is not a valid {method} message")


def _lenient(parse: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    def deserialize(data: bytes) -> Any:
        try:
            return parse(data)
        except Exception as exc:  # the protobuf runtime's DecodeError, or worse
            return Unparsable(len(data), f"{type(exc).__name__}: {exc}")

    return deserialize


Fail = Callable[[Any, str, Exception], Any]
#: ``grpc.RpcMethodHandler``; its published type stubs predate registered method
#: handlers and type streaming behaviours as synchronous, so it is handled untyped.
Handler = Any


def _guard(method: str, handler: Handler, fail: Fail) -> Handler:
    deserialize = _lenient(handler.request_deserializer)
    # Streams may send messages serialized already (see senet.service.wire).
    serialize = passing_bytes(handler.response_serializer)
    if handler.unary_unary is not None:
        unary = handler.unary_unary

        async def unary_unary(request: Any, context: Any) -> Any:
            if isinstance(request, Unparsable):
                await fail(context, method, _error(method, request))
            return await unary(request, context)

        return grpc.unary_unary_rpc_method_handler(unary_unary, deserialize, serialize)

    if handler.unary_stream is not None:
        stream = handler.unary_stream

        async def unary_stream(request: Any, context: Any) -> AsyncIterator[Any]:
            if isinstance(request, Unparsable):
                await fail(context, method, _error(method, request))
                return
            async for response in stream(request, context):
                yield response

        return grpc.unary_stream_rpc_method_handler(unary_stream, deserialize, serialize)

    if handler.stream_stream is None:
        raise TypeError(f"{method}: client-streaming calls are not guarded")
    streams = handler.stream_stream
    if inspect.iscoroutinefunction(streams):
        # A reader-writer handler reads its requests through read_checked.
        return grpc.stream_stream_rpc_method_handler(streams, deserialize, serialize)

    async def checked(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for request in requests:
            if isinstance(request, Unparsable):
                raise _error(method, request)
            yield request

    async def stream_stream(requests: AsyncIterator[Any], context: Any) -> AsyncIterator[Any]:
        async for response in streams(checked(requests), context):
            yield response

    return grpc.stream_stream_rpc_method_handler(stream_stream, deserialize, serialize)


async def read_checked(context: Any, method: str) -> Any:
    """The next request of a reader-writer stream handler (``grpc.aio.EOF``
    once the client is done sending), through the lenient parser.

    Raises:
        MalformedRequest: the request's bytes did not parse.
    """
    request = await context.read()
    if isinstance(request, Unparsable):
        raise _error(method, request)
    return request


class _Registrar:
    """Looks like a server to a generated ``add_*Servicer_to_server`` function and
    hands the real server guarded handlers."""

    def __init__(self, server: Any, fail: Fail) -> None:
        self._server = server
        self._fail = fail

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        """Generated code registers each method twice: the unguarded generic
        handler is dropped, the guarded one is made below."""

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Handler]) -> None:
        """Install ``handlers`` guarded, as a generic handler only.

        Not as registered methods: gRPC's asyncio server keeps one pending
        request per registered method and waits on all of them for every call
        (about 30 here: each call added and removed a callback on each, some
        200 of a SubmitAction's 830 Python calls), while generic handlers share
        one. Looking a method up among the generic handlers is a dict probe
        per service.
        """
        guarded = {name: _guard(name, h, self._fail) for name, h in handlers.items()}
        self._server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(service, guarded),)
        )


class GenericOnly:
    """Looks like a server to a generated ``add_*Servicer_to_server`` function
    and hands the real server its generic handler alone (why: see
    :meth:`_Registrar.add_registered_method_handlers`)."""

    def __init__(self, server: Any) -> None:
        self._server = server

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        self._server.add_generic_rpc_handlers(handlers)

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Handler]) -> None:
        """Dropped: the generic handler serves the same methods."""


def register(
    add_to_server: Callable[[Any, Any], None], servicer: Any, server: grpc.aio.Server, fail: Fail
) -> None:
    """Register ``servicer`` as ``add_to_server`` would, with unparsable requests
    refused through ``fail(context, method, error)`` (which aborts the call)."""
    add_to_server(servicer, _Registrar(server, fail))
