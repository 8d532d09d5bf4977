"""The index of ladders in a real headless Chromium: reached from the top bar, it
lists the server's ladders and leads to each one's standings; on a phone the top
bar keeps the page's title on one line (the links take a line of their own).

Screenshots of the index at both widths are saved (see conftest.py).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serve_web

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _start_two_ladders(server_port: int) -> None:
    for game, flight in (("mykerinos", "2"), ("archeos", "0")):
        started = subprocess.run(
            [sys.executable, "-m", "senet.cli", "ladder", "--server",
             f"127.0.0.1:{server_port}", "start", "--game", game, "--bots", "",
             "--max-in-flight", flight],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert started.returncode == 0, started.stdout + started.stderr


@pytest.fixture
def ladder_web(tmp_path: Path) -> Iterator[str]:
    """``senet serve`` with two ladders started (no bots) and ``senet web`` in front."""
    yield from serve_web(tmp_path, [], _start_two_ladders)


def test_the_top_bar_leads_to_the_ladders_and_each_to_its_standings(
    ladder_web: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(DESKTOP)
    page.goto(ladder_web + "/")
    page.locator("nav.top-links a", has_text="Ladders").click()
    page.wait_for_url("**/ladders")
    rows = page.locator("section.ladders tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td").nth(0).inner_text() == "archeos-2"
    assert "paused" in rows.nth(0).inner_text()
    assert "waiting for bots" in rows.nth(1).inner_text()
    page.screenshot(path=str(screenshots / "ladders-desktop.png"), full_page=True)
    page.locator("section.ladders a", has_text="mykerinos-2").click()
    page.wait_for_url("**/ladders/mykerinos-2")
    assert page.locator("h1").inner_text() == "Ladder mykerinos-2"
    page.locator("a", has_text="every ladder").click()
    page.wait_for_url("**/ladders")
    assert page.errors == []

    phone = new_page(PHONE)
    phone.goto(ladder_web + "/ladders?game=mykerinos")
    title = phone.locator("header.top .where").bounding_box()
    brand = phone.locator("header.top a.brand").bounding_box()
    links = phone.locator("header.top .top-links").bounding_box()
    assert title["height"] < 1.6 * brand["height"]  # one line, not a word cut in pieces
    assert links["y"] >= title["y"] + title["height"] - 1  # the links below it
    assert phone.locator("section.ladders tbody tr").count() == 1
    phone.screenshot(path=str(screenshots / "ladders-phone.png"), full_page=True)
    assert phone.errors == []
