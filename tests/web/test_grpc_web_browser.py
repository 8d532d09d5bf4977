"""The browser example (clients/examples/browser): Connect-ES code generated from
proto/ alone, bundled, loaded by a page of another origin in a real headless
Chromium, plays whole matches through ``senet web``'s gRPC-Web gateway: CORS,
structured errors, the WatchMatch stream and SubmitAction, for every game."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import http_serving, npm_installed, quiet_log
from tests.web.conftest import MATCH_WAIT_MS, REPO, serve_web

EXAMPLE = REPO / "clients" / "examples" / "browser"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built() -> Path:
    """The example installed (``npm ci``) and built (code generation and bundle)."""
    return npm_installed(EXAMPLE, "@connectrpc/connect-web", build_script="build")


class _Files(SimpleHTTPRequestHandler):
    log_message = quiet_log


@pytest.fixture
def page_origin(built: Path) -> Iterator[str]:
    """The example's files served on an origin of their own (another site)."""
    with http_serving(functools.partial(_Files, directory=str(built))) as origin:
        yield origin


@pytest.fixture
def gateway(tmp_path: Path, page_origin: str) -> Iterator[str]:
    """``senet serve`` (one bot worker) and ``senet web`` letting the example's origin in."""
    yield from serve_web(
        tmp_path,
        ["--embedded-bot-workers", "1"],
        web_flags=["--grpc-web-origin", page_origin],
    )


@pytest.mark.parametrize("game", ["mykerinos", "archeos", "marenostrum"])
def test_a_page_of_another_site_plays_a_match_over_grpc_web(
    new_page: Any, page_origin: str, gateway: str, game: str
) -> None:
    page = new_page({"width": 900, "height": 700})
    page.goto(f"{page_origin}/index.html?server={gateway}&game={game}")
    page.wait_for_selector(
        "body[data-status='finished'], body[data-status='error']", timeout=MATCH_WAIT_MS
    )
    log = page.inner_text("#log")
    assert page.get_attribute("body", "data-status") == "finished", log
    assert "a wrong token: Unauthenticated BAD_TOKEN" in log
    assert "places by seat: " in log and int(page.inner_text("#moves")) > 0
    assert page.errors == []


def test_a_page_of_an_unnamed_site_is_refused_by_the_browser(
    new_page: Any, built: Path, tmp_path: Path, page_origin: str
) -> None:
    """The same page, with ``senet web`` naming no other origin: the browser's CORS
    check stops the first call."""
    with contextlib.contextmanager(serve_web)(tmp_path, ["--embedded-bot-workers", "0"]) as web:
        page = new_page({"width": 900, "height": 700})
        page.goto(f"{page_origin}/index.html?server={web}")
        page.wait_for_selector("body[data-status='error']", timeout=60_000)
        assert "error:" in page.inner_text("#log")
