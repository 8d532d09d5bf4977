"""Clocks and leaving on the play screen, against an in-process server.

A clocked match shows each seat's clock and a countdown that moves by itself;
Ctrl+Q asks a player to leave for good (``LeaveMatch``: the seat reopens before
the start, a bot takes it over after) or to pause (the seat is kept).
"""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.widgets import Static

from senet.client.client import SenetClient
from senet.text import clocks, leaving
from senet.text.app import Session
from senet.tui.app import PlayApp, QuitScreen
from senet.v1 import match_pb2
from tests.tui.conftest import screen_text, wait_for


def test_clock_words_are_the_same_for_both_modes() -> None:
    clock = match_pb2.ClockState(remaining_ms=[65_000, 9_250], deadline_ms=1_000_000 + 8_240)
    assert clocks.clock_text(65_000) == "1:05"
    assert clocks.clock_text(9_250) == "9.2s"
    assert clocks.clock_text(-5) == "0.0s"
    assert clocks.seat_clock(clock, 0, deciding=True, now=1_000_000) == "8.2s left"
    assert clocks.seat_clock(clock, 1, deciding=False, now=1_000_000) == "9.2s"
    line = clocks.clocks_line(clock, lambda s: "AB"[s], now=1_000_000)
    assert line == "CLOCKS  A 1:05  B 9.2s  to decide: 8.2s left"
    assert clocks.clocks_line(match_pb2.ClockState(), str) == ""
    limit_only = match_pb2.ClockState(deadline_ms=2_000_000)
    assert clocks.seat_clock(limit_only, 0, deciding=True, now=2_000_000 - 75_000) == "1:15 left"
    assert clocks.seat_clock(limit_only, 1, deciding=False, now=0) == ""


@pytest.mark.slow
async def test_a_clocked_match_counts_down_on_screen(server: tuple[str, SenetClient]) -> None:
    address, client = server
    control = match_pb2.TimeControl(decision_ms=600_000, reserve_ms=900_000, increment_ms=0)
    match_id = await client.create_match("mykerinos", 2, seed=4, time_control=control)
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    app = PlayApp(Session(client, address, match_id, seats[0]))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: len(app.players.rows) == 2 and app.clock is not None)
        (mover,) = app.clock_seats
        first = app.players.rows[mover].clock  # as drawn
        assert first.endswith(" left") and first.startswith(("10:00", "9:5")), first
        assert app.players.rows[1 - mover].clock == "15:00"  # the reserve, not running
        shown = screen_text(app)
        assert first in shown and "15:00" in shown, shown
        # The countdown moves by itself (the interval redraws the players).
        await wait_for(pilot, app, lambda: app.players.rows[mover].clock != first)
        assert app.players.rows[mover].clock in screen_text(app)


async def test_a_match_without_clocks_shows_none(server: tuple[str, SenetClient]) -> None:
    address, client = server
    match_id = await client.create_match("mykerinos", 2, seed=4)
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    app = PlayApp(Session(client, address, match_id, seats[0]))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        assert app.clock is None and [r.clock for r in app.players.rows] == ["", ""]


@pytest.mark.slow
async def test_quit_then_leave_before_the_start_reopens_the_seat(
    server: tuple[str, SenetClient],
) -> None:
    address, client = server
    match_id = await client.create_match("mykerinos", 2, seed=4)
    seat = await client.join(match_id, "Ada")
    app = PlayApp(Session(client, address, match_id, seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        await pilot.press("ctrl+q")
        await wait_for(pilot, app, lambda: isinstance(app.screen, QuitScreen))
        assert "leave for good" in screen_text(app)
        await pilot.press("escape")  # carry on
        await wait_for(pilot, app, lambda: not isinstance(app.screen, QuitScreen))
        assert app.is_running
        app.entry.value = "quit"  # the typed command asks the same
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("l")
        await wait_for(pilot, app, lambda: app.left is not None)
    assert app.left == "You left; your seat is open for someone else."
    summary = (await client.get(match_id)).match
    assert not summary.seats[seat.seat].claimed


async def test_quit_then_leave_after_the_start_hands_the_seat_to_a_bot(
    server: tuple[str, SenetClient],
) -> None:
    address, client = server
    match_id = await client.create_match(
        "mykerinos",
        2,
        seed=4,
        leave_policy=match_pb2.LEAVE_POLICY_BOT,
        leave_bot_strategy="random",
    )
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    app = PlayApp(Session(client, address, match_id, seats[0]))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        await pilot.press("ctrl+q", "l")
        await wait_for(pilot, app, lambda: app.left is not None)
    assert app.left == "You left; a bot plays your seat from now on."
    summary = (await client.get(match_id)).match
    assert summary.seats[0].takeover_strategy == "random"


async def test_a_player_left_alone_is_told_and_leaves_in_first_place(
    server: tuple[str, SenetClient],
) -> None:
    """Bob resigns: Ada's screen says she places first whatever happens, her quit
    screen that leaving keeps that place, and leaving does."""
    address, client = server
    match_id = await client.create_match("pebbles", 2, seed=4)
    ada, bob = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    while (await ada.get()).match.current_seat == ada.seat:
        await ada.submit((await ada.legal_actions()).actions[0].notation)
    app = PlayApp(Session(client, address, match_id, ada))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        await bob.leave()  # on his turn: the server plays it, and Ada's screen looks again
        await wait_for(pilot, app, lambda: app.told_alone)
        assert leaving.ALONE in app.log_pane.lines_written
        assert "seat 1 (Bob) - resigned" in screen_text(app)
        await pilot.press("ctrl+q")
        await wait_for(pilot, app, lambda: isinstance(app.screen, QuitScreen))
        dialog = app.screen.query_one(Static).render()
        assert "you keep first place" in str(dialog)
        await pilot.press("l")
        await wait_for(pilot, app, lambda: app.left is not None)
    assert app.left == leaving.LEFT_FIRST
    for _ in range(600):
        final = (await client.get(match_id)).match
        if final.status == match_pb2.MATCH_STATUS_FINISHED:
            break
        await asyncio.sleep(0.1)
    assert list(final.places) == [1, 2]


async def test_quit_then_pause_keeps_the_seat(server: tuple[str, SenetClient]) -> None:
    address, client = server
    match_id = await client.create_match("mykerinos", 2, seed=4)
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    session = Session(client, address, match_id, seats[0])
    app = PlayApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        await pilot.press("ctrl+q", "p")
    assert app.left is None and app.return_value == 0
    again = await client.seat(match_id, 0, seats[0].token).get()  # the token still holds it
    assert again.viewer_seat == 0 and again.match.seats[0].claimed
    assert not again.match.seats[0].takeover_strategy and not again.match.seats[0].resigned
    assert session.resume_command() is not None


@pytest.mark.slow
async def test_a_move_played_on_timeout_says_so_in_the_log(
    server: tuple[str, SenetClient],
) -> None:
    """Nobody answers: the server plays every decision, and the log marks each."""
    address, client = server
    control = match_pb2.TimeControl(decision_ms=300)
    match_id = await client.create_match("mykerinos", 2, seed=4, time_control=control)
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    app = PlayApp(Session(client, address, match_id, seats[0]))
    mine = re.compile(r"\(Ada, you\): .* -- played on timeout \(random\)$")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: any(map(mine.search, app.log_pane.lines_written)))
        # As the pane draws it (wrapped to its width; it scrolls on as the match runs).
        drawn = " ".join(" ".join(app.log_pane.drawn()).split())
        assert re.search(r"\(Ada, you\): .*? -- played on timeout \(random\)", drawn), drawn


async def test_a_match_that_is_gone_stops_the_screen_and_ctrl_q_just_closes(
    server: tuple[str, SenetClient],
) -> None:
    """A usability trial restarted an embedded server under a player: the screen said
    the match was gone but still listed actions, and Ctrl+Q then offered to pause,
    "keeping" a seat in a match that no longer exists. Now the list goes, the reason
    stays, and Ctrl+Q closes."""
    address, client = server
    seat = client.seat("0123456789abcdef", 0, "no-such-token")
    app = PlayApp(Session(client, address, "0123456789abcdef", seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: bool(app.stopped))
        assert app.stopped.endswith(".") and app.legal is None
        assert f"{app.stopped} Ctrl+Q leaves." == app.hint_text
        await pilot.press("ctrl+q")
        await wait_for(pilot, app, lambda: not app.is_running)
    assert not isinstance(app.screen_stack[-1] if app.screen_stack else None, QuitScreen)
    assert app.left is None and app.return_value == 0
