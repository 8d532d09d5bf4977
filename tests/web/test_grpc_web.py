"""The gRPC-Web gateway of ``senet web`` over a real in-process match server: a
whole match played through it alone, in both of gRPC-Web's forms, its structured
errors, a live stream, what crosses to the server and what does not, refusals of
malformed calls (nothing changes), and the CORS rules for other sites' pages."""

from __future__ import annotations

import asyncio
import base64
import struct
from collections.abc import AsyncIterator

import httpx
import pytest
import uvicorn
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from starlette.requests import Request

from senet.v1 import match_pb2, match_service_pb2
from senet.web.app import create_app
from senet.web.grpc_web import call_metadata, methods
from senet.web.settings import WebSettings
from tests.conftest import _free_port

BINARY = "application/grpc-web+proto"
TEXT = "application/grpc-web-text"
SITE = "https://cards.example"
MATCH = "/senet.v1.MatchService"


def framed(message: Message | bytes, flag: int = 0) -> bytes:
    payload = message if isinstance(message, bytes) else message.SerializeToString()
    return struct.pack(">BI", flag, len(payload)) + payload


def frames(body: bytes) -> list[tuple[int, bytes]]:
    """The frames of a gRPC-Web response body (binary form)."""
    found = []
    while body:
        flag, length = struct.unpack(">BI", body[:5])
        found.append((flag, body[5 : 5 + length]))
        body = body[5 + length :]
    return found


def trailer(payload: bytes) -> dict[str, str]:
    lines = payload.decode().split("\r\n")
    return dict(line.split(": ", 1) for line in lines if line)


class Reply:
    """A unary gRPC-Web answer: its messages and its status trailer."""

    def __init__(self, response: httpx.Response) -> None:
        assert response.status_code == 200, response.text
        body = response.content
        if response.headers["content-type"].startswith("application/grpc-web-text"):
            body = base64.b64decode(body)
        parts = frames(body)
        assert parts and parts[-1][0] == 0x80, parts
        self.messages = [payload for flag, payload in parts[:-1] if flag == 0]
        self.trailer = trailer(parts[-1][1])
        self.status = int(self.trailer["grpc-status"])

    def reason(self) -> str:
        """The ErrorInfo reason of a structured error."""
        status = status_pb2.Status.FromString(
            base64.b64decode(self.trailer["grpc-status-details-bin"])
        )
        info = error_details_pb2.ErrorInfo()
        assert status.details[0].Unpack(info)
        return str(info.reason)


async def call(
    web: httpx.AsyncClient,
    method: str,
    request: Message,
    *,
    text: bool = False,
    token: str = "",
    headers: dict[str, str] | None = None,
) -> Reply:
    body = framed(request)
    sent = {"content-type": TEXT if text else BINARY, "x-grpc-web": "1", **(headers or {})}
    if token:
        sent["authorization"] = f"Bearer {token}"
    response = await web.post(
        f"{MATCH}/{method}", content=base64.b64encode(body) if text else body, headers=sent
    )
    return Reply(response)


@pytest.fixture
async def gateway(server: str) -> AsyncIterator[httpx.AsyncClient]:
    """The web app (with one other site let in) through httpx, no port."""
    app = create_app(WebSettings(server=server, grpc_web_origins=(SITE,)))
    transport = httpx.ASGITransport(app=app, client=("203.0.113.7", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8080") as client:
        yield client
    await app.state.web.close()


async def new_match(web: httpx.AsyncClient) -> tuple[str, list[str]]:
    """A two-seat Mykerinos match created and joined by two players through the
    gateway alone (one in each form): its id and the seats' tokens."""
    plans = [match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)] * 2
    created = await call(
        web, "CreateMatch", match_service_pb2.CreateMatchRequest(game_id="mykerinos", seats=plans)
    )
    assert created.status == 0, created.trailer
    match_id = match_service_pb2.CreateMatchResponse.FromString(created.messages[0]).match_id
    tokens = []
    for seat, name in enumerate(("Ann", "Bob")):
        join = match_service_pb2.JoinMatchRequest(match_id=match_id, seat=seat, display_name=name)
        joined = await call(web, "JoinMatch", join, text=seat == 1)
        assert joined.status == 0, joined.trailer
        tokens.append(match_service_pb2.JoinMatchResponse.FromString(joined.messages[0]).token)
    return match_id, tokens


async def next_move(
    web: httpx.AsyncClient, match_id: str, tokens: list[str], request_id: str
) -> tuple[str, match_service_pb2.SubmitActionRequest]:
    """The token of the seat to move and its first legal action, asked through the gateway."""
    for token in tokens:
        legal = await call(
            web,
            "ListLegalActions",
            match_service_pb2.ListLegalActionsRequest(match_id=match_id),
            token=token,
        )
        assert legal.status == 0, legal.trailer
        actions = match_service_pb2.ListLegalActionsResponse.FromString(legal.messages[0]).actions
        if actions:
            notation = actions[0].notation
            return token, match_service_pb2.SubmitActionRequest(
                match_id=match_id, notation=notation, request_id=request_id
            )
    raise AssertionError("no seat has a legal action")


async def test_a_match_is_played_through_the_gateway_alone(
    gateway: httpx.AsyncClient,
) -> None:
    match_id, tokens = await new_match(gateway)
    for step in range(6):
        token, move = await next_move(gateway, match_id, tokens, f"step-{step}")
        submitted = await call(gateway, "SubmitAction", move, token=token, text=step % 2 == 1)
        assert submitted.status == 0, submitted.trailer
        reply = match_service_pb2.SubmitActionResponse.FromString(submitted.messages[0])
        assert reply.version == step + 1 and not reply.duplicate
        again = await call(gateway, "SubmitAction", move, token=token)
        assert match_service_pb2.SubmitActionResponse.FromString(again.messages[0]).duplicate
    got = await call(gateway, "GetMatch", match_service_pb2.GetMatchRequest(match_id=match_id))
    assert match_service_pb2.GetMatchResponse.FromString(got.messages[0]).match.version == 6


async def test_errors_reach_the_browser_with_their_status_and_details(
    gateway: httpx.AsyncClient,
) -> None:
    for text in (False, True):
        missing = await call(
            gateway, "GetMatch", match_service_pb2.GetMatchRequest(match_id="nope"), text=text
        )
        assert missing.status == 5 and missing.messages == []
        assert missing.trailer["grpc-message"] == "no such match (or it expired)"
        assert missing.reason() == "MATCH_NOT_FOUND"
    match_id, _tokens = await new_match(gateway)
    stranger = await call(
        gateway,
        "SubmitAction",
        match_service_pb2.SubmitActionRequest(match_id=match_id, notation="a a1", request_id="x"),
        token="not-a-seat-token",
    )
    assert stranger.status == 16 and stranger.reason() == "BAD_TOKEN"


async def test_malformed_calls_are_invalid_argument_and_change_nothing(
    gateway: httpx.AsyncClient,
) -> None:
    match_id, tokens = await new_match(gateway)
    before = await call(gateway, "GetMatch", match_service_pb2.GetMatchRequest(match_id=match_id))
    token, submit = await next_move(gateway, match_id, tokens, "r")
    path = f"{MATCH}/SubmitAction"
    auth = {"authorization": f"Bearer {token}"}
    bodies = {
        "no frame": b"\x00\x00",
        "two frames": framed(submit) * 2,
        "a short frame": framed(submit)[:-1],
        "a compressed frame": framed(submit, flag=1),
        "a trailer frame": framed(submit, flag=0x80),
    }
    for why, body in bodies.items():
        reply = Reply(
            await gateway.post(path, content=body, headers={"content-type": BINARY, **auth})
        )
        assert reply.status == 3, why
    not_base64 = await gateway.post(path, content=b"%%%", headers={"content-type": TEXT, **auth})
    assert Reply(not_base64).status == 3
    for timeout in ("soon", "123456789S", "5s"):
        late = await call(
            gateway, "SubmitAction", submit, token=token, headers={"grpc-timeout": timeout}
        )
        assert late.status == 3 and "grpc-timeout" in late.trailer["grpc-message"]
    bad_bin = await call(
        gateway, "SubmitAction", submit, token=token, headers={"x-senet-trace-bin": "%"}
    )
    assert bad_bin.status == 3
    not_grpc_web = await gateway.post(
        path, content=b"{}", headers={"content-type": "application/json"}
    )
    assert not_grpc_web.status_code == 415
    after = await call(gateway, "GetMatch", match_service_pb2.GetMatchRequest(match_id=match_id))
    assert after.messages == before.messages


async def test_streams_from_the_client_are_refused_with_the_way_to_play(
    gateway: httpx.AsyncClient,
) -> None:
    carried = methods()
    refused = {path for path, method in carried.items() if method.refused}
    assert refused == {f"{MATCH}/PlayMatch"}
    assert f"{MATCH}/WatchMatch" in carried and carried[f"{MATCH}/WatchMatch"].streaming
    assert "/senet.v1.LadderService/GetBot" in carried
    reply = await call(gateway, "PlayMatch", match_service_pb2.PlayMatchRequest())
    assert reply.status == 12
    assert "WatchMatch and SubmitAction" in reply.trailer["grpc-message"]


async def test_a_deadline_header_bounds_the_call(gateway: httpx.AsyncClient) -> None:
    """A watch would last as long as the match; ``grpc-timeout`` ends it, with its
    snapshot first and DEADLINE_EXCEEDED last."""
    match_id, _tokens = await new_match(gateway)
    reply = await call(
        gateway,
        "WatchMatch",
        match_service_pb2.WatchMatchRequest(match_id=match_id),
        headers={"grpc-timeout": "300m"},
    )
    assert reply.status == 4
    assert match_service_pb2.WatchMatchResponse.FromString(reply.messages[0]).HasField("snapshot")


def test_only_the_token_and_senet_keys_cross_with_the_callers_address() -> None:
    headers = {
        "authorization": "Bearer seat-token",
        "x-senet-identity": "id-token",
        "x-senet-trace-bin": base64.b64encode(b"\x01\x02").decode(),
        "cookie": "senet_seat_m=0.secret",
        "x-forwarded-for": "198.51.100.1",
        "user-agent": "browser",
        "origin": SITE,
    }
    scope = {
        "type": "http",
        "method": "POST",
        "path": f"{MATCH}/GetMatch",
        "headers": [(key.encode(), value.encode()) for key, value in headers.items()],
        "client": ("203.0.113.7", 40000),
    }
    assert call_metadata(Request(scope)) == [
        ("authorization", "Bearer seat-token"),
        ("x-senet-identity", "id-token"),
        ("x-senet-trace-bin", b"\x01\x02"),
        ("x-forwarded-for", "203.0.113.7"),
    ]


async def test_other_sites_call_only_when_listed(gateway: httpx.AsyncClient) -> None:
    request = framed(match_service_pb2.ListGamesRequest())
    path = f"{MATCH}/ListGames"
    listed = await gateway.post(
        path, content=request, headers={"content-type": BINARY, "origin": SITE}
    )
    assert listed.headers["access-control-allow-origin"] == SITE
    assert "grpc-status-details-bin" in listed.headers["access-control-expose-headers"]
    preflight = await gateway.options(
        path,
        headers={
            "origin": SITE,
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization, content-type, x-grpc-web",
        },
    )
    assert preflight.status_code == 204
    assert "authorization" in preflight.headers["access-control-allow-headers"]
    other = "https://elsewhere.example"
    refused = await gateway.options(
        path, headers={"origin": other, "access-control-request-method": "POST"}
    )
    assert refused.status_code == 403
    unlisted = await gateway.post(
        path, content=request, headers={"content-type": BINARY, "origin": other}
    )
    assert "access-control-allow-origin" not in unlisted.headers
    own = await gateway.post(path, content=request, headers={"content-type": BINARY})
    assert Reply(own).status == 0 and "access-control-allow-origin" not in own.headers


async def watched(
    chunks: AsyncIterator[bytes],
) -> AsyncIterator[match_service_pb2.WatchMatchResponse]:
    """The replies of a binary WatchMatch body, whole frames however the bytes arrive."""
    pending = b""
    async for chunk in chunks:
        pending += chunk
        while len(pending) >= 5 and len(pending) >= 5 + struct.unpack(">I", pending[1:5])[0]:
            length = struct.unpack(">I", pending[1:5])[0]
            flag, payload, pending = pending[0], pending[5 : 5 + length], pending[5 + length :]
            assert flag == 0, trailer(payload)
            yield match_service_pb2.WatchMatchResponse.FromString(payload)


async def test_a_watched_match_streams_frame_by_frame(server: str) -> None:
    """Over a real HTTP server (the ASGI transport would wait for the end): the
    snapshot arrives at once, the stream stays open, and a move arrives as it is made."""
    app = create_app(WebSettings(server=server))
    port = _free_port()
    http = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    serving = asyncio.create_task(http.serve())
    try:
        while not http.started:
            await asyncio.sleep(0.02)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as web:
            match_id, tokens = await new_match(web)
            watch = framed(match_service_pb2.WatchMatchRequest(match_id=match_id))
            async with web.stream(
                "POST", f"{MATCH}/WatchMatch", content=watch, headers={"content-type": BINARY}
            ) as stream:
                replies = watched(stream.aiter_raw())
                snapshot = await anext(replies)
                assert snapshot.HasField("snapshot")
                version = snapshot.snapshot.match.version
                token, move = await next_move(web, match_id, tokens, "w")
                assert (await call(web, "SubmitAction", move, token=token)).status == 0
                async for reply in replies:  # heartbeats may come first
                    if reply.HasField("update"):
                        assert reply.update.version > version
                        break
    finally:
        http.should_exit = True
        await serving
        await app.state.web.close()
