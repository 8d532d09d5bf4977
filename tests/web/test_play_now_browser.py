"""Play now in a real headless Chromium: the wait shows, cancel leaves the queue,
and the bots' wait ends in the seat's play page.

Issue 36: 'A person runs make run, opens the web client, presses "Play now" for a
2-player Mykerinos, is matched with ... a bot after the wait they chose, plays'.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import MATCH_WAIT_MS, wait_until
from tests.web.test_browser import DESKTOP

pytestmark = pytest.mark.slow


def test_play_now_waits_visibly_cancels_and_matches_with_a_bot(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(DESKTOP)
    page.goto(f"{web_url}/play-now")
    page.fill("#queue-name", "Ada")
    page.select_option("#queue-game", "mykerinos")
    page.select_option("#queue-bots", "-1")
    page.click("#queue-go")
    wait_until(
        page, "() => document.getElementById('queue-status').textContent.includes('Waiting')"
    )
    page.screenshot(path=str(screenshots / "play-now-waiting.png"), full_page=True)
    page.click("#queue-cancel")
    assert "Cancelled" in page.locator("#queue-status").inner_text()

    page.select_option("#queue-bots", "10")
    page.click("#queue-go")
    page.wait_for_url("**/matches/*/play", timeout=MATCH_WAIT_MS)
    wait_until(page, "() => document.body.dataset.version")
    page.screenshot(path=str(screenshots / "play-now-matched.png"), full_page=True)
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["senet_identity"]["httpOnly"]
