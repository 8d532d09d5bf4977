"""Fixtures of the web client's tests: a match server with a bot worker and ``senet web``
in child processes, and a real headless Chromium (Debian's ``chromium``) driven by playwright.

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
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import _free_port

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SENET_CHROMIUM", "/usr/bin/chromium")


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


@pytest.fixture
def web_url(tmp_path: Path) -> Iterator[str]:
    """``senet serve`` (embedded store, one bot worker) and ``senet web`` in front of it."""
    log = tmp_path / "servers.log"
    server, server_port = _start(
        ["serve", "--host", "127.0.0.1", "--no-log-json", "--log-level", "WARNING",
         "--embedded-bot-workers", "1"],
        log, "Senet is serving on 127.0.0.1:{port}",
    )  # fmt: skip
    try:
        web, web_port = _start(
            ["web", "--server", f"127.0.0.1:{server_port}"],
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
