"""Fixtures of the web client's tests: a match server with a bot worker and ``senet web``
in child processes, and a real headless Chromium (Debian's ``chromium``) driven by
playwright, with the helpers the browser tests share (pages, creating a match from
the lobby, waiting for the seat's turn); and the app over an in-process server
through httpx, with its CSRF token and the lobby's create form.

Screenshots go to ``$SENET_WEB_SCREENSHOTS`` when set (``tests/web/screenshots/``,
ignored by git, is a good place), else to a folder under pytest's tmp dir; the
tests print where.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from senet.cli.beside import embedded_server
from senet.web.app import create_app
from senet.web.security import CSRF_COOKIE
from senet.web.settings import WebSettings
from tests.conftest import _free_port

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SENET_CHROMIUM", "/usr/bin/chromium")
#: Long enough for a whole match between bots; the waits end as soon as the page changes.
MATCH_WAIT_MS = 240_000
YOUR_TURN_OR_OVER = """() => document.body.dataset.status === 'finished'
    || document.querySelectorAll('#actions button.action:not([disabled])').length > 0"""
#: The address the httpx client gives the app (nothing listens there).
BASE = "http://127.0.0.1:8080"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _start(args: list[str], log: Path, ready: str) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``senet <args> --port P`` on a free port; three ports are tried."""
    for _attempt in range(3):
        port = _free_port()
        with log.open("ab") as sink:
            proc = subprocess.Popen(
                [sys.executable, "-m", "senet.cli", *args, "--port", str(port)],
                cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=sink,
            )  # fmt: skip
        assert proc.stdout is not None
        line = proc.stdout.readline().decode(errors="replace")
        if line.startswith(ready.format(port=port)):
            return proc, port
        _stop(proc)
    pytest.fail(f"senet {args[0]} did not start:\n{log.read_text()}")


def _wait_until_answering(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Poll until the web app answers (it prints its banner before binding)."""
    for _attempt in range(200):
        if proc.poll() is not None:
            pytest.fail(f"senet web exited:\n{log.read_text()}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.05)
    pytest.fail(f"senet web did not answer:\n{log.read_text()}")


def serve_web(
    tmp_path: Path,
    serve: list[str],
    before_web: Callable[[int], None] | None = None,
    web_flags: Sequence[str] = (),
) -> Generator[str, None, None]:
    """``senet serve`` with ``serve``'s flags, then (after ``before_web`` has had the
    server's port) ``senet web`` with ``web_flags`` in front of it: yields the web
    address."""
    log = tmp_path / "servers.log"
    SERVER_LOGS.append(log)
    server, server_port = _start(
        ["serve", "--host", "127.0.0.1", "--no-log-json", "--log-level", "WARNING", *serve],
        log, "Senet is serving on 127.0.0.1:{port}",
    )  # fmt: skip
    try:
        if before_web is not None:
            before_web(server_port)
        web, web_port = _start(
            ["web", "--server", f"127.0.0.1:{server_port}", *web_flags],
            log, "Senet web is serving on http://127.0.0.1:{port}",
        )  # fmt: skip
        try:
            url = f"http://127.0.0.1:{web_port}"
            _wait_until_answering(url + "/", web, log)
            yield url
        finally:
            _stop(web)
    finally:
        _stop(server)
        SERVER_LOGS.remove(log)


@pytest.fixture
def web_url(tmp_path: Path) -> Iterator[str]:
    """``senet serve`` (embedded store, one bot worker) and ``senet web`` in front of it."""
    yield from serve_web(tmp_path, ["--embedded-bot-workers", "1"])


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("SENET_WEB_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("web-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nweb screenshots: {folder}")
    return folder


@pytest.fixture
def chromium() -> Iterator[object]:
    """A headless Chromium (the system's; playwright downloads no browser).

    One per test: playwright's sync API runs an event loop while it is started, and
    an asyncio test that a worker runs after it could not start its own.
    """
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(chromium: Any) -> Iterator[Callable[[dict[str, int]], Any]]:
    """Pages in fresh browser contexts (no shared cookies), closed after the test;
    each page's ``errors`` collects its script errors and console errors."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int]) -> Any:
        context = chromium.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.errors = errors
        return page

    yield make
    for context in contexts:
        context.close()


def create_match(page: Any, web_url: str, game: str, seats: list[str]) -> str:
    """Fill the lobby's create form of ``game`` and submit it; returns the match id."""
    page.goto(web_url + "/")
    form = page.locator(f"section:has(h2#game-{game}) form.create")
    for seat, choice in enumerate(seats):
        form.locator(f"select[name=seat{seat}]").select_option(choice)
    seat_count = form.locator("select[name^=seat]").count()
    for seat in range(len(seats), seat_count):
        form.locator(f"select[name=seat{seat}]").select_option("")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/matches/*/*")
    match_id: str = page.url.rsplit("/", 2)[-2]
    return match_id


#: What a page shows of its state when a wait on it fails: why it waited.
PAGE_STATE = """() => ({
    version: document.body.dataset.version, busy: document.body.dataset.busy,
    status: document.body.dataset.status, ended: document.body.dataset.ended,
    problem: (document.getElementById('problem') || {}).textContent,
    picked: (document.getElementById('picked') || {}).textContent,
    actions: [...document.querySelectorAll('#actions button.action')].map(b => b.dataset.notation),
    live: [...document.querySelectorAll('#board [data-target].live')].map(e => e.dataset.target),
    headline: (document.getElementById('headline') || {}).textContent})"""


#: The logs of the servers running for the test now (warnings and errors): a failed
#: wait shows their end.
SERVER_LOGS: list[Path] = []


def wait_until(page: Any, condition: str) -> Any:
    """``page.wait_for_function(condition)``; on a timeout, the page's state says why."""
    from playwright.sync_api import TimeoutError as PageTimeout  # (imported by browser tests only)

    try:
        return page.wait_for_function(condition, timeout=MATCH_WAIT_MS)
    except PageTimeout:
        state = page.evaluate(PAGE_STATE)
        logs = "".join(
            f"\n{log}:\n" + "\n".join(log.read_text(errors="replace").splitlines()[-40:])
            for log in SERVER_LOGS
            if log.exists()
        )
        raise AssertionError(f"the page never met {condition}: {state}{logs}") from None


def wait_for_turn(page: Any) -> bool:
    """Wait until the page's seat may act or the match is over; whether it may act."""
    wait_until(page, YOUR_TURN_OR_OVER)
    return bool(page.evaluate("document.body.dataset.status") != "finished")


@pytest.fixture
async def server() -> AsyncIterator[str]:
    """An in-process match server (embedded store, a bot worker); its address."""
    async with embedded_server() as address:
        yield address


@pytest.fixture
async def web(server: str) -> AsyncIterator[httpx.AsyncClient]:
    """The web app over ``server``, called through httpx (no browser, no port)."""
    app = create_app(WebSettings(server=server))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        yield client
    await app.state.web.close()


async def csrf_of(web: httpx.AsyncClient) -> str:
    """The CSRF token the lobby hands this client (its cookie)."""
    response = await web.get("/")
    assert response.status_code == 200
    return web.cookies[CSRF_COOKIE]


async def create_by_form(web: httpx.AsyncClient, **fields: str) -> httpx.Response:
    """POST the lobby's create form (a Mykerinos match, you and an open seat, unless
    ``fields`` say otherwise)."""
    form = {"csrf": await csrf_of(web), "game": "mykerinos", "seat0": "you", "seat1": "open"}
    form.update(fields)
    return await web.post("/matches", data=form)
