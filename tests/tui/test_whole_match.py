"""Whole matches played through the full-screen UI, at 80x24 and at 120x40.

Textual's headless pilot presses the keys a person would (Enter, numbers, typed
notation, arrows and ``?``, a filter word) for seat 0 while a bot worker plays the
other seats on an in-process server. At every step the board, the scores and the
prompt must be on the screen; at the end, the final scores.
"""

from __future__ import annotations

import pytest

from senet.tui.app import PlayApp
from tests.tui.conftest import Driver, check_screen, open_app, screen_text

pytestmark = pytest.mark.slow

SIZES = [(80, 24), (120, 40)]


async def _play(
    address: str, game: str, bots: int, size: tuple[int, int], options: dict[str, bool | int | str]
) -> tuple[PlayApp, Driver, str]:
    client, app = await open_app(address, game, bots, seed=11, options=options)
    try:
        async with app.run_test(size=size) as pilot:
            driver = Driver(pilot, app, size)
            await driver.play_match()
            check_screen(app, size)
            text = screen_text(app)
            await pilot.press("ctrl+q")
    finally:
        await client.close()
    return app, driver, text


@pytest.mark.parametrize(
    ("size", "options"),
    [((80, 24), {}), ((120, 40), {"quick": True})],
    ids=["80x24-four-campaigns", "120x40-quick"],
)
async def test_a_whole_mykerinos_match(
    bot_server: str, size: tuple[int, int], options: dict[str, bool | int | str]
) -> None:
    app, driver, text = await _play(bot_server, "mykerinos", 1, size, options)
    assert app.over and driver.turns > 10
    assert "FINAL" in text or "Final" in text, text
    assert "The match is over" in text, text
    assert app.summary is not None and len(app.summary.places) == 2


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_a_whole_archeos_match(bot_server: str, size: tuple[int, int]) -> None:
    app, driver, text = await _play(bot_server, "archeos", 2, size, {"advanced_site": "ur"})
    assert app.over and driver.turns > 5
    assert "The match is over" in text, text
    assert app.summary is not None and len(app.summary.places) == 3
