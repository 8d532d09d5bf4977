"""Play now from the terminal lobby: ``p`` picks a game, the queue finds a seat
(bots fill it after the wait), and the play screen gets the matched seat.

Issue 36: "the terminal lobby gets 'play now'".
"""

from __future__ import annotations

import io

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from senet.client import SenetClient
from senet.client.players import PlayerClient
from senet.text import drawing
from senet.tui import playnow
from senet.tui.lobby import LobbyApp, LobbyChoice
from senet.tui.run import lobby_session
from senet.v1 import match_pb2
from tests.tui.conftest import wait_for
from tests.tui.test_lobby import TWO_GAMES, Host, _args, _pilot_lobby


async def test_p_asks_the_game_then_queues_for_it() -> None:
    app = Host(TWO_GAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        heading = str(app.screen.query_one(Static).render())
        assert heading.startswith("PLAY NOW (the queue): which game?")
        await pilot.press("down", "enter")
    assert app.return_value == LobbyChoice("queue", game_id="archeos")


@pytest.mark.slow
async def test_play_now_is_matched_with_a_bot_rated_and_opens_the_seat(
    bot_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(playnow, "BOT_WAIT_S", 0.0)
    client = SenetClient(bot_server)
    try:
        await client.create_match("mykerinos", 1, bots=["random"], seed=6)  # a row to list

        async def play_now(pilot: Pilot[LobbyChoice | None], app: LobbyApp) -> None:
            await pilot.press("p")
            await wait_for(pilot, app, lambda: app.screen.__class__.__name__ == "GamePicker")  # type: ignore[arg-type]
            picker = app.screen.query_one("#games")
            ids = [picker.get_option_at_index(i).id for i in range(picker.option_count)]  # type: ignore[attr-defined]
            for _ in range(ids.index("mykerinos")):
                await pilot.press("down")
            await pilot.press("enter")

        out = io.StringIO()
        console = drawing.make_console(no_color=True, file=out)
        session = await lobby_session(
            _args(bot_server), client, console, run=_pilot_lobby(play_now)
        )
        assert session is not None and session.seat is not None
        summary = (await client.get(session.match_id)).match
        kinds = [s.kind for s in summary.seats]
        assert kinds.count(match_pb2.SEAT_KIND_BOT) == 1 and summary.started
        assert "Queuing for a rated Mykerinos match of 2" in out.getvalue()
        assert f"Matched: match {session.match_id}" in out.getvalue()
        board = [e async for e in PlayerClient(client).leaderboard("mykerinos")]
        assert board == []  # rated once the match ends, not before
    finally:
        await client.close()
