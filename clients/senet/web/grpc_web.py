"""gRPC-Web in front of the match server, so that browser apps call Senet's services.

A page cannot open an HTTP/2 gRPC call: browsers give scripts no access to HTTP
trailers. gRPC-Web is the standard answer (https://github.com/grpc/grpc/blob/master/
doc/PROTOCOL-WEB.md): the same methods over plain HTTP POSTs, with the status sent
as a last frame of the body. Its clients (grpc-web, Connect's ``createGrpcWebTransport``)
are generated from the protos in ``proto/`` alone, like any other gRPC client.

``senet web`` carries every unary and server-streaming method of the ``senet.v1``
services at ``POST /<package>.<Service>/<Method>``, in binary
(``application/grpc-web+proto``) and base64 (``application/grpc-web-text``) form,
and passes them through unchanged: the match server decides everything, and its
structured errors (``grpc-status-details-bin``) reach the browser as they are.
What crosses:

- the request's ``authorization`` (a seat token) and ``x-senet-*`` headers (an
  identity, a bot key) as metadata, and ``grpc-timeout`` as the deadline; never the
  browser's cookies, so the web pages' seat cookies stay theirs;
- the caller's address as ``x-forwarded-for``, which the match server reads as the
  client of its quotas when told to (``senet serve --client-header
  x-forwarded-for``, where only proxies can reach it).

``PlayMatch`` streams both ways, which gRPC-Web cannot carry; a browser plays with
``WatchMatch`` and ``SubmitAction`` (the protocol guide's second way to play), and
the call says so (UNIMPLEMENTED). Pages of other origins may call only when the
operator lists them (``--grpc-web-origin``), as the CORS rules of browsers ask.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import grpc.aio
from google.protobuf.descriptor import MethodDescriptor
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from senet.v1 import bot_service_pb2, ladder_service_pb2, match_service_pb2, player_service_pb2
from senet.web.callers import FORWARDED_FOR, open_channel

#: The services whose methods the gateway carries.
SERVICE_FILES = (match_service_pb2, player_service_pb2, ladder_service_pb2, bot_service_pb2)
BINARY = "application/grpc-web+proto"
TEXT = "application/grpc-web-text+proto"
#: The request content types each answered in its own form (the bare ones mean proto).
CONTENT_TYPES = {
    "application/grpc-web": BINARY,
    BINARY: BINARY,
    "application/grpc-web-text": TEXT,
    TEXT: TEXT,
}
#: The largest request body taken (the match server's own default limit).
MAX_REQUEST_BYTES = 4 * 1024 * 1024
#: The request headers passed on as metadata: the seat token and Senet's own keys.
FORWARDED = re.compile(r"authorization|x-senet-[a-z0-9-]+")
#: What a page of another origin may send and read (CORS).
ALLOWED_HEADERS = (
    "authorization, content-type, grpc-timeout, x-grpc-web, x-user-agent, "
    "x-senet-identity, x-senet-bot-key, x-senet-worker-key, x-senet-admin-key"
)
EXPOSED_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin"
_TIMEOUT = re.compile(r"([0-9]{1,8})([HMSmun])")
_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
_DATA, _TRAILERS = 0x00, 0x80
_HEADER = struct.Struct(">BI")


@dataclass(frozen=True)
class Method:
    """One method the gateway carries, by its path ``/<service>/<method>``."""

    path: str
    streaming: bool
    refused: str = ""


def methods(files: Iterable[Any] = SERVICE_FILES) -> dict[str, Method]:
    """Every method of the services in ``files`` (generated ``*_pb2`` modules), read
    from their descriptors: a new RPC is carried without a change here."""
    found: dict[str, Method] = {}
    for module in files:
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                path = f"/{service.full_name}/{method.name}"
                found[path] = Method(path, method.server_streaming, _refusal(method))
    return found


def _refusal(method: MethodDescriptor) -> str:
    if not method.client_streaming:
        return ""
    alternative = (
        ": a browser plays with WatchMatch and SubmitAction" if method.name == "PlayMatch" else ""
    )
    return f"{method.name} streams from the client too, which gRPC-Web cannot carry{alternative}"


def frame(flag: int, payload: bytes) -> bytes:
    """One gRPC-Web frame: a flag byte, the payload's length (4 bytes), the payload."""
    return _HEADER.pack(flag, len(payload)) + payload


def trailers(
    code: grpc.StatusCode, message: str, metadata: Iterable[tuple[str, str | bytes]] | None = ()
) -> bytes:
    """The last frame: ``grpc-status``, ``grpc-message`` (percent-encoded, as gRPC
    sends it) and the call's trailing metadata (``-bin`` values in base64)."""
    lines = [f"grpc-status: {code.value[0]}"]
    if message:
        lines.append(f"grpc-message: {percent_encoded(message)}")
    for key, value in metadata or ():
        if key in ("grpc-status", "grpc-message"):
            continue
        text = base64.b64encode(value).decode() if isinstance(value, bytes) else value
        lines.append(f"{key}: {text}")
    return frame(_TRAILERS, "".join(f"{line}\r\n" for line in lines).encode())


def percent_encoded(message: str) -> str:
    """``message`` as gRPC's status message header: UTF-8, every byte outside
    printable ASCII, and ``%``, percent-encoded."""
    return "".join(
        chr(byte) if 0x20 <= byte <= 0x7E and byte != 0x25 else f"%{byte:02X}"
        for byte in message.encode()
    )


class BadRequest(ValueError):
    """A body or header no gRPC-Web client sends; answered INVALID_ARGUMENT."""


def request_message(body: bytes, text: bool) -> bytes:
    """The one message of a gRPC-Web request body (decoded from base64 first in text form).

    Raises:
        BadRequest: not base64, not one whole uncompressed data frame.
    """
    if text:
        try:
            body = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError) as error:
            raise BadRequest("the body of a grpc-web-text request must be base64") from error
    if len(body) < _HEADER.size:
        raise BadRequest("the body must be one gRPC-Web message frame")
    flag, length = _HEADER.unpack_from(body)
    if flag & 0x01:
        raise BadRequest("compressed messages are not accepted: send them uncompressed")
    if flag != _DATA or len(body) != _HEADER.size + length:
        raise BadRequest("the body must be exactly one gRPC-Web message frame")
    return body[_HEADER.size :]


def timeout_s(value: str | None) -> float | None:
    """The deadline a ``grpc-timeout`` header asks for (``250m``, ``10S``...).

    Raises:
        BadRequest: a value gRPC's syntax does not allow.
    """
    if value is None:
        return None
    found = _TIMEOUT.fullmatch(value)
    if found is None:
        raise BadRequest(f"grpc-timeout {value!r} is not 1-8 digits and a unit (H M S m u n)")
    return int(found[1]) * _UNITS[found[2]]


def call_metadata(request: Request) -> list[tuple[str, str | bytes]]:
    """What the call carries to the match server: the forwarded headers (``-bin``
    ones decoded) and the caller's address.

    Raises:
        BadRequest: a ``-bin`` header that is not base64.
    """
    metadata: list[tuple[str, str | bytes]] = []
    for key, value in request.headers.items():
        if not FORWARDED.fullmatch(key):
            continue
        if key.endswith("-bin"):
            try:
                metadata.append((key, base64.b64decode(value, validate=True)))
            except (binascii.Error, ValueError) as error:
                raise BadRequest(f"the {key} header must be base64") from error
        else:
            metadata.append((key, value))
    if request.client is not None:
        metadata.append((FORWARDED_FOR, request.client.host))
    return metadata


class GrpcWebGateway:
    """The routes and the one channel they share to the match server.

    Args:
        server: ``host:port`` of the match server.
        tls_ca: PEM file of the CA that signed the server's certificate, for TLS.
        origins: The other origins whose pages may call (``*``: any); none: only
            pages this app serves.
    """

    def __init__(self, server: str, tls_ca: str | None = None, origins: Sequence[str] = ()) -> None:
        self.server = server
        self.tls_ca = tls_ca
        self.origins = frozenset(origins)
        self.methods = methods()
        self._channel: grpc.aio.Channel | None = None

    @property
    def channel(self) -> grpc.aio.Channel:
        if self._channel is None:
            # Each call names its caller itself (call_metadata), from the request.
            self._channel = open_channel(
                self.server,
                self.tls_ca,
                forwards_caller=False,
                options=[("grpc.max_receive_message_length", -1)],
            )
        return self._channel

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close(None)
            self._channel = None

    def routes(self) -> list[Route]:
        return [Route(path, self.handle, methods=["POST", "OPTIONS"]) for path in self.methods]

    def cors(self, request: Request) -> dict[str, str]:
        """The CORS headers a response to ``request`` carries (none for this app's
        own pages and for origins the operator did not list)."""
        origin = request.headers.get("origin")
        if origin is None or not ("*" in self.origins or origin in self.origins):
            return {}
        return {
            "access-control-allow-origin": "*" if "*" in self.origins else origin,
            "access-control-expose-headers": EXPOSED_HEADERS,
            "vary": "origin",
        }

    async def handle(self, request: Request) -> Response:
        cors = self.cors(request)
        if request.method == "OPTIONS":
            if not cors:
                return Response(status_code=403)
            preflight = {
                "access-control-allow-methods": "POST",
                "access-control-allow-headers": ALLOWED_HEADERS,
                "access-control-max-age": "600",
            }
            return Response(status_code=204, headers={**cors, **preflight})
        kind = CONTENT_TYPES.get(request.headers.get("content-type", "").split(";")[0].strip())
        if kind is None:
            return Response(
                f"a gRPC-Web call is a POST of one of {', '.join(CONTENT_TYPES)}",
                status_code=415,
                headers=cors,
            )
        text = kind == TEXT
        method = self.methods[request.url.path]
        if method.refused:
            return _answer(kind, cors, [trailers(grpc.StatusCode.UNIMPLEMENTED, method.refused)])
        body = await _limited_body(request)
        try:
            if body is None:
                raise BadRequest(f"the body is larger than {MAX_REQUEST_BYTES} bytes")
            message = request_message(body, text)
            deadline = timeout_s(request.headers.get("grpc-timeout"))
            metadata = call_metadata(request)
        except BadRequest as error:
            return _answer(kind, cors, [trailers(grpc.StatusCode.INVALID_ARGUMENT, str(error))])
        if method.streaming:
            call = self.channel.unary_stream(method.path, None, None)(
                message, metadata=metadata, timeout=deadline
            )
            return StreamingResponse(_encoded(_streamed(call), text), media_type=kind, headers=cors)
        unary = self.channel.unary_unary(method.path, None, None)(
            message, metadata=metadata, timeout=deadline
        )
        try:
            reply: bytes = await unary
        except grpc.aio.AioRpcError as error:
            return _answer(kind, cors, [_failure(error)])
        done = trailers(grpc.StatusCode.OK, "", _pairs(await unary.trailing_metadata()))
        return _answer(kind, cors, [frame(_DATA, reply), done])


def _pairs(metadata: Any) -> list[tuple[str, str | bytes]]:
    """gRPC's metadata (a ``Metadata`` or a tuple of pairs) as plain pairs."""
    return [(str(key), value) for key, value in metadata or ()]


def _failure(error: grpc.aio.AioRpcError) -> bytes:
    return trailers(error.code(), error.details() or "", _pairs(error.trailing_metadata()))


async def _streamed(call: Any) -> AsyncIterator[bytes]:
    """The frames of a server stream, its status last; the call is cancelled when the
    browser goes away (the response stops reading)."""
    try:
        async for message in call:
            yield frame(_DATA, message)
        yield trailers(
            await call.code(), await call.details() or "", await call.trailing_metadata()
        )
    except grpc.aio.AioRpcError as error:
        yield _failure(error)
    finally:
        call.cancel()


async def _encoded(frames: AsyncIterator[bytes], text: bool) -> AsyncIterator[bytes]:
    """``frames`` as the body's chunks: as they are, or each in base64 on its own
    (padded chunks one after the other, as gRPC-Web's text form allows)."""
    async for chunk in frames:
        yield base64.b64encode(chunk) if text else chunk


def _answer(kind: str, cors: dict[str, str], frames: list[bytes]) -> Response:
    body = b"".join(frames)
    return Response(base64.b64encode(body) if kind == TEXT else body, media_type=kind, headers=cors)


async def _limited_body(request: Request) -> bytes | None:
    """The request body, or None once it passes :data:`MAX_REQUEST_BYTES`."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_REQUEST_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
