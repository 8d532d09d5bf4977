"""The full-screen UI's tests: an in-process server with a bot worker, and a driver that
plays a seat through the keyboard of Textual's headless pilot.

:func:`screen_text` reads what the terminal would show (every cell of the composed
screen), so checks are about what a person sees, not about widget state alone.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import pytest
from textual.pilot import Pilot

from senet.bots.worker import BotWorker
from senet.client.client import SenetClient
from senet.service.server import create_server
from senet.service.settings import Settings
from senet.text.app import Session
from senet.tui import picker
from senet.tui.app import PlayApp

#: Pauses of the pilot before a wait gives up (a guard against a hang, not a timing).
MAX_PAUSES = 6000


@pytest.fixture
async def bot_server() -> AsyncIterator[str]:
    """A server on a free loopback port (memory store) with one bot worker; its address."""
    settings = Settings(port=0, log_json=False, host="127.0.0.1", worker_key="tui-tests")
    server = await create_server(settings)
    address = f"127.0.0.1:{server.port}"
    stop = asyncio.Event()
    worker = asyncio.create_task(
        BotWorker(address, capacity=16, worker_key=settings.worker_key).run(stop)
    )
    try:
        yield address
    finally:
        stop.set()
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
        await server.stop()


@pytest.fixture
async def server() -> AsyncIterator[tuple[str, SenetClient]]:
    """A server without bot workers (nobody moves but the test) and a client of it."""
    served = await create_server(Settings(port=0, log_json=False, host="127.0.0.1"))
    address = f"127.0.0.1:{served.port}"
    client = SenetClient(address)
    try:
        yield address, client
    finally:
        await client.close()
        await served.stop()


def screen_text(app: PlayApp) -> str:
    """The characters on the screen, row by row (what a terminal would show)."""
    strips = app.screen._compositor.render_strips()  # the composed screen, cell by cell
    return "\n".join(strip.text.rstrip() for strip in strips)


async def wait_for(pilot: Pilot[int], app: PlayApp, ready: Callable[[], bool]) -> None:
    for _ in range(MAX_PAUSES):
        if ready():
            await pilot.pause()
            return
        await pilot.pause(0.01)
    pytest.fail(f"the screen never got there:\n{screen_text(app)}")


def check_screen(app: PlayApp, size: tuple[int, int]) -> None:
    """Board, scores and prompt are all on the screen, inside it, and readable."""
    text = screen_text(app)
    rows = text.splitlines()
    assert len(rows) == size[1], text
    width, height = size
    for pane in (app.board, app.players, app.hint, app.actions, app.entry):
        region = pane.region
        assert region.height >= 1 and region.width >= 20, (pane, region, text)
        assert region.right <= width and region.bottom <= height, (pane, region, text)
    assert app.board.region.height >= 8, text
    # The board: its first line (the game's header) is on screen.
    head = app.board.lines[0].plain.strip()[:30]
    assert head and head in text, text
    # The scores: every seat's line with its score.
    summary = app.summary
    assert summary is not None
    area = app.players.region
    cells = [rows[y][area.x : area.right].rstrip() for y in range(area.y, area.bottom)]
    for row in app.players.rows:
        line = next((r for r in cells if row.label[:10] in r), None)
        assert line is not None, (row, text)
        if row.score is not None:
            assert line.endswith(f" {row.score}"), (line, text)
    # The prompt: what to do now, and the actions when it is our turn.
    assert app.hint_text and app.hint_text[:30] in text, text
    if app.legal is not None:
        assert "YOUR TURN" in text, text
        first = app.legal.actions[app.shown[0]].notation
        assert first in text, text


@dataclass
class Driver:
    """Plays the seat with the keys a person would use, in turn: Enter on the first
    action, a number, the notation typed, arrows then Enter, and a filter then Enter."""

    pilot: Pilot[int]
    app: PlayApp
    size: tuple[int, int]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    turns: int = 0

    async def play_match(self, turns: int | None = None) -> None:
        """Play to the end of the match, or ``turns`` of the seat's turns."""
        app = self.app
        while True:
            await wait_for(
                self.pilot,
                app,
                lambda: app.over or (app.legal is not None and not app.submitting),
            )
            check_screen(app, self.size)
            if app.over or self.turns == turns:
                return
            await self.play_one()
            self.turns += 1

    async def play_one(self) -> None:
        app, pilot = self.app, self.pilot
        legal = app.legal
        assert legal is not None
        count = len(legal.actions)
        way = self.turns % 5
        if way == 0:
            await pilot.press("enter")
        elif way == 1:
            number = self.rng.randint(1, count)
            await pilot.press(*str(number))
            await pilot.press("enter")
        elif way == 2:
            notation = self.rng.choice(legal.actions).notation
            app.entry.value = notation  # typed whole: the same path as keystrokes
            await pilot.pause()
            await pilot.press("enter")
        elif way == 3:
            for _ in range(self.rng.randint(0, min(count - 1, 6))):
                await pilot.press("down")
            await pilot.press("question_mark")
            await pilot.press("enter")
        else:
            # A word of the notation, as a person types to filter; where it names
            # several actions, they type more: the whole notation.
            action = self.rng.choice(legal.actions)
            word = action.notation.split()[-1]
            app.entry.value = word
            await pilot.pause()
            assert app.shown, word
            if len(picker.by_whole_words(word, list(legal.actions), app.shown)) > 1:
                app.entry.value = action.notation
                await pilot.pause()
            await pilot.press("enter")
        # Whatever was pressed, the choice reached the server or was refused with a reason.
        await wait_for(pilot, app, lambda: not app.submitting)


async def open_app(
    address: str, game: str, bots: int, seed: int, options: dict[str, bool | int | str]
) -> tuple[SenetClient, PlayApp]:
    client = SenetClient(address)
    match_id = await client.create_match(
        game, 1, bots=["random"] * bots, seed=seed, options=options
    )
    seat = await client.join(match_id, "Ada")
    return client, PlayApp(Session(client, address, match_id, seat))
