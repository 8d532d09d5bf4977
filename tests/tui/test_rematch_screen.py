"""The rematch on the play screen: once the match is over, ``rematch`` (typed, Enter)
asks for it and the screen moves to the rematch's seat; another player's request
shows in the prompt's header by itself."""

from __future__ import annotations

import asyncio
import random

import pytest

from senet.client.client import SeatClient, SenetClient
from senet.text.app import Session
from senet.tui import app as play_screen
from senet.tui.app import PlayApp
from senet.v1 import match_service_pb2
from tests.tui.conftest import screen_text, wait_for


async def _finished_pebbles(client: SenetClient) -> tuple[SeatClient, SeatClient]:
    match_id = await client.create_match("pebbles", 2)
    ann, bob = await client.join(match_id, "Ann"), await client.join(match_id, "Bob")
    rng = random.Random(2)

    async def decide(turn: match_service_pb2.YourTurn) -> str:
        return rng.choice(list(turn.actions)).notation

    await asyncio.wait_for(asyncio.gather(ann.play(decide), bob.play(decide)), 60)
    return ann, bob


async def test_a_player_asks_by_typing_rematch_and_moves_to_the_new_seat(
    server: tuple[str, SenetClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_screen, "REMATCH_POLL_S", 0.1)
    address, client = server
    ann, bob = await _finished_pebbles(client)
    app = PlayApp(Session(client, address, ann.match_id, ann))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.over and "rematch" in app.hint_text)
        assert "Type rematch and Enter to play again" in screen_text(app)
        bobs = await bob.rematch()
        await wait_for(pilot, app, lambda: "Bob asked for a rematch" in app.hint_text)
        app.entry.value = "rematch"
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: app.next_session is not None)
    following = app.next_session
    assert following is not None and following.seat is not None
    assert (following.match_id, following.seat.seat) == (bobs.match_id, 1)
    assert (await following.seat.get()).match.started


async def test_a_rematch_is_asked_for_once_the_match_is_over(
    server: tuple[str, SenetClient],
) -> None:
    address, client = server
    match_id = await client.create_match("pebbles", 2)
    seat = await client.join(match_id, "Ann")
    app = PlayApp(Session(client, address, match_id, seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        app.entry.value = "rematch"
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: "once the match is over" in app.hint_text)
        assert app.next_session is None


async def test_a_player_declines_by_typing_decline_and_the_other_is_told(
    server: tuple[str, SenetClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_screen, "REMATCH_POLL_S", 0.1)
    address, client = server
    ann, bob = await _finished_pebbles(client)
    bobs_screen = PlayApp(Session(client, address, bob.match_id, bob))
    async with bobs_screen.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, bobs_screen, lambda: bobs_screen.over)
        assert "or decline" in screen_text(bobs_screen)
        bobs_screen.entry.value = "decline"
        await pilot.press("enter")
        await wait_for(
            pilot, bobs_screen, lambda: "You declined the rematch" in bobs_screen.hint_text
        )
    anns_screen = PlayApp(Session(client, address, ann.match_id, ann))
    async with anns_screen.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, anns_screen, lambda: "Bob declined the rematch" in anns_screen.hint_text
        )
        anns_screen.entry.value = "rematch"
        await pilot.press("enter")
        await wait_for(pilot, anns_screen, lambda: "No rematch" in anns_screen.hint_text)
        assert anns_screen.next_session is None


async def test_a_player_waiting_in_the_rematch_learns_the_other_declined(
    server: tuple[str, SenetClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_screen, "REMATCH_POLL_S", 0.1)
    address, client = server
    ann, bob = await _finished_pebbles(client)
    anns = await ann.rematch()
    app = PlayApp(Session(client, address, anns.match_id, anns))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: "Waiting for Bob" in app.hint_text)
        await bob.decline_rematch()
        await wait_for(pilot, app, lambda: "Bob declined the rematch" in app.hint_text)
        assert "Ctrl+Q leaves" in screen_text(app)


async def test_a_decline_after_an_offer_still_shows(
    server: tuple[str, SenetClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann asks, Bob's screen offers him the rematch, and Bob declines it from
    another client: his screen stops offering it."""
    monkeypatch.setattr(play_screen, "REMATCH_POLL_S", 0.1)
    address, client = server
    ann, bob = await _finished_pebbles(client)
    app = PlayApp(Session(client, address, bob.match_id, bob))
    async with app.run_test(size=(80, 24)) as pilot:
        await ann.rematch()
        await wait_for(pilot, app, lambda: "Ann asked for a rematch" in app.hint_text)
        await bob.decline_rematch()
        await wait_for(pilot, app, lambda: "You declined the rematch" in app.hint_text)
        assert "Type rematch" not in app.hint_text
