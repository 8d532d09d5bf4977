"""The web client names each browser to the match server (``x-forwarded-for``), so
that a server run with ``--client-header x-forwarded-for`` counts its quotas per
browser, not once for every player of the web front: over the pages' own calls and
the gRPC-Web gateway alike."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from senet.service.server import create_server
from senet.service.settings import Settings
from senet.v1 import match_pb2, match_service_pb2
from senet.web.app import create_app
from senet.web.settings import WebSettings
from tests.web.conftest import BASE, create_by_form
from tests.web.test_grpc_web import Reply, framed


@pytest.fixture
async def strict_server() -> AsyncIterator[str]:
    """A server behind a trusted proxy that lets each client create one match a minute."""
    settings = Settings(
        port=0,
        host="127.0.0.1",
        log_json=False,
        embedded_bot_workers=0,
        client_header="x-forwarded-for",
        client_creates_per_min=1,
    )
    server = await create_server(settings)
    try:
        yield f"127.0.0.1:{server.port}"
    finally:
        await server.stop()


def browser(app: object, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url=BASE)


async def test_each_browser_has_its_own_quota_on_the_pages(strict_server: str) -> None:
    app = create_app(WebSettings(server=strict_server))
    try:
        async with browser(app, "203.0.113.1") as ann, browser(app, "203.0.113.2") as bob:
            assert (await create_by_form(ann)).status_code == 303
            assert (await create_by_form(bob)).status_code == 303, "Bob's quota is his own"
            again = await create_by_form(ann)
            assert again.status_code == 400 and "wait a minute and try again" in again.text
    finally:
        await app.state.web.close()


async def test_each_browser_has_its_own_quota_through_grpc_web(strict_server: str) -> None:
    app = create_app(WebSettings(server=strict_server))
    request = framed(
        match_service_pb2.CreateMatchRequest(
            game_id="mykerinos", seats=[match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)] * 2
        )
    )
    headers = {"content-type": "application/grpc-web+proto"}
    path = "/senet.v1.MatchService/CreateMatch"
    try:
        async with browser(app, "203.0.113.3") as ann, browser(app, "203.0.113.4") as bob:
            assert Reply(await ann.post(path, content=request, headers=headers)).status == 0
            assert Reply(await bob.post(path, content=request, headers=headers)).status == 0
            refused = Reply(await ann.post(path, content=request, headers=headers))
            assert refused.status == 8 and refused.reason() == "QUOTA_EXCEEDED"
    finally:
        await app.state.web.close()
