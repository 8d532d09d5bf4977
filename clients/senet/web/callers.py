"""Whom the web client calls the match server for: each browser, not the app.

Every page's calls reach the match server from this one process, so without more
the server's per-client quotas (``senet serve --client-...``) would count every
browser as one client, and a busy web front would run out of matches to create for
all of its players at once. Each request's handling therefore runs with the
browser's address in :data:`CALLER` (set by :class:`CallerAddress`), and the
channels to the server (:func:`open_channel`) send it as ``x-forwarded-for`` on
every call, which the server reads as the client when run with ``--client-header
x-forwarded-for`` (where only proxies like this app reach it).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import grpc
import grpc.aio
from starlette.types import ASGIApp, Receive, Scope, Send

from senet.client.client import grpc_target

#: The address of the browser whose request is being handled (None outside one).
CALLER: ContextVar[str | None] = ContextVar("senet_web_caller", default=None)
#: The metadata key the address goes in (the server's ``--client-header``).
FORWARDED_FOR = "x-forwarded-for"


class CallerAddress:
    """ASGI middleware: each HTTP request is handled with its client's address in
    :data:`CALLER` (streamed responses included: their tasks start from it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] != "http" or not client:
            await self.app(scope, receive, send)
            return
        token = CALLER.set(str(client[0]))
        try:
            await self.app(scope, receive, send)
        finally:
            CALLER.reset(token)


def with_caller(details: grpc.aio.ClientCallDetails) -> grpc.aio.ClientCallDetails:
    """``details`` with the current browser's address added to its metadata."""
    caller = CALLER.get()
    if caller is None:
        return details
    metadata = grpc.aio.Metadata(*(details.metadata or ()))
    metadata.add(FORWARDED_FOR, caller)
    return grpc.aio.ClientCallDetails(
        details.method, details.timeout, metadata, details.credentials, details.wait_for_ready
    )


if TYPE_CHECKING:  # the stubs' interceptors are generic; grpc's classes are not
    _UnaryUnary = grpc.aio.UnaryUnaryClientInterceptor[Any, Any]
    _UnaryStream = grpc.aio.UnaryStreamClientInterceptor[Any, Any]
    _StreamUnary = grpc.aio.StreamUnaryClientInterceptor[Any, Any]
    _StreamStream = grpc.aio.StreamStreamClientInterceptor[Any, Any]
else:
    _UnaryUnary = grpc.aio.UnaryUnaryClientInterceptor
    _UnaryStream = grpc.aio.UnaryStreamClientInterceptor
    _StreamUnary = grpc.aio.StreamUnaryClientInterceptor
    _StreamStream = grpc.aio.StreamStreamClientInterceptor


class ForwardCaller(_UnaryUnary, _UnaryStream, _StreamUnary, _StreamStream):
    """Sends :data:`CALLER` as ``x-forwarded-for`` on every kind of call."""

    async def intercept_unary_unary(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Any],
        details: grpc.aio.ClientCallDetails,
        request: Any,
    ) -> Any:
        return await continuation(with_caller(details), request)

    async def intercept_unary_stream(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Any],
        details: grpc.aio.ClientCallDetails,
        request: Any,
    ) -> Any:
        return await continuation(with_caller(details), request)

    async def intercept_stream_unary(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Any],
        details: grpc.aio.ClientCallDetails,
        request_iterator: AsyncIterable[Any] | Iterable[Any],
    ) -> Any:
        return await continuation(with_caller(details), request_iterator)

    async def intercept_stream_stream(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Any],
        details: grpc.aio.ClientCallDetails,
        request_iterator: AsyncIterable[Any] | Iterable[Any],
    ) -> Any:
        return await continuation(with_caller(details), request_iterator)


def forward_caller() -> grpc.aio.ClientInterceptor:
    """A :class:`ForwardCaller`, typed as the interceptor grpc's channels take."""
    return cast(grpc.aio.ClientInterceptor, ForwardCaller())


def open_channel(
    server: str,
    tls_ca: str | None,
    *,
    forwards_caller: bool = True,
    options: Sequence[tuple[str, Any]] = (),
) -> grpc.aio.Channel:
    """A channel to the match server (TLS when ``tls_ca`` names its CA), sending the
    browser's address on every call unless ``forwards_caller`` is off (a caller that
    sends it itself)."""
    interceptors = [forward_caller()] if forwards_caller else None
    server = grpc_target(server)
    if tls_ca:
        credentials = grpc.ssl_channel_credentials(Path(tls_ca).read_bytes())
        return grpc.aio.secure_channel(
            server, credentials, list(options), interceptors=interceptors
        )
    return grpc.aio.insecure_channel(server, list(options), interceptors=interceptors)
