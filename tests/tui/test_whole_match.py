"""Whole matches played through the full-screen UI, at 80x24 and at 120x40.

Archeos plays whole at 80x24, where its drawing is tightest; at 120x40 its first
turns are played, the wide layout's whole match being Mykerinos's.

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

#: Turns of the seat played at 120x40 in Archeos (a whole match is several times more).
TURNS_WIDE = 20


async def _play(
    address: str,
    game: str,
    bots: int,
    size: tuple[int, int],
    options: dict[str, bool | int | str],
    turns: int | None = None,
) -> tuple[PlayApp, Driver, str]:
    client, app = await open_app(address, game, bots, seed=11, options=options)
    try:
        async with app.run_test(size=size) as pilot:
            driver = Driver(pilot, app, size)
            await driver.play_match(turns)
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


async def test_a_whole_archeos_match(bot_server: str) -> None:
    app, driver, text = await _play(bot_server, "archeos", 2, (80, 24), {"advanced_site": "ur"})
    assert app.over and driver.turns > 5
    assert "The match is over" in text, text
    assert app.summary is not None and len(app.summary.places) == 3


async def test_archeos_turns_at_120x40(bot_server: str) -> None:
    app, driver, text = await _play(
        bot_server, "archeos", 2, (120, 40), {"advanced_site": "ur"}, turns=TURNS_WIDE
    )
    assert driver.turns == TURNS_WIDE and not app.over
    assert "YOUR TURN" in text, text
